// The treasury's HTTP answers against a real Safe on anvil and a real database: the Safe read live with its
// warnings, the history filtered and paged, the CSV, the charts, the refusals (400, never 500), and 503
// `safe_unavailable` while the chain does not answer (the RPC behind devchain's recording proxy, set down),
// then the answer again once it does.
import { LOCAL_CHAIN_ID, safeSettingsAbi, type TreasuryHistoryItem } from '@guildhall/core'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import { createSafeOfVersion, executeSafeTransaction } from '@guildhall/devchain/safe'
import type { FastifyInstance } from 'fastify'
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  http,
  type PublicClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { compileContract } from '../../../../scripts/build-contracts.ts'
import { demoAccount, demoTokenIndex } from '../../testbed/demo-token.ts'
import { member } from '../../testbed/signers.ts'
import { startTestbed, stopTestbed, type Testbed, testApp } from '../../testbed/test-app.ts'
import {
  finn,
  iris,
  owners,
  SEEDED,
  type SeededTreasury,
  seedTreasuryHistory,
} from '../../testbed/treasury-safe.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { TreasuryIndex } from './treasury-index.ts'

let testbed: Testbed
let chain: PublicClient
let provider: RecordingProxy
let seeded: SeededTreasury
let app: FastifyInstance
let index: TreasuryIndex
let rows: TreasuryHistoryItem[]
const apps: FastifyInstance[] = []
/** Apps of other treasury settings get a database of their own: one index per database, and another Safe resets it. */
let otherDatabase: TestDatabase
const otherApp = async (env: Record<string, string> = {}) => {
  const other = await testApp({ ...testbed, database: otherDatabase }, { env })
  apps.push(other)
  return other
}

const treasuryEnv = (safe: string, startBlock: number) => ({
  TREASURY_SAFE: safe,
  TREASURY_START_BLOCK: String(startBlock),
})
const get = (url: string, on = app) => on.inject({ method: 'GET', url })

beforeAll(async () => {
  testbed = await startTestbed()
  chain = createPublicClient({ transport: http(testbed.anvil.url) }) as PublicClient
  provider = await startRecordingProxy(testbed.anvil.url)
  otherDatabase = await testDatabase()
  seeded = await seedTreasuryHistory(
    { client: chain, url: testbed.anvil.url, deployment: testbed.deployment },
    { version: '1.5.0', saltNonce: 51n },
  )
  // The members directory (owner-not-member) and the treasury's history, synced before the requests; the
  // app's own leader job keeps them from here under the same cursors.
  for (const database of [testbed.database, otherDatabase])
    await demoTokenIndex({ db: database.db, client: chain, deployment: testbed.deployment }).syncOnce()
  index = new TreasuryIndex({
    db: testbed.database.db,
    client: chain,
    chainId: LOCAL_CHAIN_ID,
    safe: seeded.safe,
    tokens: [getAddress(testbed.deployment.token)],
    fromBlock: seeded.createdAt,
    confirmations: 0,
    nativeSymbol: 'ETH',
  })
  await index.syncOnce()
  rows = []
  for await (const page of index.historyRows({})) rows.push(...page)
  app = await testApp(testbed, { env: treasuryEnv(seeded.safe, seeded.createdAt), rpcUrl: provider.url })
}, 120_000)
afterAll(async () => {
  await provider?.close()
  for (const other of apps) await other.close()
  await otherDatabase?.close()
  await stopTestbed(testbed, app)
})

describe('GET /api/treasury', () => {
  test('behavior: the Safe read live: owners, threshold, nonce, version, assets summed, and an owner who is not a member warned of', async () => {
    const response = await get('/api/treasury')
    expect(response.statusCode).toBe(200)
    const summary = response.json()
    // addOwnerWithThreshold puts the new owner first in the Safe's list.
    expect(summary).toMatchObject({
      configured: true,
      safe: {
        address: seeded.safe,
        name: null,
        version: '1.5.0',
        owners: [iris, ...owners],
        threshold: 2,
        nonce: 4,
        modules: [],
        guard: null,
      },
      addresses: [],
      warnings: [
        { kind: 'owner-not-member', address: iris, message: `Signer ${iris} is not a member of the DAO.` },
      ],
      assets: [
        {
          token: null,
          symbol: 'ETH',
          decimals: 18,
          balance: String(SEEDED.ethIn - SEEDED.ethPaid - SEEDED.ethHidden),
          value: null,
        },
        {
          token: getAddress(testbed.deployment.token),
          symbol: 'GHD',
          decimals: 18,
          balance: String(SEEDED.tokensIn - SEEDED.tokensPaid),
          value: null,
        },
      ],
    })
    expect(summary.blockNumber).toBe(Number(await chain.getBlockNumber({ cacheTime: 0 })))
  })

  test('behavior: a 1-of-1 v1.3.0 Safe with a module and a guard gets every warning; plain addresses add their balances', async () => {
    const target = { rpcUrl: testbed.anvil.url, chainId: LOCAL_CHAIN_ID }
    const ada = demoAccount(1)
    const { address: safe, transactionHash } = await createSafeOfVersion(target, {
      version: '1.3.0',
      owners: [ada],
      threshold: 1,
      saltNonce: 52n,
    })
    const guard = demoAccount(8)
    for (const [functionName, arg] of [
      ['enableModule', finn],
      // v1.3.0 takes any address as a guard; last, as a guard without code would refuse every later execution.
      ['setGuard', guard],
    ] as const) {
      const result = await executeSafeTransaction(target, {
        safe,
        signers: [ada],
        to: safe,
        data: encodeFunctionData({ abi: safeSettingsAbi, functionName, args: [arg] }),
      })
      expect(result.status).toBe('success')
    }
    const created = Number((await chain.getTransactionReceipt({ hash: transactionHash })).blockNumber)
    const other = await otherApp({ ...treasuryEnv(safe, created), TREASURY_ADDRESSES: `${finn},${iris}` })
    const summary = (await get('/api/treasury', other)).json()
    expect(summary.safe).toMatchObject({
      version: '1.3.0',
      owners: [ada],
      threshold: 1,
      modules: [finn],
      guard,
    })
    expect(
      summary.warnings.map((w: { kind: string; address: string | null }) => [w.kind, w.address]),
    ).toEqual([
      ['module', finn],
      ['guard', guard],
      ['threshold-one', null],
    ])
    const balances = await Promise.all([safe, finn, iris].map((address) => chain.getBalance({ address })))
    expect(summary.addresses).toEqual([finn, iris])
    expect(summary.assets[0].balance).toBe(String(balances.reduce((a, b) => a + b, 0n)))
  })

  test('behavior: with PRICE_FEEDS, a token and the native coin are valued by their on-chain feeds, to the cent', async () => {
    // A stand-in for Chainlink's feeds (the outside world's contracts), deployed on anvil by Finn.
    const compiled = compileContract('contracts/TestPriceFeed.sol', 'TestPriceFeed')
    const finnWallet = createWalletClient({ account: member(6), transport: http(testbed.anvil.url) })
    const deploy = async (answer: bigint, decimals: number, description: string) => {
      const hash = await finnWallet.deployContract({
        abi: compiled.abi as Abi,
        bytecode: compiled.bytecode,
        args: [answer, decimals, description],
        chain: null,
      })
      const receipt = await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 })
      return receipt.contractAddress as Address
    }
    const ethFeed = await deploy(2_000_12345678n, 8, 'ETH / USD')
    const ghdFeed = await deploy(1_500000n, 6, 'GHD / EUR')
    const token = getAddress(testbed.deployment.token)
    const valued = await otherApp({
      ...treasuryEnv(seeded.safe, seeded.createdAt),
      PRICE_FEEDS: `native=${ethFeed},${token}=${ghdFeed}`,
    })
    const { assets } = (await get('/api/treasury', valued)).json()
    // 1.25 ETH × 2,000.12345678 USD = 2,500.1543…; 90 GHD × 1.5 EUR = 135.
    expect(assets.map((asset: { value: unknown }) => asset.value)).toEqual([
      { amount: '2500.15', currency: 'USD' },
      { amount: '135', currency: 'EUR' },
    ])
  })

  test('behavior: 503 safe_unavailable while the chain does not answer, the summary again once it does', async () => {
    provider.down = true
    try {
      const down = await get('/api/treasury')
      expect(down.statusCode).toBe(503)
      expect(down.json()).toEqual({
        error: 'safe_unavailable',
        message:
          'Could not load Safe information: the chain did not answer, or the treasury address is not a Safe. Try again shortly.',
      })
    } finally {
      provider.down = false
    }
    const again = await get('/api/treasury')
    expect(again.statusCode).toBe(200)
    expect(again.json().safe.address).toBe(seeded.safe)
  })

  test('behavior: 20 page views at one block read the Safe once (its guard slot asked once); the next block reads it again', async () => {
    const guardReads = () => provider.calls.filter((call) => call.method === 'eth_getStorageAt').length
    await get('/api/treasury')
    const before = guardReads()
    const views = await Promise.all(Array.from({ length: 20 }, () => get('/api/treasury')))
    expect(views.map((view) => view.statusCode)).toEqual(Array(20).fill(200))
    expect(new Set(views.map((view) => view.json().blockNumber)).size).toBe(1)
    expect(guardReads() - before).toBe(0)
    await createTestClient({ mode: 'anvil', transport: http(testbed.anvil.url) }).mine({ blocks: 1 })
    const next = await get('/api/treasury')
    expect(next.json().blockNumber).toBe(views[0]?.json().blockNumber + 1)
    expect(guardReads() - before).toBe(1)
  })

  test('behavior: an address that is not a Safe is 503 safe_unavailable; without TREASURY_SAFE the answer says there is none', async () => {
    const notSafe = await otherApp(treasuryEnv(finn, 0))
    const none = await otherApp()
    const refused = await get('/api/treasury', notSafe)
    expect(refused.statusCode).toBe(503)
    expect(refused.json().error).toBe('safe_unavailable')
    expect((await get('/api/treasury', none)).json()).toEqual({
      configured: false,
      safe: null,
      addresses: [],
      blockNumber: 0,
      warnings: [],
      assets: [],
    })
    for (const url of ['/api/treasury/history', '/api/treasury/history.csv', '/api/treasury/charts']) {
      const answer = await get(url, none)
      expect(answer.statusCode, url).toBe(404)
      expect(answer.json(), url).toEqual({ error: 'no_treasury', message: 'No treasury Safe is configured.' })
    }
  })
})

describe('GET /api/treasury/history', () => {
  test('behavior: pages of 2 follow each other to the whole history, newest first, each row once', async () => {
    const seen: TreasuryHistoryItem[] = []
    let url = '/api/treasury/history?limit=2'
    for (;;) {
      const page = (await get(url)).json()
      expect(page.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.items)
      if (page.next === null) break
      url = `/api/treasury/history?limit=2&cursor=${page.next}`
    }
    expect(seen).toEqual(rows)
    expect(seen.length).toBeGreaterThan(8)
  })

  test('behavior: direction, token and dates filter the rows', async () => {
    const items = async (query: string) =>
      (await get(`/api/treasury/history?limit=100&${query}`)).json().items
    expect(await items('direction=incoming')).toEqual(rows.filter((r) => r.kind === 'incoming'))
    expect(await items('direction=outgoing&token=native')).toEqual(
      rows.filter((r) => r.token === null && (r.kind === 'outgoing' || r.kind === 'unexplained')),
    )
    expect(await items('direction=settings')).toEqual(rows.filter((r) => r.kind === 'settings'))
    expect(await items('direction=executions')).toEqual(rows.filter((r) => r.kind.startsWith('execution')))
    expect(await items(`token=${testbed.deployment.token.toLowerCase()}`)).toEqual(
      rows.filter((r) => r.token === getAddress(testbed.deployment.token)),
    )
    const newest = rows[0] as TreasuryHistoryItem
    expect(await items(`from=${newest.timestamp}&to=${newest.timestamp}`)).toEqual(
      rows.filter((r) => r.timestamp === newest.timestamp),
    )
    expect(await items(`to=${newest.timestamp - 100_000}`)).toEqual([])
  })

  test('behavior: bad queries are 400 with {error, message}, never 500', async () => {
    for (const query of [
      'direction=sideways',
      'limit=0',
      'limit=101',
      'from=20&to=10',
      'from=-1',
      'token=0x12',
      `token=${finn}`,
      'cursor=nonsense!',
      'cursor=dDox',
      'page=2',
    ]) {
      const answer = await get(`/api/treasury/history?${query}`)
      expect(answer.statusCode, query).toBe(400)
      expect(Object.keys(answer.json()).sort(), query).toEqual(['error', 'message'])
    }
    expect((await get(`/api/treasury/history?token=${finn}`)).json().message).toMatch(
      new RegExp(`^${finn} is not a treasury token`),
    )
    expect((await get('/api/treasury/history?cursor=dDox')).json().error).toBe('bad_cursor')
  })
})

describe('GET /api/treasury/history.csv', () => {
  test('behavior: every row of the filter as CSV, a header then one line each, as the pages give them', async () => {
    const answer = await get('/api/treasury/history.csv?direction=executions')
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(answer.headers['content-disposition']).toBe('attachment; filename="treasury-history.csv"')
    const lines = answer.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'id,blockNumber,logIndex,time,transactionHash,kind,token,amount,counterparty,detail,safeTxHash,safeNonce,proposalId,proposalTitle,outsideGuildhall',
    )
    const executions = rows.filter((r) => r.kind.startsWith('execution'))
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(executions.map((r) => r.id))
    const failed = executions.find((r) => r.kind === 'execution-failed') as TreasuryHistoryItem
    expect(lines.find((line) => line.startsWith(`${failed.id},`))).toContain(`,execution-failed,native,,,`)
    expect((await get('/api/treasury/history.csv?limit=5')).statusCode).toBe(400)
  })
})

describe('GET /api/treasury/charts', () => {
  test('behavior: the native coin by default and a followed token on request end at the Safe’s balances; another token is 400', async () => {
    const native = (await get('/api/treasury/charts')).json()
    expect(native.token).toBeNull()
    expect(native.balance.at(-1).balance).toBe(String(await chain.getBalance({ address: seeded.safe })))
    expect(native.flows).toHaveLength(1)
    const token = getAddress(testbed.deployment.token)
    const tokens = (await get(`/api/treasury/charts?token=${token}`)).json()
    expect(tokens).toMatchObject({
      token,
      flows: [{ incoming: String(SEEDED.tokensIn), outgoing: String(SEEDED.tokensPaid) }],
    })
    expect((await get(`/api/treasury/charts?token=${finn}`)).statusCode).toBe(400)
    expect((await get('/api/treasury/charts?token=ether')).statusCode).toBe(400)
  })
})
