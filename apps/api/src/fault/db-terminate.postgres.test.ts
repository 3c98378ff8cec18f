// Fault test (docs/security.md, docs/deploy.md): the database ends the API's connections while votes,
// sign-ins and reads are in flight, as a PostgreSQL restart, a failover or a connection pooler does. An
// admin connection of the test's own runs pg_terminate_backend on every other session of the database
// (the pool's, the LISTEN connection, the token index leader's lock) several times during the load.
// Then: no 500 at all; every refused request is a 503 with Retry-After; nothing lost (every 2xx vote
// stored, the log verifies, one log entry per stored message, refused signed votes sent again converge);
// every sign-in all or nothing; the server still runs, leads its token index again, and its live results
// hear votes again. PostgreSQL only (vitest.config.ts runs *.postgres.test.ts when TEST_DATABASE_URL is set).
import { type ProposalMessage, proposalId } from '@guildhall/core'
import { eq, inArray, sql } from 'drizzle-orm'
import pg from 'pg'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  startApiProcess,
  stopApiProcess,
  stopApiProcesses,
  tokenIndexRole,
} from '../../testbed/api-process.ts'
import { openStream } from '../../testbed/event-stream.ts'
import {
  cookieValue,
  PREAUTH_COOKIE,
  SESSION_COOKIE,
  signedSignInMessage,
  signIn,
} from '../../testbed/sign-in.ts'
import {
  createProposals,
  expectConverged,
  expectNothingLost,
  resendCut,
  signBurst,
  startVoteChain,
  voters,
} from '../../testbed/vote-burst.ts'
import { type DemoChain, testEnv } from '../demo/local-chain.ts'
import { authNonces, governanceLog, sessions } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { TOKEN_INDEX_LEADER_LOCK_KEY } from '../platform/jobs/leader.ts'

const DAO_NAME = 'Guildhall Terminate DAO'
/** Proposals voted on by Ada, Ben and Cleo each, plus re-votes on the first RE_VOTED of them. */
const PROPOSALS = 30
const RE_VOTED = 15
/** Fresh accounts signing in (nonce, then verify) during the load. */
const SIGN_INS = 60
/** Reads of a proposal, its votes list and a session, each. */
const READS = 60
const IN_FLIGHT = 30
/** The database ends every session of the app this many times, spread over the load. */
const TERMINATIONS = 6
const REQUEST_TIMEOUT_MS = 30_000
/** The leader's lock is tried every 2 s: a few seconds to lead again. */
const LEAD_AGAIN_MS = 10_000

let chain: DemoChain
let postgres: TestDatabase

beforeAll(async () => {
  chain = await startVoteChain()
  postgres = await testDatabase()
}, 60_000)

afterAll(async () => {
  await stopApiProcesses()
  await chain?.anvil.stop()
  await postgres?.close()
}, 30_000)

/** What a request got: a status with its Retry-After and error code, or no answer at all. */
type Answer = { status: number; retryAfter: string | null; error?: string; body: unknown; response: Response }

async function send(origin: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, {
    ...init,
    headers: { origin, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  const body = (await response.json()) as { error?: string }
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    ...(body?.error ? { error: body.error } : {}),
    body,
    response,
  }
}

/** Ends every session on the test database but the admin connection's own; answers how many it ended. */
async function terminateAppConnections(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ ended: number }>(
    `select count(*) filter (where ended)::int as ended from (
       select pg_terminate_backend(pid) as ended from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()) as sessions`,
  )
  return rows[0]?.ended ?? 0
}

test(`behavior: PostgreSQL ends the app's connections ${TERMINATIONS} times during votes, sign-ins and reads → no 500, every refusal a 503 with Retry-After, nothing lost, refused votes resent converge, the server leads its token index and hears votes again`, async () => {
  const api = await startApiProcess({
    ...testEnv(chain.anvil.url, chain.deployment),
    DATABASE_URL: postgres.url,
    DAO_NAME,
    // The load is the point here, not the per-client limits.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
  })
  const { origin } = api
  const burst = await signBurst(chain, { title: 'Terminate-tested', count: PROPOSALS, reVoted: RE_VOTED })
  await createProposals(origin, burst)
  const proposals = burst.messages.map((m) => proposalId(burst.domain, m))
  const [reader] = voters as [(typeof voters)[number]]
  const readerSession = await signIn(origin, reader, DAO_NAME)

  // The last vote is held back and cast after the storm: its tally must reach a stream opened before it.
  const heldBack = burst.signed.length - 1
  const watched = proposalId(burst.domain, burst.messages[RE_VOTED - 1] as ProposalMessage)
  const stream = await openStream(`${origin}/api/proposals/${watched}/events`)
  expect(stream.response.status).toBe(200)

  // The work, interleaved: votes, sign-ins (nonce then verify) and reads.
  const accounts = Array.from({ length: SIGN_INS }, () => privateKeyToAccount(generatePrivateKey()))
  type Task =
    | { kind: 'vote'; index: number }
    | { kind: 'sign-in'; index: number }
    | { kind: 'read'; index: number }
  const tasks: Task[] = []
  const longest = Math.max(heldBack, SIGN_INS, READS)
  for (let i = 0; i < longest; i++) {
    if (i < heldBack) tasks.push({ kind: 'vote', index: i })
    if (i < SIGN_INS) tasks.push({ kind: 'sign-in', index: i })
    if (i < READS) tasks.push({ kind: 'read', index: i })
  }

  /** Every answer, by route; a 503 kept with what it refused. */
  const answers: { route: string; status: number; retryAfter: string | null; error?: string }[] = []
  const record = (route: string, answer: Answer) => {
    answers.push({
      route,
      status: answer.status,
      retryAfter: answer.retryAfter,
      ...(answer.error ? { error: answer.error } : {}),
    })
    return answer
  }
  const votes = { accepted: [] as number[], refused: [] as number[], unavailable: [] as number[] }
  /** A sign-in's state: its nonce (and pre-auth cookie) once issued, its session token once verified. */
  const signIns = accounts.map(() => ({ nonce: '', preauth: '', message: '', signature: '', token: '' }))

  const nonce = async (index: number) => {
    const answer = record('POST /api/auth/nonce', await send(origin, '/api/auth/nonce', { method: 'POST' }))
    if (answer.status !== 200) return false
    const state = signIns[index] as (typeof signIns)[number]
    state.nonce = (answer.body as { nonce: string }).nonce
    state.preauth = `${PREAUTH_COOKIE}=${cookieValue(answer.response, PREAUTH_COOKIE)}`
    const signed = await signedSignInMessage(accounts[index] as (typeof accounts)[number], {
      origin,
      nonce: state.nonce,
      daoName: DAO_NAME,
    })
    state.message = signed.message
    state.signature = signed.signature
    return true
  }
  const verify = async (index: number) => {
    const state = signIns[index] as (typeof signIns)[number]
    const answer = record(
      'POST /api/auth/verify',
      await send(origin, '/api/auth/verify', {
        method: 'POST',
        headers: { cookie: state.preauth },
        body: JSON.stringify({ message: state.message, signature: state.signature }),
      }),
    )
    if (answer.status === 200) state.token = cookieValue(answer.response, SESSION_COOKIE) ?? ''
    return answer.status
  }
  const run = async (task: Task) => {
    if (task.kind === 'vote') {
      const { path, body } = burst.signed[task.index] as (typeof burst.signed)[number]
      const answer = record(
        'POST /api/proposals/:id/votes',
        await send(origin, path, { method: 'POST', body: JSON.stringify(body) }),
      )
      if (answer.status < 300) votes.accepted.push(task.index)
      else if (answer.status === 409) votes.refused.push(task.index)
      else votes.unavailable.push(task.index)
    } else if (task.kind === 'sign-in') {
      if (await nonce(task.index)) await verify(task.index)
    } else {
      const proposal = proposals[task.index % proposals.length] as string
      record('GET /api/proposals/:id', await send(origin, `/api/proposals/${proposal}`))
      record('GET /api/proposals/:id/votes', await send(origin, `/api/proposals/${proposal}/votes`))
      record(
        'GET /api/auth/session',
        await send(origin, '/api/auth/session', { headers: { cookie: readerSession } }),
      )
    }
  }

  // The load, IN_FLIGHT tasks at a time; the terminations spread over it by progress (no timers): one each
  // time another 1/(TERMINATIONS + 1) of the tasks has finished.
  const admin = new pg.Client({ connectionString: postgres.url })
  await admin.connect()
  const ended: number[] = []
  let done = 0
  let next = 0
  let progress: () => void = () => undefined
  const terminator = (async () => {
    for (let n = 1; n <= TERMINATIONS; n++) {
      const due = Math.floor((tasks.length * n) / (TERMINATIONS + 1))
      while (done < due) await new Promise<void>((resolve) => (progress = resolve))
      ended.push(await terminateAppConnections(admin))
    }
  })()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < tasks.length) {
        await run(tasks[next++] as Task)
        done++
        progress()
      }
    }),
  )
  await terminator
  await admin.end()

  // No 500, nothing but the routes' own answers; every refusal a 503 with Retry-After.
  const expected: Record<string, number[]> = {
    'POST /api/proposals/:id/votes': [200, 201, 409],
    'POST /api/auth/nonce': [200],
    'POST /api/auth/verify': [200],
    'GET /api/proposals/:id': [200],
    'GET /api/proposals/:id/votes': [200],
    'GET /api/auth/session': [200],
  }
  const refusals = answers.filter((a) => !expected[a.route]?.includes(a.status))
  expect(refusals.filter((a) => a.status !== 503)).toEqual([])
  expect(refusals.filter((a) => a.retryAfter !== '5' || a.error !== 'database_unavailable')).toEqual([])
  // Every termination ended sessions of the app (the pool's, LISTEN, the leader's), with work in flight.
  expect(ended).toHaveLength(TERMINATIONS)
  for (const count of ended) expect(count).toBeGreaterThan(0)
  expect(api.child.exitCode).toBeNull()

  // The refused signed votes, sent again, are stored once; a refused sign-in is done again: its verify sent
  // again (its nonce may have been consumed by a commit whose answer was lost: then a new nonce).
  await resendCut(origin, burst, votes.unavailable)
  for (const [index, state] of signIns.entries()) {
    if (state.token) continue
    const status = state.nonce ? await verify(index) : 0
    if (status !== 200) {
      expect(await nonce(index)).toBe(true)
      expect(await verify(index)).toBe(200)
    }
  }
  const { storedIds, logEntries } = await expectNothingLost(postgres.db, burst, {
    accepted: votes.accepted,
    refused: votes.refused,
  })

  // Every account has the session it was given; a nonce is consumed exactly when it made a session
  // (all or nothing; a session made by a commit whose answer was lost has a token no one holds).
  const sessionRows = await postgres.db
    .select()
    .from(sessions)
    .where(
      inArray(
        sessions.address,
        accounts.map((a) => a.address),
      ),
    )
  for (const [index, state] of signIns.entries()) {
    const session = await send(origin, '/api/auth/session', {
      headers: { cookie: `${SESSION_COOKIE}=${state.token}` },
    })
    expect({ index, address: (session.body as { session?: { address: string } }).session?.address }).toEqual({
      index,
      address: accounts[index]?.address,
    })
  }
  const nonceRows = await postgres.db.select().from(authNonces)
  const accountOf = new Map(signIns.map((state, index) => [state.nonce, accounts[index]?.address]))
  const consumed = nonceRows.filter((row) => row.consumedAt !== null && accountOf.has(row.nonce)).length
  const orphans = sessionRows.length - SIGN_INS
  expect(sessionRows.length).toBeGreaterThanOrEqual(SIGN_INS)
  // Each session came from one consumed nonce; the ones issued and never verified are unconsumed.
  expect(nonceRows.filter((row) => row.consumedAt !== null).length).toBe(
    sessionRows.length + 1 /* the reader's sign-in before the storm */,
  )
  expect(consumed).toBe(SIGN_INS)

  // Leadership of the token index taken again (bounded wait): the instance says it leads, and a live
  // session holds the lock again (the one it held before was ended). Live results hear votes again: the
  // held back vote, cast now, reaches the stream opened before the storm.
  const lockHolders = async () => {
    const { rows } = await postgres.db.execute<{ holders: number }>(
      sql`select count(*)::int as holders from pg_locks
          where locktype = 'advisory' and granted and classid = 0 and objid = ${TOKEN_INDEX_LEADER_LOCK_KEY}
            and database = (select oid from pg_database where datname = current_database())`,
    )
    return rows[0]?.holders
  }
  const deadline = Date.now() + LEAD_AGAIN_MS
  while ((await tokenIndexRole(api)) !== 'leader' || (await lockHolders()) !== 1) {
    if (Date.now() > deadline)
      throw new Error(`the token index has no leader ${LEAD_AGAIN_MS} ms after the storm`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const last = burst.signed[heldBack] as (typeof burst.signed)[number]
  expect((await send(origin, last.path, { method: 'POST', body: JSON.stringify(last.body) })).status).toBe(
    201,
  )
  const [entry] = await postgres.db
    .select({ seq: governanceLog.seq })
    .from(governanceLog)
    .where(eq(governanceLog.messageId, last.id))
  await expect.poll(() => stream.events.at(-1)?.id, { timeout: 10_000 }).toBe(String(entry?.seq))
  stream.close()
  await expectConverged(origin, postgres.db, burst, new Set([...storedIds, last.id]))

  const byRoute = Object.keys(expected)
    .map((route) => [route, refusals.filter((a) => a.route === route).length] as const)
    .filter(([, count]) => count > 0)
    .map(([route, count]) => `${route} ${count}`)
  console.log(
    `db terminate (${TERMINATIONS} times, ${ended.join('/')} sessions ended): ${answers.length} answers, ` +
      `${refusals.length} × 503 with Retry-After (${byRoute.join(', ') || 'none'}), 0 × 500; ` +
      `votes ${votes.accepted.length} × 2xx, ${votes.refused.length} × 409, ${votes.unavailable.length} × 503 resent; ` +
      `${storedIds.size + 1} votes stored, ${logEntries + 1} log entries; ${orphans} sessions whose answer was lost`,
  )
  await stopApiProcess(api, 'SIGTERM')
  expect(api.child.exitCode).toBe(0)
}, 240_000)
