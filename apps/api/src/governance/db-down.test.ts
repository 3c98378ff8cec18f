// A vote while the database is unavailable gets 503 and leaves nothing; the retry after recovery stores
// exactly one row (docs/security.md, adversarial vote cases). The server's
// database goes away under it (closed: PGlite on a data folder, or a PostgreSQL database), then a new server
// opens the same data and the member retries the very same signed vote.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { count } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, createTestClient, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoDomain, member, signProposal, signVote } from '../../testbed/signers.ts'
import { ORIGIN, testSettings } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { type DatabaseOptions, openDatabase } from '../platform/db/client.ts'
import { votes } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'

const ada = member(1)
const ben = member(2)

let anvil: AnvilInstance
let deployment: DemoDeployment
/** PostgreSQL only: the test database, dropped at the end. */
let postgres: TestDatabase | undefined
let target: DatabaseOptions

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  if (testDatabaseUrl()) {
    postgres = await testDatabase()
    target = { databaseUrl: postgres.url }
  } else {
    target = { dataDir: join(await mkdtemp(join(tmpdir(), 'guildhall-db-down-')), 'db') }
  }
}, 60_000)

afterAll(async () => {
  await postgres?.close()
  await anvil?.stop()
})

async function serverOn(database: Awaited<ReturnType<typeof openDatabase>>): Promise<FastifyInstance> {
  const app = await buildApp({
    settings: testSettings({ rpcUrl: anvil.url, deployment, env: { SIGN_IN: 'off' } }),
    database,
  })
  await app.ready()
  return app
}

const post = (app: FastifyInstance, url: string, body: unknown) =>
  app.inject({
    method: 'POST',
    url,
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    payload: body as object,
  })

test('behavior: the database gone → 503 with Retry-After and nothing stored; the same vote after recovery → exactly one row', async () => {
  const domain = demoDomain(deployment)
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  const signedProposal = await signProposal(ada, domain, { snapshot, title: 'Survive an outage', body: '' })
  const { message, id: proposal } = signedProposal
  const vote = await signVote(ben, domain, { proposal })
  const signedVote = { message: vote.message, signature: vote.signature }

  const first = await openDatabase(target)
  await first.migrate()
  const before = await serverOn(first)
  const created = await post(before, '/api/proposals', { message, signature: signedProposal.signature })
  expect(created.statusCode).toBe(201)

  await first.close()
  const down = await post(before, `/api/proposals/${proposal}/votes`, signedVote)
  expect(down.statusCode).toBe(503)
  expect(down.headers['retry-after']).toBe('5')
  expect(down.json()).toMatchObject({ error: 'database_unavailable' })
  // Reads too: every route's database failure is a 503, not an internal error.
  for (const path of ['/api/proposals', `/api/proposals/${proposal}`, `/api/proposals/${proposal}/bundle`]) {
    const read = await before.inject({ method: 'GET', url: path })
    expect({ path, status: read.statusCode, retryAfter: read.headers['retry-after'] }).toEqual({
      path,
      status: 503,
      retryAfter: '5',
    })
    expect(read.json()).toMatchObject({ error: 'database_unavailable' })
  }
  await before.close()

  const second = await openDatabase(target)
  await second.migrate()
  const after = await serverOn(second)
  try {
    expect((await second.db.select({ n: count() }).from(votes))[0]?.n).toBe(0)
    const retried = await post(after, `/api/proposals/${proposal}/votes`, signedVote)
    expect(retried.statusCode).toBe(201)
    expect((await post(after, `/api/proposals/${proposal}/votes`, signedVote)).statusCode).toBe(200)
    expect((await second.db.select({ n: count() }).from(votes))[0]?.n).toBe(1)
  } finally {
    await after.close()
    await second.close()
  }
}, 60_000)
