// Why an account has no voting power at a snapshot block: each reason the vote panel shows, decided by the
// token index, once from the synced index and once from the chain while an index has not caught up.
import { type AnswerSource, MULTICALL3_ADDRESS } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { createPublicClient, createTestClient, http, type PublicClient, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { delegate, demoAccount, demoTokenIndex, transfer } from '../../testbed/demo-token.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import type { TokenIndex } from './token-index.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let synced: TestDatabase
let empty: TestDatabase
let chain: PublicClient
/** The proposal's snapshot block in these tests; the chain moves on after it. */
let snapshot: number
const indexes = {} as Record<AnswerSource, TokenIndex>

const deployer = demoAccount(0)
const ada = demoAccount(1)
const dev = demoAccount(4)
const finn = demoAccount(6)
const gia = demoAccount(7)
const iris = demoAccount(9)

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  chain = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  const testClient = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
  snapshot = Number(await chain.getBlockNumber({ cacheTime: 0 }))
  // After the snapshot: Iris (no tokens) receives 20 from Cleo, and Gia delegates to herself.
  const onChain = { client: chain, url: anvil.url, token: deployment.token }
  await transfer(onChain, 3, iris, '20')
  await delegate(onChain, 7, gia)
  await testClient.mine({ blocks: 1 })
  ;[synced, empty] = await Promise.all([testDatabase(), testDatabase()])
  const options = { multicall3: MULTICALL3_ADDRESS } as const
  indexes.index = demoTokenIndex({ db: synced.db, client: chain, deployment }, options)
  await indexes.index.syncOnce()
  // Never synced: every block is above its indexed block, as for a server that has just started.
  indexes.chain = demoTokenIndex({ db: empty.db, client: chain, deployment }, options)
}, 60_000)

afterAll(async () => {
  await synced?.close()
  await empty?.close()
  await anvil?.stop()
})

describe.each(['index', 'chain'] as const)('zero voting power explained (answered from the %s)', (source) => {
  test('reason: no tokens at the snapshot (the deployer never held any)', async () => {
    expect(await indexes[source].votingPower(deployer, snapshot)).toEqual({
      votes: 0n,
      source,
      zeroCause: { code: 'no-tokens' },
    })
  })

  test('reason: tokens arrived after the snapshot (Iris: 0 at the snapshot, 20 now)', async () => {
    expect(await indexes[source].votingPower(iris, snapshot)).toEqual({
      votes: 0n,
      source,
      zeroCause: { code: 'tokens-after-snapshot', balanceNow: parseEther('20') },
    })
  })

  test('reason: tokens at the snapshot but not delegated (Finn never delegated)', async () => {
    expect(await indexes[source].votingPower(finn, snapshot)).toEqual({
      votes: 0n,
      source,
      zeroCause: { code: 'not-delegated', balance: parseEther('50') },
    })
  })

  test('reason: not delegated at the snapshot, though delegated since (Gia) — the snapshot decides', async () => {
    const now = Number(await chain.getBlockNumber({ cacheTime: 0 })) - 1
    expect(await indexes[source].votingPower(gia, snapshot)).toEqual({
      votes: 0n,
      source,
      zeroCause: { code: 'not-delegated', balance: parseEther('10') },
    })
    expect(await indexes[source].votingPower(gia, now)).toEqual({
      votes: parseEther('10'),
      source,
      zeroCause: null,
    })
  })

  test('reason: delegated to someone else, who is named (Dev delegated to Ada)', async () => {
    expect(await indexes[source].votingPower(dev, snapshot)).toEqual({
      votes: 0n,
      source,
      zeroCause: { code: 'delegated-to-other', balance: parseEther('250'), delegate: ada },
    })
  })

  test('behavior: with votes at the snapshot there is nothing to explain (Ada: her 1000 and Dev’s 250)', async () => {
    expect(await indexes[source].votingPower(ada, snapshot)).toEqual({
      votes: parseEther('1250'),
      source,
      zeroCause: null,
    })
  })
})
