// GET /api/names over the whole app: validation, caching headers, names off, and the refresher running on
// the leader only (two instances on one PostgreSQL database under scripts/with-postgres.sh).
import { nameListSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type NameService, startNameService } from '@guildhall/devchain/name-service'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { testSettings } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { memberStats } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'

const ada = anvilAccounts[1]?.address as string
const ben = anvilAccounts[2]?.address as string
const apps: FastifyInstance[] = []
const databases: TestDatabase[] = []
const proxies: RecordingProxy[] = []
let nameService: NameService

beforeAll(async () => {
  nameService = await startNameService()
}, 60_000)
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
  for (const proxy of proxies.splice(0)) await proxy.close()
  for (const database of databases.splice(0)) await database.close()
})
afterAll(() => nameService?.stop())

/** The app on `database`, looking names up through a recording proxy (or not at all: `names: false`). */
async function appWithNames(database: TestDatabase, names = true) {
  const proxy = await startRecordingProxy(nameService.rpcUrl)
  proxies.push(proxy)
  const env = names ? { ENS_RPC_URL: proxy.url, IPFS_GATEWAYS: nameService.ipfsGatewayUrl } : {}
  const app = await buildApp({ settings: testSettings({ origin: null, env }), database })
  apps.push(app)
  await app.ready()
  return { app, proxy }
}

/** A fresh database where Ada and Ben are members holding tokens (only listed members' names are looked up). */
async function newDatabase() {
  const database = await testDatabase()
  databases.push(database)
  await database.db.insert(memberStats).values([
    { address: ada, balance: 1n },
    { address: ben, balance: 1n },
  ])
  return database
}

const ask = (app: FastifyInstance, addresses: string[]) =>
  app.inject({ method: 'GET', url: `/api/names?addresses=${addresses.join(',')}` })

/** Asks until no answer is pending (the leader's refresher has run). */
async function resolved(app: FastifyInstance, addresses: string[]) {
  const from = Date.now()
  for (;;) {
    const response = await ask(app, addresses)
    const { names } = nameListSchema.parse(response.json())
    if (names.every((answer) => !answer.pending)) return { response, names }
    if (Date.now() - from > 10_000) throw new Error('names still pending after 10 s')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

// Each test builds an app on a fresh database, and waits for a refresh: seconds on a busy machine.
const TEST_TIMEOUT_MS = 30_000

describe('GET /api/names', { timeout: TEST_TIMEOUT_MS }, () => {
  test('default: a miss answers pending and uncached; the leader resolves it within moments, then the answer is cacheable', async () => {
    const { app } = await appWithNames(await newDatabase())
    const first = await ask(app, [ada.toLowerCase(), ben])
    expect(first.statusCode).toBe(200)
    expect(first.headers['cache-control']).toBe('no-store')
    expect(nameListSchema.parse(first.json()).names).toEqual([
      { address: ada, name: null, avatarUrl: null, pending: true },
      { address: ben, name: null, avatarUrl: null, pending: true },
    ])
    const { response, names } = await resolved(app, [ada, ben])
    expect(response.headers['cache-control']).toBe('public, max-age=60')
    expect(names.map((answer) => answer.name)).toEqual(['ada.eth', 'ben.eth'])
    expect(names[0]?.avatarUrl).toMatch(new RegExp(`^${nameService.ipfsGatewayUrl}/ipfs/b[a-z2-7]+$`))
  })

  test('behavior: without ENS_RPC_URL every name is null, nothing pending, nothing asked', async () => {
    const { app, proxy } = await appWithNames(await newDatabase(), false)
    const response = await ask(app, [ada, ada.toLowerCase(), ben])
    expect(response.headers['cache-control']).toBe('public, max-age=60')
    expect(nameListSchema.parse(response.json()).names).toEqual([
      { address: ada, name: null, avatarUrl: null, pending: false },
      { address: ben, name: null, avatarUrl: null, pending: false },
    ])
    expect(proxy.calls).toEqual([])
  })

  test('error: no addresses, more than 100, or one that is not an address: 400 with the reason', async () => {
    const { app } = await appWithNames(await newDatabase())
    const many = Array.from({ length: 101 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`)
    expect((await ask(app, many)).json()).toMatchObject({
      message: expect.stringContaining('at most 100 addresses'),
    })
    for (const query of [
      '',
      '?addresses=',
      '?addresses=0x1234',
      `?addresses=${ada},ada.eth`,
      `?addresses=${ada}&x=1`,
    ]) {
      const response = await app.inject({ method: 'GET', url: `/api/names${query}` })
      expect([query, response.statusCode]).toEqual([query, 400])
    }
  })
})

const serverUrl = testDatabaseUrl()
if (serverUrl) {
  describe('PostgreSQL (TEST_DATABASE_URL): two instances on one database', {
    timeout: TEST_TIMEOUT_MS,
  }, () => {
    test('behavior: only the leader looks names up; a standby queues, and answers what the leader resolved', async () => {
      const database = await newDatabase()
      const leader = await appWithNames(database)
      // The first instance takes the leader lock on its first try; the second then finds it held.
      await new Promise((resolve) => setTimeout(resolve, 500))
      const standby = await appWithNames(database)
      const { names } = await resolved(standby.app, [ada, ben])
      expect(names.map((answer) => answer.name)).toEqual(['ada.eth', 'ben.eth'])
      expect(leader.proxy.calls.length).toBeGreaterThan(0)
      expect(standby.proxy.calls).toEqual([])
    })
  })
}
