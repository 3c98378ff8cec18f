// The treasury index against real Safes of each release on anvil and a real database (PGlite, or PostgreSQL
// under scripts/with-postgres.sh): every row kind, the nonces and Safe transaction hashes the Safe used, the
// native coin no event shows found by the balance, ranges a provider refuses, and a reorg rewound.
import { LOCAL_CHAIN_ID, type TreasuryHistoryItem } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { demoAccount } from '../../testbed/demo-token.ts'
import { member } from '../../testbed/signers.ts'
import {
  finn,
  iris,
  owners,
  SEEDED,
  type SeededTreasury,
  seedTreasuryHistory,
} from '../../testbed/treasury-safe.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { TreasuryIndex } from './treasury-index.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let token: Address
let chain: PublicClient
let provider: RecordingProxy
const databases: TestDatabase[] = []

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  token = getAddress(deployment.token)
  chain = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  provider = await startRecordingProxy(anvil.url)
}, 60_000)
afterAll(async () => {
  await provider?.close()
  for (const database of databases) await database.close()
  await anvil?.stop()
})

/** A TreasuryIndex of `seeded`'s Safe into a fresh database, from its creation block, following the demo token. */
async function newIndex(seeded: SeededTreasury, client: PublicClient = chain, maxRange?: number) {
  const database = await testDatabase()
  databases.push(database)
  return new TreasuryIndex({
    db: database.db,
    client,
    chainId: LOCAL_CHAIN_ID,
    safe: seeded.safe,
    tokens: [deployment.token],
    fromBlock: seeded.createdAt,
    confirmations: 0,
    nativeSymbol: 'ETH',
    ...(maxRange === undefined ? {} : { maxRange }),
  })
}

async function allRows(index: TreasuryIndex, filter = {}): Promise<TreasuryHistoryItem[]> {
  const rows: TreasuryHistoryItem[] = []
  for await (const page of index.historyRows(filter, 3)) rows.push(...page)
  return rows
}

const onChain = () => ({ client: chain, url: anvil.url, deployment })
const tokenBalance = (safe: Address) =>
  chain.readContract({ address: deployment.token, abi: erc20Abi, functionName: 'balanceOf', args: [safe] })

describe.each([
  ['1.3.0', 11n],
  ['1.4.1', 12n],
  ['1.5.0', 13n],
] as const)('treasury index of a Safe v%s (L1)', (version, saltNonce) => {
  let seeded: SeededTreasury
  let index: TreasuryIndex
  let rows: TreasuryHistoryItem[]

  beforeAll(async () => {
    seeded = await seedTreasuryHistory(onChain(), { version, saltNonce })
    index = await newIndex(seeded)
    await index.syncOnce()
    rows = await allRows(index)
  }, 120_000)

  test('behavior: incoming ETH and tokens, the batch payout decoded, the owner change, the failed execution, each with the Safe’s own nonce and hash', () => {
    const ada = demoAccount(1)
    const pick = (predicate: (row: TreasuryHistoryItem) => boolean) => rows.filter(predicate)
    expect(pick((r) => r.kind === 'settings' && r.detail.startsWith('SafeSetup'))).toEqual([
      expect.objectContaining({
        detail: `SafeSetup 2 of 3: ${owners.join(', ')}`,
        blockNumber: seeded.createdAt,
      }),
    ])
    expect(pick((r) => r.kind === 'incoming')).toEqual([
      expect.objectContaining({ token, amount: String(SEEDED.tokensIn), counterparty: ada }),
      expect.objectContaining({ token: null, amount: String(SEEDED.ethIn), counterparty: ada }),
    ])
    const executions = pick((r) => r.kind === 'execution' || r.kind === 'execution-failed')
    expect(
      executions.map((r) => [r.kind, r.safeNonce, r.safeTxHash, r.outsideGuildhall, r.proposal]),
    ).toEqual([
      ['execution', 3, seeded.relayed.safeTxHash, true, null],
      ['execution-failed', 2, seeded.failed.safeTxHash, true, null],
      ['execution', 1, seeded.ownerChange.safeTxHash, true, null],
      ['execution', 0, seeded.batch.safeTxHash, true, null],
    ])
    const batch = executions.at(-1) as TreasuryHistoryItem
    expect(batch.detail).toMatch(/^Batch of 2: 500000000000000000 native to 0x[0-9a-fA-F]{40}; transfer /)
    expect(batch.transactionHash).toBe(seeded.batch.transactionHash)
    // The batch's ETH is decoded from its transaction; its tokens are the token's own Transfer, tied to it.
    expect(pick((r) => r.kind === 'outgoing')).toEqual([
      expect.objectContaining({
        token: null,
        amount: String(SEEDED.ethPaid),
        counterparty: finn,
        safeTxHash: seeded.batch.safeTxHash,
        safeNonce: 0,
        transactionHash: seeded.batch.transactionHash,
      }),
      expect.objectContaining({
        token,
        amount: String(SEEDED.tokensPaid),
        counterparty: finn,
        safeTxHash: seeded.batch.safeTxHash,
      }),
    ])
    expect(pick((r) => r.kind === 'settings' && r.detail.startsWith('AddedOwner'))).toEqual([
      expect.objectContaining({
        detail: `AddedOwner ${iris}`,
        counterparty: iris,
        safeTxHash: seeded.ownerChange.safeTxHash,
        safeNonce: 1,
      }),
    ])
    expect(executions[2]?.detail).toBe(`Settings: addOwnerWithThreshold(${iris}, 2)`)
  })

  test('behavior: ETH leaving the L1 Safe inside a relayed batch is an unexplained outgoing row of exactly that amount, in its block', async () => {
    const receipt = await chain.getTransactionReceipt({ hash: seeded.relayed.transactionHash })
    expect(rows.filter((r) => r.kind === 'unexplained')).toEqual([
      expect.objectContaining({
        blockNumber: Number(receipt.blockNumber),
        logIndex: -1,
        token: null,
        amount: String(SEEDED.ethHidden),
        transactionHash: null,
        detail: 'ETH left the Safe: moved in ways this page cannot see',
      }),
    ])
    const relayed = rows.find((r) => r.safeTxHash === seeded.relayed.safeTxHash && r.kind === 'execution')
    expect(relayed?.detail).toBe(
      'Its calls are not shown: the transaction was not sent to the Safe itself (a relayer or another contract)',
    )
    expect(await allRows(index, { direction: 'outgoing', token: null })).toEqual(
      rows.filter((r) => r.token === null && (r.kind === 'outgoing' || r.kind === 'unexplained')),
    )
  })

  test('behavior: the charts’ last balances are the chain’s, and the month’s flows add up every move', async () => {
    const native = await index.charts(null)
    expect(native.balance.at(-1)?.balance).toBe(String(await chain.getBalance({ address: seeded.safe })))
    expect(native.balance.at(-1)?.balance).toBe(String(SEEDED.ethIn - SEEDED.ethPaid - SEEDED.ethHidden))
    expect(native.flows).toEqual([
      {
        month: new Date().toISOString().slice(0, 7),
        incoming: String(SEEDED.ethIn),
        outgoing: String(SEEDED.ethPaid + SEEDED.ethHidden),
      },
    ])
    const tokens = await index.charts(token)
    expect(tokens.balance.at(-1)?.balance).toBe(String(await tokenBalance(seeded.safe)))
    expect(tokens.flows[0]).toMatchObject({
      incoming: String(SEEDED.tokensIn),
      outgoing: String(SEEDED.tokensPaid),
    })
  })
})

describe('treasury index of an L2 Safe', () => {
  test('behavior: a relayed batch of a v1.3.0 SafeL2 is decoded from its SafeMultiSigTransaction log: an outgoing row, nothing unexplained', async () => {
    const seeded = await seedTreasuryHistory(onChain(), { version: '1.3.0', l2: true, saltNonce: 21n })
    const index = await newIndex(seeded)
    await index.syncOnce()
    const rows = await allRows(index)
    expect(rows.filter((r) => r.kind === 'unexplained')).toEqual([])
    expect(
      rows.filter((r) => r.safeTxHash === seeded.relayed.safeTxHash).map((r) => [r.kind, r.amount]),
    ).toEqual([
      ['outgoing', String(SEEDED.ethHidden)],
      ['execution', null],
    ])
  }, 120_000)
})

describe('treasury index behind a provider that limits eth_getLogs', () => {
  test('behavior: ranges refused as too wide are halved until accepted; the history equals the one read without limits', async () => {
    const seeded = await seedTreasuryHistory(onChain(), { version: '1.4.1', saltNonce: 31n })
    const direct = await newIndex(seeded)
    await direct.syncOnce()
    provider.refuse = (call) =>
      call.method === 'eth_getLogs' &&
      Number((call.params[0] as { toBlock: string }).toBlock) -
        Number((call.params[0] as { fromBlock: string }).fromBlock) >=
        3
        ? {
            status: 200,
            body: { error: { code: -32602, message: 'eth_getLogs is limited to a 3 block range' } },
          }
        : undefined
    const limited = await newIndex(
      seeded,
      createPublicClient({ transport: http(provider.url, { retryCount: 0 }) }) as PublicClient,
    )
    const result = await limited.syncOnce()
    provider.refuse = () => undefined
    expect(provider.refused.length).toBeGreaterThan(0)
    expect(result.indexedBlock).toBe(result.targetBlock)
    expect(await allRows(limited)).toEqual(await allRows(direct))
    expect(await limited.charts(null)).toEqual(await direct.charts(null))
  }, 120_000)
})

// Last: it sends the chain back to a snapshot.
describe('treasury index across a reorg', () => {
  test('behavior: blocks replaced after a sync are rewound to the fork point; the history and charts equal a fresh index’s', async () => {
    const seeded = await seedTreasuryHistory(onChain(), { version: '1.5.0', saltNonce: 41n })
    const testClient = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
    const index = await newIndex(seeded)
    await index.syncOnce()
    const snapshot = await testClient.snapshot()
    const ben = createWalletClient({ account: member(2), chain: undefined, transport: http(anvil.url) })
    const send = async (value: bigint) => {
      const hash = await ben.sendTransaction({ to: seeded.safe, value, chain: null })
      await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    }
    await send(parseEther('3'))
    await send(parseEther('4'))
    expect((await index.syncOnce()).rewoundTo).toBeNull()
    expect((await index.charts(null)).balance.at(-1)?.balance).toBe(String(parseEther('8.25')))
    await testClient.revert({ id: snapshot })
    await send(parseEther('1'))
    await testClient.mine({ blocks: 2 })
    const result = await index.syncOnce()
    expect(result.rewoundTo).not.toBeNull()
    const fresh = await newIndex(seeded)
    await fresh.syncOnce()
    expect(await allRows(index)).toEqual(await allRows(fresh))
    expect(await index.charts(null)).toEqual(await fresh.charts(null))
    expect((await index.charts(null)).balance.at(-1)?.balance).toBe(
      String(await chain.getBalance({ address: seeded.safe })),
    )
  }, 120_000)
})
