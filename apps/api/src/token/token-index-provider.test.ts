// The token index behind a provider that refuses wide eth_getLogs ranges. The provider is our test double
// (devchain's recording proxy: an HTTP proxy on 127.0.0.1 in front of a real anvil), answering as hosted providers do
// when a range has too many blocks or results; everything else reaches anvil unchanged.
import { MULTICALL3_ADDRESS } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import {
  logsRange,
  type RecordingProxy,
  type RpcRefusal as Refusal,
  type RecordedRpcCall as RpcCall,
  startRecordingProxy,
} from '@guildhall/devchain/recording-proxy'
import { createPublicClient, createTestClient, http, type PublicClient } from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { demoTokenIndex, expectIndexEqualsChain } from '../../testbed/demo-token.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { tokenVoteCheckpoints } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'

/** The widest eth_getLogs range the double accepts in the refusal tests. */
const ACCEPTED_SPAN = 4

let anvil: AnvilInstance
let deployment: DemoDeployment
let chain: PublicClient
let provider: RecordingProxy
let database: TestDatabase
let head: number

const newIndex = (client: PublicClient) =>
  demoTokenIndex(
    { db: database.db, client, deployment },
    // The head stays one block above `head`, so getPastVotes can be asked about every indexed block.
    { confirmations: 1, multicall3: MULTICALL3_ADDRESS },
  )
const viaProvider = (options: Parameters<typeof http>[1] = {}) =>
  createPublicClient({ transport: http(provider.url, { retryCount: 0, ...options }) }) as PublicClient
const span = (call: RpcCall) => logsRange(call).to - logsRange(call).from + 1
const getLogs = <T extends RpcCall>(calls: T[]) => calls.filter((call) => call.method === 'eth_getLogs')

/** The accepted ranges cover deployment…head exactly once, in order: nothing skipped, nothing applied twice. */
function expectContiguous(calls: RpcCall[]) {
  const ranges = getLogs(calls).map(logsRange)
  expect(ranges[0]?.from).toBe(deployment.deployBlock)
  expect(ranges.at(-1)?.to).toBe(head)
  for (const [i, range] of ranges.entries()) if (i > 0) expect(range.from).toBe((ranges[i - 1]?.to ?? 0) + 1)
}

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  head = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber())
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 1 })
  chain = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  provider = await startRecordingProxy(anvil.url)
}, 60_000)

afterAll(async () => {
  await provider?.close()
  await anvil?.stop()
})

// Each test indexes from scratch into its own database.
beforeEach(async () => {
  database = await testDatabase()
  provider.forwarded.length = 0
  provider.refused.length = 0
  provider.refuse = () => undefined
  provider.rewrite = undefined
})
afterEach(async () => {
  await database?.close()
})

const tooWide = (call: RpcCall) => call.method === 'eth_getLogs' && span(call) > ACCEPTED_SPAN

describe('token index behind a provider that limits eth_getLogs', () => {
  test.each<[string, Refusal]>([
    [
      'JSON-RPC -32602 over HTTP 200 (as Alchemy words a block range too wide)',
      {
        status: 200,
        body: {
          error: { code: -32602, message: `eth_getLogs is limited to a ${ACCEPTED_SPAN} block range` },
        },
      },
    ],
    [
      'JSON-RPC -32005 over HTTP 200 (as Infura says a query returned too many results)',
      { status: 200, body: { error: { code: -32005, message: 'query returned more than 10000 results' } } },
    ],
    ['HTTP 413 with a plain-text body', { status: 413, body: 'Request Entity Too Large' }],
  ])(
    'behavior: a range refused with %s is halved until accepted; the index equals the chain',
    async (_name, refusal) => {
      provider.refuse = (call) => (tooWide(call) ? refusal : undefined)
      const index = newIndex(viaProvider())
      expect(await index.syncOnce()).toEqual({ indexedBlock: head, targetBlock: head, rewoundTo: null })
      // The first request asks for everything (the default 10,000-block range); halving reaches ≤ 4 blocks.
      expect(provider.refused.length).toBeGreaterThan(0)
      expect(span(getLogs(provider.refused)[0] as RpcCall)).toBe(head - deployment.deployBlock + 1)
      expect(getLogs(provider.forwarded).every((call) => span(call) <= ACCEPTED_SPAN)).toBe(true)
      expectContiguous(provider.forwarded)
      await expectIndexEqualsChain(index, chain, deployment, head)
    },
    60_000,
  )

  test('behavior: an answer larger than the client accepts (viem’s maxResponseBodySize) is halved like a refusal', async () => {
    // A few logs fit in 3 KB; the demo seed never puts more than two of the token's logs in one block.
    const limit = 3_000
    const index = newIndex(viaProvider({ maxResponseBodySize: limit }))
    expect(await index.syncOnce()).toEqual({ indexedBlock: head, targetBlock: head, rewoundTo: null })
    const answered = getLogs(provider.forwarded)
    const [oversized, accepted] = [
      answered.filter((call) => call.responseBytes > limit),
      answered.filter((call) => call.responseBytes <= limit),
    ]
    expect(span(oversized[0] as RpcCall)).toBe(head - deployment.deployBlock + 1)
    expect(span(answered[0] as RpcCall)).toBe(head - deployment.deployBlock + 1)
    expectContiguous(accepted)
    await expectIndexEqualsChain(index, chain, deployment, head)
  }, 60_000)

  test('behavior: a rate limit (HTTP 429) is not a refusal: the sync fails, the range is kept, and the next sync succeeds', async () => {
    let limited = true
    provider.refuse = (call) =>
      call.method === 'eth_getLogs' && limited
        ? { status: 429, body: { error: { code: 429, message: 'Too many requests' } } }
        : undefined
    const index = newIndex(viaProvider())
    await expect(index.syncOnce()).rejects.toThrow()
    expect(await index.indexedBlock()).toBe(deployment.deployBlock - 1)
    limited = false
    expect(await index.syncOnce()).toEqual({ indexedBlock: head, targetBlock: head, rewoundTo: null })
    // One refused request, then the whole history in one range, as before the rate limit.
    expect(getLogs(provider.refused)).toHaveLength(1)
    expect(getLogs(provider.forwarded).map(logsRange)).toEqual([{ from: deployment.deployBlock, to: head }])
  })

  test('behavior: a single block the provider refuses ends the sync with the error instead of looping', async () => {
    provider.refuse = (call) =>
      call.method === 'eth_getLogs'
        ? {
            status: 200,
            body: { error: { code: -32005, message: 'query returned more than 10000 results' } },
          }
        : undefined
    const index = newIndex(viaProvider())
    await expect(index.syncOnce()).rejects.toThrow('more than 10000 results')
    // Halved down to one block (log2 of the span, plus the one-block request), then given up.
    const spans = getLogs(provider.refused).map(span)
    expect(spans.at(-1)).toBe(1)
    expect(spans.length).toBeLessThanOrEqual(Math.ceil(Math.log2(head - deployment.deployBlock + 1)) + 1)
    expect(await index.indexedBlock()).toBe(deployment.deployBlock - 1)
  })
})

describe('token index behind a node that sends no block times with its logs', () => {
  test('behavior: each vote checkpoint is dated with its block’s time, that block asked for once by its hash; the cursor carries the indexed block’s time', async () => {
    // Nodes older than the JSON-RPC specification's blockTimestamp in logs (as anvil sends it) leave it out.
    provider.rewrite = (call, answer) =>
      call.method === 'eth_getLogs' && Array.isArray(answer.result)
        ? {
            ...answer,
            result: answer.result.map(({ blockTimestamp: _, ...log }: { blockTimestamp?: unknown }) => log),
          }
        : answer
    const index = newIndex(viaProvider())
    expect(await index.syncOnce()).toEqual({ indexedBlock: head, targetBlock: head, rewoundTo: null })
    const rows = await database.db.select().from(tokenVoteCheckpoints)
    expect(rows.length).toBeGreaterThan(0)
    const blocks = [...new Set(rows.map((row) => row.block))]
    for (const block of blocks) {
      const { timestamp } = await chain.getBlock({ blockNumber: BigInt(block) })
      for (const row of rows.filter((row) => row.block === block))
        expect(row.blockTime, `block ${block}`).toBe(Number(timestamp))
    }
    const byHash = provider.forwarded.filter((call) => call.method === 'eth_getBlockByHash')
    expect(byHash).toHaveLength(blocks.length)
    expect((await index.totalVotes())?.blockTime).toBe(
      Number((await chain.getBlock({ blockNumber: BigInt(head) })).timestamp),
    )
  }, 60_000)

  test('behavior: a node that sends them is asked for no block by hash', async () => {
    const index = newIndex(viaProvider())
    await index.syncOnce()
    expect(provider.forwarded.filter((call) => call.method === 'eth_getBlockByHash')).toEqual([])
    expect(await database.db.select().from(tokenVoteCheckpoints)).not.toEqual([])
  }, 60_000)
})
