// A passed proposal carried out by the treasury Safe over HTTP (ADR 051): queue, owners' signatures,
// execution and its outcomes, the simulation and the spending per category; against real Safe v1.5.0
// contracts on anvil (the demo treasury: 2-of-3 Ada, Ben, Cleo) and a real database (PGlite, or PostgreSQL
// under scripts/with-postgres.sh); the setup is the kit's execution bed (testbed/beds/execution.ts).
import {
  expectedSafeTransaction,
  LOCAL_CHAIN_ID,
  type LogEntry,
  MULTI_SEND_CALL_ONLY,
  type ProposalExecution,
  type Simulation,
  safeSignatureId,
  type TreasuryHistoryItem,
} from '@guildhall/core'
import { executeSafeTransaction } from '@guildhall/devchain/safe'
import { eq } from 'drizzle-orm'
import { encodeFunctionData, getAddress, type Hex, parseAbi, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  approveHash,
  ben,
  cleo,
  DELAY_SECONDS,
  database,
  demoTreasury,
  deployment,
  EXPIRY_SECONDS,
  ethTransfer,
  execute,
  executionApp,
  get,
  hashOf,
  iris,
  now,
  passedProposal,
  post,
  publicClient,
  safeNonce,
  setNow,
  signHash,
  tokenBalance,
  tokenTransfer,
  treasury,
  useExecutionBed,
} from '../../testbed/beds/execution.ts'
import { jsonHeaders } from '../../testbed/test-app.ts'
import { safeExecutions, safeSignatures } from '../platform/db/schema.ts'
import { TreasuryIndex } from '../treasury/treasury-index.ts'
import { executionProposals } from './executions.ts'

useExecutionBed()

const erc20Abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)'])

const executionOf = async (id: Hex) => {
  const response = await get(`/api/proposals/${id}/execution`)
  expect(response.statusCode).toBe(200)
  return response.json() as ProposalExecution
}
const queue = (id: Hex) => post(`/api/proposals/${id}/execution/queue`, {})
const sign = async (id: Hex, owner: typeof ada, safeTxHash: Hex) =>
  post(`/api/proposals/${id}/execution/signatures`, {
    owner: owner.address,
    safeTxHash,
    signature: await signHash(owner, safeTxHash),
  })
/** A fresh recipient with nothing: its balances after show exactly what the batch paid. */
let recipients = 0
const newRecipient = () => {
  recipients += 1
  return getAddress(`0x${(0xbeef0000 + recipients).toString(16).padStart(40, '0')}`)
}
const rowsFor = (id: Hex) =>
  database.db.select().from(safeExecutions).where(eq(safeExecutions.proposalId, id))

/** The treasury index brought up to the chain's head, as the leader's job keeps it. */
async function syncTreasuryIndex() {
  await new TreasuryIndex({
    db: database.db,
    client: publicClient(),
    chainId: LOCAL_CHAIN_ID,
    safe: treasury,
    tokens: demoTreasury.tokens,
    fromBlock: demoTreasury.startBlock,
    confirmations: 0,
    nativeSymbol: 'ETH',
    executionProposals: executionProposals(database.db),
  }).syncOnce()
}

describe('the execution loop', () => {
  test('behavior: a passed proposal paying GHD and ETH is queued at the Safe’s nonce, two owners sign (each a safe-signature log entry), anyone executes with the collected signatures, and it reads executed with the recipient’s balances changed', async () => {
    const recipient = newRecipient()
    const id = await passedProposal([
      tokenTransfer(recipient, parseEther('12')),
      ethTransfer(recipient, parseEther('1.5')),
    ])
    expect((await executionOf(id)).state).toBe('ready-to-queue')

    const nonce = await safeNonce()
    const queued = await queue(id)
    expect(queued.statusCode).toBe(201)
    const execution = queued.json() as ProposalExecution
    expect(execution.state).toBe('queued')
    const entry = execution.queued
    if (!entry) throw new Error('not queued')
    expect(entry.nonce).toBe(nonce)
    expect(entry.threshold).toBe(2)
    expect(entry.owners).toEqual(demoTreasury.safe.owners)
    // The hash is core's derivation from the signed actions, the Safe's own getTransactionHash.
    expect(entry.safeTxHash).toBe(
      hashOf({
        ...entry.transaction,
        value: 0n,
        safeTxGas: 0n,
        baseGas: 0n,
        gasPrice: 0n,
        nonce: BigInt(nonce),
      }),
    )
    const onChain = await publicClient().readContract({
      address: treasury,
      abi: [
        {
          type: 'function',
          name: 'getTransactionHash',
          stateMutability: 'view',
          inputs: [
            { type: 'address' },
            { type: 'uint256' },
            { type: 'bytes' },
            { type: 'uint8' },
            { type: 'uint256' },
            { type: 'uint256' },
            { type: 'uint256' },
            { type: 'address' },
            { type: 'address' },
            { type: 'uint256' },
          ],
          outputs: [{ type: 'bytes32' }],
        },
      ],
      functionName: 'getTransactionHash',
      args: [
        entry.transaction.to,
        0n,
        entry.transaction.data,
        entry.transaction.operation,
        0n,
        0n,
        0n,
        entry.transaction.gasToken,
        entry.transaction.refundReceiver,
        BigInt(nonce),
      ],
    })
    expect(entry.safeTxHash).toBe(onChain)
    expect(entry.signatures).toEqual([])

    const first = await sign(id, ada, entry.safeTxHash)
    expect(first.statusCode).toBe(201)
    expect((first.json() as ProposalExecution).queued?.signatures).toHaveLength(1)
    // The same signature again is a replay: 200, nothing more stored or logged.
    expect((await sign(id, ada, entry.safeTxHash)).statusCode).toBe(200)
    expect((await sign(id, ben, entry.safeTxHash)).statusCode).toBe(201)
    const signed = await executionOf(id)
    expect(signed.queued?.signatures.map((s) => [s.owner, s.via])).toEqual([
      [ada.address, 'signature'],
      [ben.address, 'signature'],
    ])
    // Each signature is a governance log entry of its own kind, its message id the hash and the owner.
    const { entries } = (await get('/api/governance/log')).json() as { entries: LogEntry[] }
    for (const confirmation of signed.queued?.signatures ?? []) {
      const logged = entries.find((e) => e.seq === confirmation.logSeq)
      expect(logged).toMatchObject({
        kind: 'safe-signature',
        messageId: safeSignatureId(entry.safeTxHash, confirmation.owner),
        signature: confirmation.signature,
      })
    }

    const ethBefore = await publicClient().getBalance({ address: treasury })
    const receipt = await execute(entry.transaction, signed.queued?.signatures ?? [])
    expect(receipt.status).toBe('success')
    // Spending counts it as soon as the index has the execution, before anyone reads the proposal again.
    await syncTreasuryIndex()
    expect((await get('/api/treasury/spending')).json().categories).toContainEqual({
      category: 'Operations',
      token: null,
      amount: String(parseEther('1.5')),
      proposals: 1,
    })
    const done = await executionOf(id)
    expect(done.state).toBe('executed')
    expect(done.executed).toMatchObject({
      transactionHash: receipt.transactionHash,
      blockNumber: Number(receipt.blockNumber),
    })
    expect(await safeNonce()).toBe(nonce + 1)
    expect(await tokenBalance(recipient)).toBe(parseEther('12'))
    expect(await publicClient().getBalance({ address: recipient })).toBe(parseEther('1.5'))
    expect(await publicClient().getBalance({ address: treasury })).toBe(ethBefore - parseEther('1.5'))
    // Executed: nothing more to queue or sign.
    expect((await queue(id)).json().error).toBe('already_executed')
    expect((await sign(id, cleo, entry.safeTxHash)).json().error).toBe('already_executed')

    // The spending per category counts it under the proposal's category.
    const spending = (await get('/api/treasury/spending')).json()
    expect(spending.categories).toEqual(
      expect.arrayContaining([
        { category: 'Operations', token: null, amount: String(parseEther('1.5')), proposals: 1 },
        {
          category: 'Operations',
          token: getAddress(deployment.token),
          amount: String(parseEther('12')),
          proposals: 1,
        },
      ]),
    )
  })

  test('behavior: an owner’s on-chain approveHash counts as a confirmation, and executes with one signature', async () => {
    const recipient = newRecipient()
    const id = await passedProposal([tokenTransfer(recipient, parseEther('2'))], { category: 'Grants' })
    const entry = ((await queue(id)).json() as ProposalExecution).queued
    if (!entry) throw new Error('not queued')
    await approveHash(cleo, entry.safeTxHash)
    expect((await sign(id, ada, entry.safeTxHash)).statusCode).toBe(201)
    const confirmations = (await executionOf(id)).queued?.signatures ?? []
    expect(confirmations.map((s) => [s.owner, s.via, s.logSeq === null])).toEqual([
      [ada.address, 'signature', false],
      [cleo.address, 'approved-hash', true],
    ])
    expect((await execute(entry.transaction, confirmations)).status).toBe('success')
    expect((await executionOf(id)).state).toBe('executed')
    expect(await tokenBalance(recipient)).toBe(parseEther('2'))
  })
})

describe('outcomes', () => {
  test('behavior: another transaction uses the queued nonce → superseded (naming what replaced it); queued again at the next nonce, signed again and executed', async () => {
    const recipient = newRecipient()
    const id = await passedProposal([tokenTransfer(recipient, parseEther('3'))])
    const first = ((await queue(id)).json() as ProposalExecution).queued
    if (!first) throw new Error('not queued')
    expect((await sign(id, ada, first.safeTxHash)).statusCode).toBe(201)
    // The owners execute something else at that nonce (a 0-value self-call: Safe{Wallet}'s rejection).
    const rejection = { ...first.transaction, to: treasury, data: '0x' as Hex, operation: 0 as const }
    const rejectionHash = hashOf({
      ...rejection,
      value: 0n,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      nonce: BigInt(first.nonce),
    })
    const outside = await execute(
      rejection,
      await Promise.all(
        [ada, ben].map(async (owner) => ({
          owner: owner.address,
          signature: await signHash(owner, rejectionHash),
        })),
      ),
    )
    expect(outside.status).toBe('success')
    const superseded = await executionOf(id)
    expect(superseded.state).toBe('superseded')
    expect(superseded.queued).toBeNull()
    expect(superseded.history).toHaveLength(1)
    expect(superseded.history[0]?.safeTxHash).toBe(first.safeTxHash)
    expect(superseded.history[0]?.replacedBy).toBe(rejectionHash)
    // The old signatures are useless: executing the old transaction now reverts (GS026, the nonce moved on).
    expect((await execute(first.transaction, first.signatures.concat())).status).toBe('reverted')

    const again = ((await queue(id)).json() as ProposalExecution).queued
    if (!again) throw new Error('not queued again')
    expect(again.nonce).toBe(first.nonce + 1)
    expect(again.safeTxHash).not.toBe(first.safeTxHash)
    // A signature of the superseded hash is for another hash now.
    expect((await sign(id, ben, first.safeTxHash)).json().error).toBe('wrong_hash')
    await sign(id, ada, again.safeTxHash)
    await sign(id, ben, again.safeTxHash)
    const signatures = (await executionOf(id)).queued?.signatures ?? []
    expect((await execute(again.transaction, signatures)).status).toBe('success')
    const done = await executionOf(id)
    expect(done.state).toBe('executed')
    expect(done.history.map((h) => h.safeTxHash)).toEqual([first.safeTxHash])
    expect(await tokenBalance(recipient)).toBe(parseEther('3'))
  })

  test('behavior: a failing batch: the simulation refuses it at queue (422 with the token’s error, nothing queued); executed anyway with the owners’ signatures, the Safe reverts it whole and keeps its nonce', async () => {
    const recipient = newRecipient()
    const tooMuch = parseEther('1000000')
    const id = await passedProposal([tokenTransfer(recipient, tooMuch)])
    const refused = await queue(id)
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error).toBe('simulation_failed')
    expect(refused.json().message).toMatch(/ERC20InsufficientBalance/)
    expect(await rowsFor(id)).toEqual([])
    // The same batch signed outside the app (the hash the app would derive) and sent to the Safe.
    const nonce = await safeNonce()
    const derived = ((await get(`/api/proposals/${id}/execution`)).json() as ProposalExecution).state
    expect(derived).toBe('ready-to-queue')
    const proposal = (await get(`/api/proposals/${id}`)).json()
    const expected = expectedSafeTransaction(proposal.message, nonce, {
      chainId: LOCAL_CHAIN_ID,
      safe: treasury,
      multiSend: MULTI_SEND_CALL_ONLY['1.5.0'].address,
    })
    if (!expected) throw new Error('no transaction')
    const transaction = {
      ...expected.transaction,
      value: '0',
      safeTxGas: '0',
      baseGas: '0',
      gasPrice: '0',
      nonce: String(nonce),
    }
    const signatures = await Promise.all(
      [ada, ben].map(async (owner) => ({
        owner: owner.address,
        signature: await signHash(owner, expected.safeTxHash),
      })),
    )
    expect((await execute(transaction, signatures)).status).toBe('reverted')
    expect(await safeNonce()).toBe(nonce)
    expect(await tokenBalance(recipient)).toBe(0n)
  })

  test('behavior: before the objection delay → 409 objection_delay; not passed → 409 not_passed; no actions → 409 no_actions; past the expiry → expired, queue refused 409 expired', async () => {
    const open = await passedProposal([tokenTransfer(newRecipient(), 1n)], { final: false })
    expect((await executionOf(open)).state).toBe('not-passed')
    const notPassed = await queue(open)
    expect(notPassed.statusCode).toBe(409)
    expect(notPassed.json().error).toBe('not_passed')
    const early = await passedProposal([tokenTransfer(newRecipient(), 1n)], { delay: false })
    expect((await executionOf(early)).state).toBe('waiting-delay')
    const waiting = await queue(early)
    expect(waiting.statusCode).toBe(409)
    expect(waiting.json().error).toBe('objection_delay')
    const { executableAfter, expiresAt } = await executionOf(early)
    expect(expiresAt).toBe((executableAfter ?? 0) + EXPIRY_SECONDS)
    expect(executableAfter).toBe(now() + DELAY_SECONDS - 1)

    const none = await passedProposal(null, { title: 'No actions' })
    expect((await executionOf(none)).state).toBe('none')
    expect((await queue(none)).json().error).toBe('no_actions')

    setNow((expiresAt ?? 0) + 1)
    expect((await executionOf(early)).state).toBe('expired')
    const late = await queue(early)
    expect(late.statusCode).toBe(409)
    expect(late.json().error).toBe('expired')
  })
})

describe('an earlier nonce', () => {
  test('behavior: a proposal queued behind another waits on it; once that one expires, unused, it is waiting on an earlier nonce used outside the app; when the owners use that nonce (a rejection) it is queued again as it was, and executes', async () => {
    const recipient = newRecipient()
    const first = await passedProposal([tokenTransfer(recipient, 1n)], {
      title: 'First in line',
      final: false,
    })
    const second = await passedProposal([tokenTransfer(recipient, 2n)], {
      title: 'Second in line',
      final: false,
      period: 5400,
    })
    // Both final and past the objection delay; the first ends half an hour before the second.
    const secondEnd = ((await get(`/api/proposals/${second}`)).json() as { end: number }).end
    setNow(secondEnd + 5 * 60 + DELAY_SECONDS + 1)
    const nonce = await safeNonce()
    const a = ((await queue(first)).json() as ProposalExecution).queued
    const b = ((await queue(second)).json() as ProposalExecution).queued
    expect([a?.nonce, b?.nonce]).toEqual([nonce, nonce + 1])
    // Behind the app's own queue: queued.
    expect((await executionOf(second)).state).toBe('queued')
    // The first expires unused: nonce N now belongs to nobody in the app.
    const firstExpiry = (await executionOf(first)).expiresAt ?? 0
    setNow(firstExpiry + 1)
    expect((await executionOf(first)).state).toBe('expired')
    const waiting = await executionOf(second)
    expect(waiting.state).toBe('waiting-earlier-nonce')
    expect(waiting.safeNonce).toBe(nonce)
    // The owners use nonce N outside the app (Safe{Wallet}'s rejection: a 0-value call to the Safe itself).
    const rejection = await executeSafeTransaction(
      { rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID },
      { safe: treasury, signers: [ada.address, ben.address], to: treasury },
    )
    expect(rejection.status).toBe('success')
    expect((await executionOf(second)).state).toBe('queued')
    if (!b) throw new Error('not queued')
    await sign(second, ada, b.safeTxHash)
    await sign(second, cleo, b.safeTxHash)
    const signatures = (await executionOf(second)).queued?.signatures ?? []
    expect((await execute(b.transaction, signatures)).status).toBe('success')
    expect((await executionOf(second)).state).toBe('executed')
    expect(await tokenBalance(recipient)).toBe(2n)
  })
})

describe('the treasury’s view of executions', () => {
  test('behavior: the treasury history names the proposal of each execution the app queued, and lists one it did not queue as executed outside Guildhall; spending counts what that one paid under no category (null)', async () => {
    // A payout the owners make without a proposal: 5 GHD, signed and executed outside the app.
    const recipient = newRecipient()
    const outside = await executeSafeTransaction(
      { rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID },
      {
        safe: treasury,
        signers: [ada.address, ben.address],
        to: getAddress(deployment.token),
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [recipient, parseEther('5')],
        }),
      },
    )
    expect(outside.status).toBe('success')
    await syncTreasuryIndex()
    const history = (await get('/api/treasury/history?direction=executions&limit=100')).json() as {
      items: TreasuryHistoryItem[]
    }
    const queued = await database.db.select().from(safeExecutions).where(eq(safeExecutions.state, 'executed'))
    expect(queued.length).toBeGreaterThan(0)
    for (const row of queued) {
      const item = history.items.find((i) => i.safeTxHash === row.safeTxHash)
      expect(item).toMatchObject({
        kind: 'execution',
        outsideGuildhall: false,
        proposal: { id: row.proposalId },
      })
    }
    const listed = history.items.find((i) => i.transactionHash === outside.transactionHash)
    expect(listed).toMatchObject({
      kind: 'execution',
      outsideGuildhall: true,
      proposal: null,
      safeTxHash: outside.safeTxHash,
    })
    const spending = (await get('/api/treasury/spending')).json()
    expect(spending.categories).toContainEqual({
      category: null,
      token: getAddress(deployment.token),
      amount: String(parseEther('5')),
      proposals: 0,
    })
  })
})

describe('signatures refused', () => {
  test('behavior: a signature for another hash → 422 wrong_hash; by a non-owner → 403 not_owner; not the owner’s → 401 bad_signature; not in the Safe’s form → 401; nothing stored or logged', async () => {
    const id = await passedProposal([tokenTransfer(newRecipient(), 1n)])
    const entry = ((await queue(id)).json() as ProposalExecution).queued
    if (!entry) throw new Error('not queued')
    const logBefore = ((await get('/api/governance/log')).json() as { entries: LogEntry[] }).entries.length
    const other = `0x${'ab'.repeat(32)}` as Hex
    const wrong = await post(`/api/proposals/${id}/execution/signatures`, {
      owner: ada.address,
      safeTxHash: other,
      signature: await signHash(ada, other),
    })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.json()).toEqual({
      error: 'wrong_hash',
      message: `This is not the hash of the proposal’s queued Safe transaction (${entry.safeTxHash}, nonce ${entry.nonce}).`,
    })
    const stranger = await sign(id, iris, entry.safeTxHash)
    expect(stranger.statusCode).toBe(403)
    expect(stranger.json().error).toBe('not_owner')
    const forged = await post(`/api/proposals/${id}/execution/signatures`, {
      owner: ada.address,
      safeTxHash: entry.safeTxHash,
      signature: await signHash(ben, entry.safeTxHash),
    })
    expect(forged.statusCode).toBe(401)
    expect(forged.json().error).toBe('bad_signature')
    const sig = await signHash(ada, entry.safeTxHash)
    const ethSignForm = `${sig.slice(0, -2)}${(Number.parseInt(sig.slice(-2), 16) + 4).toString(16)}` as Hex
    const form = await post(`/api/proposals/${id}/execution/signatures`, {
      owner: ada.address,
      safeTxHash: entry.safeTxHash,
      signature: ethSignForm,
    })
    expect(form.statusCode).toBe(401)
    expect(
      await database.db.select().from(safeSignatures).where(eq(safeSignatures.safeTxHash, entry.safeTxHash)),
    ).toEqual([])
    expect(((await get('/api/governance/log')).json() as { entries: LogEntry[] }).entries.length).toBe(
      logBefore,
    )
  })
})

describe('simulation', () => {
  test('behavior: POST /api/treasury/simulate: a payout batch → success, its gas and the balance changes of the Safe and the recipient; a transfer above the balance → success false with the token’s error; nothing changes on chain', async () => {
    const recipient = newRecipient()
    const nonce = await safeNonce()
    const ok = await post('/api/treasury/simulate', {
      actions: [tokenTransfer(recipient, parseEther('5')), ethTransfer(recipient, 7n)],
      changesSafeSettings: false,
    })
    expect(ok.statusCode).toBe(200)
    const simulation = ok.json() as Simulation
    expect(simulation.success).toBe(true)
    expect(simulation.revert).toBeNull()
    expect(BigInt(simulation.gasUsed)).toBeGreaterThan(0n)
    expect(simulation.balanceChanges).toEqual([
      { token: getAddress(deployment.token), account: treasury, delta: String(-parseEther('5')) },
      { token: getAddress(deployment.token), account: recipient, delta: String(parseEther('5')) },
      { token: null, account: treasury, delta: '-7' },
      { token: null, account: recipient, delta: '7' },
    ])
    const failing = (
      await post('/api/treasury/simulate', {
        actions: [tokenTransfer(recipient, parseEther('99999999'))],
        changesSafeSettings: false,
      })
    ).json() as Simulation
    expect(failing.success).toBe(false)
    expect(failing.revert).toMatch(/^ERC20InsufficientBalance\(/)
    expect(await safeNonce()).toBe(nonce)
    expect(await tokenBalance(recipient)).toBe(0n)
  })

  test('behavior: bad input → a precise 4xx, never a 500: a call to the Safe itself without the settings flag → 422 bad_actions; malformed actions → 400; an unknown proposal → 404; a malformed id → 400; a malformed signature body → 400', async () => {
    const selfCall = await post('/api/treasury/simulate', {
      actions: [{ target: treasury, value: '0', data: '0x' }],
      changesSafeSettings: false,
    })
    expect(selfCall.statusCode).toBe(422)
    expect(selfCall.json().error).toBe('bad_actions')
    for (const body of [
      {},
      { actions: [{ target: 'nope', value: '0', data: '0x' }], changesSafeSettings: false },
      { actions: [{ target: treasury, value: '-1', data: '0x' }], changesSafeSettings: false },
      { actions: [{ target: treasury, value: '0', data: '0xz' }], changesSafeSettings: false },
      { actions: [], changesSafeSettings: 'yes' },
    ]) {
      const response = await post('/api/treasury/simulate', body)
      expect(response.statusCode).toBe(400)
      expect(Object.keys(response.json()).sort()).toEqual(['error', 'message'])
    }
    const unknown = `0x${'1'.repeat(64)}`
    expect((await get(`/api/proposals/${unknown}/execution`)).statusCode).toBe(404)
    expect((await queue(unknown as Hex)).statusCode).toBe(404)
    expect((await get('/api/proposals/0x12/execution')).statusCode).toBe(400)
    for (const body of [
      {},
      { owner: ada.address },
      { owner: 'x', safeTxHash: unknown, signature: '0x' },
      { owner: ada.address, safeTxHash: unknown, signature: '0x12', extra: 1 },
    ]) {
      const response = await post(`/api/proposals/${unknown}/execution/signatures`, body)
      expect(response.statusCode).toBe(400)
    }
  })

  test('behavior: queue, signatures and simulation are rate-limited per client: past EXECUTION_RATE_LIMIT_PER_MINUTE → 429 rate_limited, each route counted apart', async () => {
    const limited = await executionApp({ EXECUTION_RATE_LIMIT_PER_MINUTE: '2' })
    try {
      const body = { actions: [ethTransfer(newRecipient(), 1n)], changesSafeSettings: false }
      // A client no other test is: on PostgreSQL the counts of every app on the database are one.
      const send = (url: string, payload: unknown) =>
        limited.inject({
          method: 'POST',
          url,
          headers: jsonHeaders,
          payload: JSON.stringify(payload),
          remoteAddress: '203.0.113.23',
        })
      const burst = []
      for (let i = 0; i < 3; i++) burst.push(await send('/api/treasury/simulate', body))
      expect(burst.map((response) => response.statusCode)).toEqual([200, 200, 429])
      expect(burst[2]?.json()).toEqual({ error: 'rate_limited', message: expect.stringMatching(/retry in/) })
      const unknown = `/api/proposals/0x${'2'.repeat(64)}/execution`
      const queued = []
      for (let i = 0; i < 3; i++) queued.push((await send(`${unknown}/queue`, {})).statusCode)
      expect(queued).toEqual([404, 404, 429])
      const signed = []
      const signature = { owner: ada.address, safeTxHash: `0x${'3'.repeat(64)}`, signature: '0x' }
      for (let i = 0; i < 3; i++) signed.push((await send(`${unknown}/signatures`, signature)).statusCode)
      expect(signed).toEqual([404, 404, 429])
    } finally {
      await limited.close()
    }
  })
})
