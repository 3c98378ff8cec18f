// Fault test ("nothing lost", docs/security.md): the real server, run as a child process, is SIGKILLed during a burst of sign-ins and
// restarted on the same data (the PGlite data folder, or the same PostgreSQL database with TEST_DATABASE_URL).
// A verify that answered 200 must still have its session; a verify that never reached the server must have
// left nothing; a verify cut off in flight may or may not have committed (the commit precedes the response,
// so a kill between the two leaves a session whose token never left the server), but all or nothing: its
// nonce is consumed exactly when its session exists.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import { inArray } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  type ApiProcess,
  startApiProcess,
  stopApiProcess,
  stopApiProcesses,
} from '../../testbed/api-process.ts'
import {
  cookieValue,
  type PreparedSignIn,
  prepareSignIn,
  SESSION_COOKIE,
  verifySignIn,
} from '../../testbed/sign-in.ts'
import { startChain, testEnv } from '../demo/local-chain.ts'
import { type Database, openDatabase } from '../platform/db/client.ts'
import { authNonces, sessions } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'

const DAO_NAME = 'Guildhall Fault DAO'
const ACCOUNTS = 200
const IN_FLIGHT = 50
/** The server is killed as soon as this many verifies have answered 200, so about IN_FLIGHT are cut off. */
const KILL_AFTER_OKS = 60
const REQUEST_TIMEOUT_MS = 30_000
const signInOptions = { daoName: DAO_NAME, timeoutMs: REQUEST_TIMEOUT_MS }

let anvil: AnvilInstance | undefined
let postgres: TestDatabase | undefined
let dataDir: string | undefined

beforeAll(async () => {
  anvil = await startChain()
  // PostgreSQL: a fresh database that both server processes use; PGlite: a fresh data folder.
  if (testDatabaseUrl()) postgres = await testDatabase()
  else dataDir = await mkdtemp(join(tmpdir(), 'guildhall-fault-'))
}, 60_000)

afterAll(async () => {
  await stopApiProcesses()
  await anvil?.stop()
  await postgres?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
}, 30_000)

/** This file's server: the shared child-process server on this test's chain and database. */
function startSignInApi(): Promise<ApiProcess> {
  return startApiProcess({
    ...testEnv(anvil?.url as string),
    DAO_NAME,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    ...(postgres?.url ? { DATABASE_URL: postgres.url } : { DATA_DIR: dataDir as string }),
  })
}

/**
 * What the client saw: a 200 with its session token, another status (a bug here: nothing else can fail),
 * a refused connection (the request never reached the server), or a connection that broke in flight.
 */
type Outcome =
  | { kind: 'ok'; token: string }
  | { kind: 'status'; status: number }
  | { kind: 'refused' }
  | { kind: 'cut'; reason: string }

async function verify(origin: string, signIn: PreparedSignIn): Promise<Outcome> {
  try {
    const response = await verifySignIn(origin, signIn, { timeoutMs: REQUEST_TIMEOUT_MS })
    const body = (await response.json()) as { session?: { address?: string } }
    const token = cookieValue(response, SESSION_COOKIE)
    if (response.status === 200 && token && body.session?.address === signIn.account.address) {
      return { kind: 'ok', token }
    }
    return { kind: 'status', status: response.status }
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code
    if (code === 'ECONNREFUSED') return { kind: 'refused' }
    return { kind: 'cut', reason: code ?? String(error) }
  }
}

/** Runs `task` over `items` with at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T, index: number) => Promise<void>) {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      await task(items[index] as T, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** The database both servers used, opened here once no server runs (PGlite is one process at a time). */
async function openSharedDatabase(): Promise<Database> {
  if (postgres) return postgres
  return openDatabase({ dataDir })
}

test('a SIGKILL during a burst of sign-ins: every 200 keeps its session, nothing half-done is left', async () => {
  const firstStarted = performance.now()
  const first = await startSignInApi()
  const firstStartMs = performance.now() - firstStarted
  const accounts = Array.from({ length: ACCOUNTS }, () => privateKeyToAccount(generatePrivateKey()))
  const prepared: PreparedSignIn[] = []
  await eachLimited(accounts, 10, async (account, index) => {
    prepared[index] = await prepareSignIn(first.origin, account, signInOptions)
  })

  // The burst: the verifies only, IN_FLIGHT at a time; the server dies once KILL_AFTER_OKS have answered 200.
  const outcomes: Outcome[] = []
  let oks = 0
  let killed = false
  const burstStarted = performance.now()
  await eachLimited(prepared, IN_FLIGHT, async (signIn, index) => {
    const outcome = await verify(first.origin, signIn)
    outcomes[index] = outcome
    if (outcome.kind === 'ok' && ++oks === KILL_AFTER_OKS) {
      first.child.kill('SIGKILL')
      killed = true
    }
  })
  const burstMs = performance.now() - burstStarted
  await first.exited
  expect(killed).toBe(true)
  expect(first.child.signalCode).toBe('SIGKILL')

  const indexesOf = (kind: Outcome['kind']) => outcomes.flatMap((o, i) => (o.kind === kind ? [i] : []))
  const ok = indexesOf('ok')
  const refused = indexesOf('refused')
  const cut = indexesOf('cut')
  // Before the kill every verify succeeds; after it, no server is left to answer with a status.
  expect(indexesOf('status').map((i) => outcomes[i])).toEqual([])
  // The kill landed mid-burst: otherwise this test would prove nothing.
  expect(ok.length).toBeGreaterThanOrEqual(KILL_AFTER_OKS)
  expect(cut.length).toBeGreaterThan(0)

  // Restart on the same data: every session the client was given still signs it in.
  const restarted = performance.now()
  const second = await startSignInApi()
  const restartMs = performance.now() - restarted
  await eachLimited(ok, 10, async (index) => {
    const outcome = outcomes[index] as Extract<Outcome, { kind: 'ok' }>
    const response = await fetch(`${second.origin}/api/auth/session`, {
      headers: { cookie: `${SESSION_COOKIE}=${outcome.token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { session: { address: string } | null }
    expect(body.session?.address).toBe(prepared[index]?.account.address)
  })
  // The restarted server writes too: a member whose sign-in was cut off signs in again.
  const retry = prepared[cut[0] as number] as PreparedSignIn
  const again = await verify(second.origin, await prepareSignIn(second.origin, retry.account, signInOptions))
  expect(again.kind).toBe('ok')
  await stopApiProcess(second, 'SIGTERM')
  expect(second.child.exitCode).toBe(0)

  // The database itself, with no server running: it opens and migrates cleanly after the crash.
  const database = await openSharedDatabase()
  let orphans = 0
  try {
    await database.migrate()
    const nonceRows = await database.db
      .select()
      .from(authNonces)
      .where(
        inArray(
          authNonces.nonce,
          prepared.map((p) => p.nonce),
        ),
      )
    const consumed = new Map(nonceRows.map((row) => [row.nonce, row.consumedAt !== null]))
    const sessionRows = await database.db
      .select()
      .from(sessions)
      .where(
        inArray(
          sessions.address,
          accounts.map((a) => a.address),
        ),
      )
    const sessionCount = (index: number) =>
      sessionRows.filter((row) => row.address === prepared[index]?.account.address).length
    const summary = (index: number) => ({
      index,
      sessions: sessionCount(index),
      nonceConsumed: consumed.get(prepared[index]?.nonce as string),
    })

    expect(nonceRows).toHaveLength(ACCOUNTS)
    // Answered 200: one session, its nonce consumed.
    expect(ok.map(summary)).toEqual(ok.map((index) => ({ index, sessions: 1, nonceConsumed: true })))
    // Never reached the server: nothing changed.
    expect(refused.map(summary)).toEqual(
      refused.map((index) => ({ index, sessions: 0, nonceConsumed: false })),
    )
    // Cut off in flight: committed entirely or not at all (the retried account signed in once more since).
    for (const index of cut) {
      const { sessions: count, nonceConsumed } = summary(index)
      const burstSessions = index === cut[0] ? count - 1 : count
      expect({ index, sessions: burstSessions }).toEqual({ index, sessions: nonceConsumed ? 1 : 0 })
      if (nonceConsumed) orphans++
    }
  } finally {
    if (!postgres) await database.close()
  }
  const ms = (value: number) => `${Math.round(value)} ms`
  console.info(
    `sign-in crash (${database.kind}): ${ok.length} × 200, ${cut.length} cut off in flight ` +
      `(${orphans} of them committed), ${refused.length} refused; ` +
      `start ${ms(firstStartMs)}, burst ${ms(burstMs)}, restart ${ms(restartMs)}`,
  )
}, 360_000)
