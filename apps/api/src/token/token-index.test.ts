// The token index against a real anvil chain and a real database (PGlite, or PostgreSQL under
// scripts/with-postgres.sh): every answer is checked against what the token contract itself says.
import { MULTICALL3_ADDRESS } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import {
  createPublicClient,
  createTestClient,
  encodeFunctionData,
  getAddress,
  http,
  type PublicClient,
  parseEther,
  type TestClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  delegate,
  demoAccount,
  demoAccounts,
  demoTokenIndex,
  expectIndexEqualsChain,
  transfer,
} from '../../testbed/demo-token.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { RETAINED_BLOCK_HASHES } from './token-index.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let chain: PublicClient
let testClient: TestClient
let provider: RecordingProxy
const ada = demoAccount(1)
const ben = demoAccount(2)
const cleo = demoAccount(3)
const finn = demoAccount(6)
const iris = demoAccount(9)

const newIndex = (client: PublicClient, confirmations = 0) =>
  demoTokenIndex({ db: database.db, client, deployment }, { confirmations, multicall3: MULTICALL3_ADDRESS })

/** A client whose every request goes through the provider double, so the test sees each JSON-RPC call. */
const recordedClient = () =>
  createPublicClient({ transport: http(provider.url, { retryCount: 0 }) }) as PublicClient
const calls = (method: string) => provider.forwarded.filter((call) => call.method === method)
const onChain = () => ({ client: chain, url: anvil.url, token: deployment.token })
const head = async () => Number(await chain.getBlockNumber({ cacheTime: 0 }))

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  chain = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  testClient = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
  database = await testDatabase()
  provider = await startRecordingProxy(anvil.url)
}, 60_000)

afterAll(async () => {
  await provider?.close()
  await database?.close()
  await anvil?.stop()
})

// The tests run in order on one chain and one database; each leaves the index synced for the next.
describe('token index', () => {
  test('behavior: votes, balance and delegate of every demo account at every block equal the token’s own answers', async () => {
    // One more block, so getPastVotes can be asked about the last indexed one.
    await testClient.mine({ blocks: 1 })
    const index = newIndex(chain, 1)
    const result = await index.syncOnce()
    const last = (await head()) - 1
    expect(result).toEqual({ indexedBlock: last, targetBlock: last, rewoundTo: null })
    await expectIndexEqualsChain(index, chain, deployment, result.indexedBlock)
    // Asked all at once, the lookups go to the database together (one statement a turn, ADR 077): each still
    // gets its own answer, the one it got alone above.
    const lookups = demoAccounts.flatMap((account) =>
      Array.from({ length: last - deployment.deployBlock + 1 }, (_, i) => ({
        account,
        block: deployment.deployBlock + i,
      })),
    )
    const together = await Promise.all(lookups.map(({ account, block }) => index.votesAt(account, block)))
    const alone = []
    for (const { account, block } of lookups) alone.push(await index.votesAt(account, block))
    expect(together).toEqual(alone)
    expect(new Set(alone.map((answer) => answer.value)).size).toBeGreaterThan(2)
  }, 120_000)

  test('behavior: above the indexed block every answer comes from the chain, says so, and equals the token’s', async () => {
    const index = newIndex(recordedClient(), 1)
    const indexed = await index.indexedBlock()
    await testClient.mine({ blocks: 2 })
    const block = BigInt(indexed + 1)
    const token = { address: deployment.token, abi: governanceTokenAbi } as const
    for (const account of demoAccounts) {
      const [votes, balance, delegatee] = await Promise.all([
        index.votesAt(account, block),
        index.balanceAt(account, block),
        index.delegateAt(account, block),
      ])
      expect({ votes, balance, delegatee }, account).toEqual({
        votes: {
          source: 'chain',
          value: await chain.readContract({ ...token, functionName: 'getPastVotes', args: [account, block] }),
        },
        balance: {
          source: 'chain',
          value: await chain.readContract({
            ...token,
            functionName: 'balanceOf',
            args: [account],
            blockNumber: block,
          }),
        },
        delegatee: {
          source: 'chain',
          value: await chain.readContract({
            ...token,
            functionName: 'delegates',
            args: [account],
            blockNumber: block,
          }),
        },
      })
    }
    // A block after the head is refused rather than guessed.
    await expect(index.votesAt(ada, (await head()) + 1)).rejects.toThrow('after the chain head')
  })

  test('behavior: while the index lags, a zero-power explanation reads balance and delegate in one multicall', async () => {
    const index = newIndex(recordedClient(), 1)
    const block = (await index.indexedBlock()) + 1
    provider.forwarded.length = 0
    const power = await index.votingPower(finn, block)
    expect(power).toEqual({
      votes: 0n,
      source: 'chain',
      zeroCause: { code: 'not-delegated', balance: parseEther('50') },
    })
    // getPastVotes alone, then balanceOf and delegates at the block together through Multicall3.
    expect(calls('eth_call').map((call) => getAddress((call.params[0] as { to: string }).to))).toEqual([
      getAddress(deployment.token),
      MULTICALL3_ADDRESS,
    ])
  })

  test('behavior: a new index on the same database resumes from its cursor without fetching old ranges again', async () => {
    const first = newIndex(chain)
    await first.syncOnce()
    const indexed = await first.indexedBlock()
    await transfer(onChain(), 1, iris, '5')
    provider.forwarded.length = 0
    const resumed = newIndex(recordedClient())
    const result = await resumed.syncOnce()
    expect(result.indexedBlock).toBe(await head())
    // One range, starting right after the cursor: nothing from the deployment block on is fetched again.
    expect(calls('eth_getLogs').map((call) => call.params[0])).toEqual([
      expect.objectContaining({ fromBlock: `0x${(indexed + 1).toString(16)}` }),
    ])
    expect(await resumed.balanceAt(iris, result.indexedBlock)).toEqual({
      value: parseEther('5'),
      source: 'index',
    })
  })

  test('behavior: a reorg below the indexed block (snapshot/revert, longer new chain) is rewound to the fork point and indexed again', async () => {
    const index = newIndex(chain)
    await index.syncOnce()
    const snapshot = await testClient.snapshot()
    const forkPoint = await head()
    // The history that will be dropped: Ben sends Cleo tokens and Finn delegates to himself.
    await transfer(onChain(), 2, cleo, '100')
    await delegate(onChain(), 6, finn)
    const before = await index.syncOnce()
    expect(before.indexedBlock).toBe(forkPoint + 2)
    expect(await index.votesAt(finn, forkPoint + 2)).toEqual({ value: parseEther('50'), source: 'index' })

    // The chain replaces those two blocks with others, and grows longer than before.
    await testClient.revert({ id: snapshot })
    await transfer(onChain(), 3, ben, '7')
    await testClient.mine({ blocks: 3 })
    const after = await index.syncOnce()
    // The reorg is 2 blocks deep: more than 0 and within the retained hashes, so the fork point itself is found.
    expect(before.indexedBlock - forkPoint).toBeLessThan(RETAINED_BLOCK_HASHES)
    expect(after).toEqual({ indexedBlock: await head(), targetBlock: await head(), rewoundTo: forkPoint })
    expect(await index.votesAt(finn, after.indexedBlock)).toEqual({ value: 0n, source: 'index' })
    await testClient.mine({ blocks: 1 })
    await expectIndexEqualsChain(index, chain, deployment, after.indexedBlock)
  }, 120_000)

  test('behavior: a reorg that keeps the height (anvil_reorg replaces the last 3 blocks) is found and re-applied', async () => {
    const index = newIndex(chain)
    // Synced before and after three empty blocks, so the fork point's hash is one the index stored.
    const forkPoint = (await index.syncOnce()).indexedBlock
    await testClient.mine({ blocks: 3 })
    const height = (await index.syncOnce()).indexedBlock
    expect(height).toBe(forkPoint + 3)
    // The new last three blocks: Cleo sends Iris tokens in the first, Iris delegates to Ada in the second.
    const tx = (from: number, data: `0x${string}`) => ({
      from: demoAccount(from),
      to: deployment.token,
      data,
    })
    await testClient.request({
      method: 'anvil_reorg',
      params: [
        3,
        [
          [
            tx(
              3,
              encodeFunctionData({
                abi: governanceTokenAbi,
                functionName: 'transfer',
                args: [iris, parseEther('11')],
              }),
            ),
            0,
          ],
          [tx(9, encodeFunctionData({ abi: governanceTokenAbi, functionName: 'delegate', args: [ada] })), 1],
        ],
      ],
    } as never)
    expect(await head()).toBe(height)
    const after = await index.syncOnce()
    expect(after).toEqual({ indexedBlock: height, targetBlock: height, rewoundTo: forkPoint })
    expect(await index.delegateAt(iris, height)).toEqual({ value: ada, source: 'index' })
    await testClient.mine({ blocks: 1 })
    await expectIndexEqualsChain(index, chain, deployment, height)
  }, 120_000)

  test('behavior: a chain that becomes shorter than the indexed block is rewound to the fork point at once', async () => {
    const index = newIndex(chain)
    await index.syncOnce()
    const snapshot = await testClient.snapshot()
    const forkPoint = await head()
    await transfer(onChain(), 1, cleo, '3')
    await testClient.mine({ blocks: 4 })
    expect((await index.syncOnce()).indexedBlock).toBe(forkPoint + 5)
    await testClient.revert({ id: snapshot })
    await testClient.mine({ blocks: 1 })
    const after = await index.syncOnce()
    expect(after).toEqual({ indexedBlock: forkPoint + 1, targetBlock: forkPoint + 1, rewoundTo: forkPoint })
    expect(await index.balanceAt(cleo, forkPoint + 1)).toEqual({
      value: await chain.readContract({
        address: deployment.token,
        abi: governanceTokenAbi,
        functionName: 'balanceOf',
        args: [cleo],
      }),
      source: 'index',
    })
  })
  test('behavior: two servers on one database sync at the same time: no error, both reach the head, the index equals the chain', async () => {
    const [a, b] = [newIndex(chain), newIndex(recordedClient())]
    await a.syncOnce()
    await transfer(onChain(), 2, iris, '4')
    await delegate(onChain(), 8, cleo)
    await transfer(onChain(), 5, finn, '1')
    const [fromA, fromB] = await Promise.all([a.syncOnce(), b.syncOnce()])
    const last = await head()
    expect([fromA.indexedBlock, fromB.indexedBlock]).toEqual([last, last])
    await testClient.mine({ blocks: 1 })
    await expectIndexEqualsChain(a, chain, deployment, last)
  }, 120_000)

  test('behavior: start() follows the chain in the background; stop() ends it and nothing is fetched after', async () => {
    const index = demoTokenIndex(
      { db: database.db, client: recordedClient(), deployment },
      { pollIntervalMs: 50 },
    )
    index.start()
    await transfer(onChain(), 1, iris, '2')
    const target = await head()
    const deadline = Date.now() + 10_000
    while ((await index.indexedBlock()) < target && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await index.indexedBlock()).toBe(target)
    await index.stop()
    const fetched = provider.forwarded.length
    await transfer(onChain(), 1, iris, '2')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(provider.forwarded.length).toBe(fetched)
    expect(await index.indexedBlock()).toBe(target)
  })
})
