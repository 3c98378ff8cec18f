// A proposal's execution in its result bundle and the recount of it (ADR 051), and the live stream's
// `execution` event; against the demo treasury Safe on anvil and a real database (PGlite, or PostgreSQL
// under scripts/with-postgres.sh); the setup is the kit's execution bed (testbed/beds/execution.ts).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { liveExecutionSchema, type ProposalExecution } from '@guildhall/core'
import { recount, resultBundleSchema } from '@guildhall/core/recount'
import { createPublicClient, getAddress, type Hex, http, parseEther } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  ben,
  execute,
  get,
  passedProposal,
  post,
  signHash,
  tokenTransfer,
  useExecutionBed,
} from '../../testbed/beds/execution.ts'
import { openStream } from '../../testbed/event-stream.ts'

useExecutionBed()

const chain = () => createPublicClient({ transport: http(anvil.url) })
const recipient = getAddress('0x00000000000000000000000000000000000bee01')
let proposal: Hex
let execution: ProposalExecution
let outsideTransaction: Hex

const sign = async (owner: typeof ada, safeTxHash: Hex) =>
  post(`/api/proposals/${proposal}/execution/signatures`, {
    owner: owner.address,
    safeTxHash,
    signature: await signHash(owner, safeTxHash),
  })

describe('the execution, live and in the bundle', () => {
  beforeAll(async () => {
    proposal = await passedProposal([tokenTransfer(recipient, parseEther('4'))])
    await post(`/api/proposals/${proposal}/execution/queue`, {})
  })

  test('behavior: each accepted Safe signature reaches the proposal’s live stream as an `execution` event standing at its log entry; a resumed stream gets the one it missed', async () => {
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const stream = await openStream(`${url}/api/proposals/${proposal}/events`)
    const [tally] = await stream.until(1)
    expect(tally?.event).toBe('tally')
    const queued = ((await get(`/api/proposals/${proposal}/execution`)).json() as ProposalExecution).queued
    if (!queued) throw new Error('not queued')
    expect((await sign(ada, queued.safeTxHash)).statusCode).toBe(201)
    const [, event] = await stream.until(2)
    const signedSeq = (await get(`/api/proposals/${proposal}/execution`)).json().queued.signatures[0].logSeq
    expect(event).toEqual({
      id: String(signedSeq),
      event: 'execution',
      data: liveExecutionSchema.parse({ proposalId: proposal, seq: signedSeq }),
    })
    stream.close()
    // Reconnecting from the tally's id: the signature logged since is replayed.
    const resumed = await openStream(`${url}/api/proposals/${proposal}/events`, {
      'last-event-id': tally?.id ?? '',
    })
    const [missed] = await resumed.until(1)
    expect(missed).toEqual(event)
    resumed.close()

    expect((await sign(ben, queued.safeTxHash)).statusCode).toBe(201)
    execution = (await get(`/api/proposals/${proposal}/execution`)).json() as ProposalExecution
    const receipt = await execute(queued.transaction, execution.queued?.signatures ?? [])
    expect(receipt.status).toBe('success')
    execution = (await get(`/api/proposals/${proposal}/execution`)).json() as ProposalExecution
    expect(execution.state).toBe('executed')
    // Another Safe transaction, for the tampering below: the Safe's next execution, of another proposal.
    const other = await passedProposal([tokenTransfer(recipient, 1n)], { title: 'Another payout' })
    const next = ((await post(`/api/proposals/${other}/execution/queue`, {})).json() as ProposalExecution)
      .queued
    if (!next) throw new Error('not queued')
    const signatures = await Promise.all(
      [ada, ben].map(async (owner) => ({
        owner: owner.address,
        signature: await signHash(owner, next.safeTxHash),
      })),
    )
    outsideTransaction = (await execute(next.transaction, signatures)).transactionHash
  })

  const bundleOf = async () =>
    resultBundleSchema.parse((await get(`/api/proposals/${proposal}/bundle`)).json())

  test('behavior: the bundle carries the execution (the queued transaction, both signatures with their log entries, the executing transaction), and the recount checks it against the chain: it matches', async () => {
    const bundle = await bundleOf()
    expect(bundle.execution?.entries).toHaveLength(1)
    const [entry] = bundle.execution?.entries ?? []
    expect(entry).toMatchObject({
      nonce: execution.queued?.nonce,
      safeTxHash: execution.queued?.safeTxHash,
      state: 'executed',
      executedIn: execution.executed?.transactionHash,
    })
    expect(entry?.signatures.map((s) => [s.owner, s.log.kind, s.log.seq])).toEqual(
      execution.queued?.signatures.map((s) => [s.owner, 'safe-signature', s.logSeq]),
    )
    const report = await recount([JSON.stringify(bundle)], chain())
    expect(report.differences).toEqual([])
    expect(report.matches).toBe(true)
    expect(report.executionsChecked).toBe(1)
  })

  test('behavior: the recount reports an execution that is not the signed proposal’s: another transaction named as its execution, a signature swapped for another owner’s, a changed batch', async () => {
    const bundle = await bundleOf()
    const [entry] = bundle.execution?.entries ?? []
    if (!entry || !bundle.execution) throw new Error('no execution')
    const tampered = (change: Partial<typeof entry>) => ({
      ...bundle,
      execution: { ...bundle.execution, entries: [{ ...entry, ...change }] },
    })
    const otherTransaction = await recount(
      [JSON.stringify(tampered({ executedIn: outsideTransaction }))],
      chain(),
    )
    expect(otherTransaction.differences).toEqual([
      `The Safe transaction at nonce ${entry.nonce}: transaction ${outsideTransaction} is not an execution of it by the Safe (its input differs).`,
    ])
    const [first, second] = entry.signatures
    if (!first || !second) throw new Error('two signatures expected')
    const swapped = await recount(
      [JSON.stringify(tampered({ signatures: [{ ...first, signature: second.signature }, second] }))],
      chain(),
    )
    expect(swapped.differences).toEqual([
      `The Safe transaction at nonce ${entry.nonce}: ${first.owner}'s signature is not theirs.`,
      `The Safe transaction at nonce ${entry.nonce}: ${first.owner}'s signature differs from log entry ${first.log.seq}.`,
    ])
    const changed = await recount([JSON.stringify(tampered({ safeTxHash: `0x${'cd'.repeat(32)}` }))], chain())
    expect(changed.differences).toEqual([
      `The Safe transaction at nonce ${entry.nonce} is not the one the signed actions make (its hash differs).`,
    ])
  })

  test('behavior: `npm run recount -- <proposal URL> --rpc <url>` checks the execution too, prints "matches" and exits 0', async () => {
    const url = await app
      .listen({ port: 0, host: '127.0.0.1' })
      .catch(() => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`)
    const { stdout } = await promisify(execFile)(
      'npx',
      ['tsx', 'scripts/recount.ts', `${url}/proposals/${proposal}`, '--rpc', anvil.url],
      { cwd: new URL('../../../../', import.meta.url).pathname, encoding: 'utf8', timeout: 60_000 },
    )
    expect(stdout).toContain(
      'The result matches: 1 signatures checked, 1 votes counted, 1 Safe transactions of its execution checked.',
    )
  }, 70_000)
})
