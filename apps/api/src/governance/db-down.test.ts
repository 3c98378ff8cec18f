// A vote while the database is unavailable gets 503 and leaves nothing; the retry after recovery stores
// exactly one row (docs/security.md, adversarial vote cases). The server's
// database goes away under it (closed: PGlite on a data folder, or a PostgreSQL database), then a new server
// opens the same data and the member retries the very same signed vote.
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  BASIC_CHOICES,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  type VoteMessage,
  voteTypedData,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { count } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildApp } from '../app.ts'
import { startDemoChain, testEnv } from '../demo/local-chain.ts'
import { type DatabaseOptions, openDatabase } from '../platform/db/client.ts'
import { votes } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'
import { parseEnv } from '../settings/env.ts'

const ORIGIN = 'http://127.0.0.1:3999'
const ada = privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)
const ben = privateKeyToAccount(anvilAccounts[2]?.privateKey as Hex)

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
    settings: parseEnv({
      PUBLIC_ORIGIN: ORIGIN,
      ...testEnv(anvil.url, deployment),
      SIGN_IN: 'off',
    }),
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
  const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  const message: ProposalMessage = {
    author: ada.address,
    title: 'Survive an outage',
    body: '',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: now - 60,
    end: now + 3600 * 2,
    snapshot,
    quorum: '1000000000000000000000',
    threshold: '1000000000000000000',
    abstainCountsToQuorum: true,
    timestamp: now - 30,
  }
  const proposal = proposalId(domain, message)
  const vote: VoteMessage = { voter: ben.address, proposal, choices: [1], reason: '', timestamp: now }
  const signedVote = { message: vote, signature: await ben.signTypedData(voteTypedData(domain, vote)) }

  const first = await openDatabase(target)
  await first.migrate()
  const before = await serverOn(first)
  const created = await post(before, '/api/proposals', {
    message,
    signature: await ada.signTypedData(proposalTypedData(domain, message)),
  })
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
