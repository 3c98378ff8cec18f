// Sign-in figures: Sign-In with Ethereum verify latency and throughput over real HTTP, 1000
// distinct EOA accounts at 50 and at 200 concurrent requests, on PGlite and on PostgreSQL, and the CPU time
// one verification costs.
//
// The real API server (startServer(parseEnv(…)), anvil as the RPC of chain 31337) runs in a child process
// (apps/api/testbed/api-process.ts), not in this one. In-process, the server would share its CPU counter and event loop
// with the load generator (HTTP client, bookkeeping), so "server CPU" would be a guess after subtracting a
// separately measured client cost; in its own process, process.cpuUsage() there is the server's work and
// nothing else. The load generator's CPU over the same window is reported beside it, and the PostgreSQL
// server's processes are read from /proc, since with PostgreSQL the database work is in those processes
// (with PGlite it is inside the API server process).
import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { Agent } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { poolSettings } from '@guildhall/api/database'
import { startChain, testEnv } from '@guildhall/api/demo'
import {
  type ApiProcess,
  PREAUTH_COOKIE,
  signedSignInMessage,
  startApiProcess,
  stopApiProcess,
} from '@guildhall/api/testbed'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { pool, post } from '../harness/http.ts'
import { startPostgres } from '../harness/postgres.ts'
import { cpuMs } from '../harness/processes.ts'
import { latency, round1 } from '../harness/stats.ts'
import {
  type Failure,
  failureKinds,
  formatSignInReport,
  type SignInBenchResult,
  type SignInDatabaseResult,
  type SignInRun,
} from './report.ts'

const root = resolve(import.meta.dirname, '../../..')
const ACCOUNTS = 1000
const CONCURRENCY = [50, 200] as const
/** Unmeasured sign-ins first on each database: JIT, connection pool and caches warm. */
const WARM_UP = { accounts: 100, concurrency: 10 }
/** Production default is 30 per IP and minute; the bench's single IP would be throttled at once. */
const RATE_LIMIT_PER_MINUTE = 1_000_000
const DAO_NAME = 'Guildhall Bench DAO'
/** Distinct kinds of failure (phase and status) kept per run, each with its first answer and a count. */
const FAILURE_KINDS = 5

/** The bench ran, but some request did not get its 200: `result` holds the figures and the failures. */
class SignInBenchError extends Error {
  override name = 'SignInBenchError'
  constructor(readonly result: SignInBenchResult) {
    const lines = result.databases.flatMap((db) =>
      'runs' in db
        ? db.runs
            .filter((run) => run.failures.count > 0)
            .map(
              (run) =>
                `${db.database} at ${run.concurrency} concurrent: ${run.failures.count} failed: ${failureKinds(run)}`,
            )
        : [],
    )
    super(`sign-in bench: requests failed (every nonce and verify must answer 200)\n${lines.join('\n')}`)
  }
}

type Account = ReturnType<typeof privateKeyToAccount>

/** nonce → sign → verify, once per account; nonce and verify are timed, signing happens between them. */
async function signInLoad(
  server: ApiProcess,
  accounts: Account[],
  concurrency: number,
  databaseCpuMs: (() => number) | null,
  failurePhase?: 'warm-up',
): Promise<SignInRun> {
  const url = new URL(server.origin)
  const origin = url.origin
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const failures: SignInRun['failures'] = { count: 0, kinds: [] }
  const fail = (phase: Failure['phase'], status: number, error: string) => {
    failures.count++
    const kind = { phase: failurePhase ?? phase, status }
    const known = failures.kinds.find((k) => k.phase === kind.phase && k.status === kind.status)
    if (known) known.count++
    else if (failures.kinds.length < FAILURE_KINDS)
      failures.kinds.push({ ...kind, error: error.slice(0, 200), count: 1 })
  }
  const headers = { origin, 'user-agent': 'guildhall-bench' }
  try {
    const count = accounts.length

    const nonceMs: number[] = []
    const issued: Array<{ nonce: string; cookie: string } | undefined> = []
    const nonceCpu = await server.cpu()
    const nonceStarted = performance.now()
    await pool(count, concurrency, async (i) => {
      try {
        const reply = await post(agent, url, '/api/auth/nonce', headers)
        nonceMs.push(reply.ms)
        const cookie = reply.setCookie
          .map((c) => c.split(';')[0] as string)
          .find((c) => c.startsWith(`${PREAUTH_COOKIE}=`))
        const nonce = reply.status === 200 ? (JSON.parse(reply.body) as { nonce?: string }).nonce : undefined
        if (reply.status !== 200 || !nonce || !cookie) fail('nonce', reply.status, reply.body)
        else issued[i] = { nonce, cookie }
      } catch (error) {
        fail('nonce', 0, String(error))
      }
    })
    const nonceWallMs = performance.now() - nonceStarted
    const nonceServerMs = cpuMs(await server.cpu()) - cpuMs(nonceCpu)
    const nonces = issued.filter(Boolean).length

    // Signing is the wallet's work, not the server's: all of it before the measured window.
    const signed: Array<{ body: string; cookie: string; address: Hex } | undefined> = []
    for (const [i, account] of accounts.entries()) {
      const nonce = issued[i]
      if (!nonce) continue
      const { message, signature } = await signedSignInMessage(account, {
        origin,
        nonce: nonce.nonce,
        daoName: DAO_NAME,
      })
      signed[i] = {
        body: JSON.stringify({ message, signature }),
        cookie: nonce.cookie,
        address: account.address,
      }
    }

    const verifyMs: number[] = []
    let ok = 0
    const databaseBefore = databaseCpuMs?.()
    const serverBefore = await server.cpu()
    const clientBefore = process.cpuUsage()
    const started = performance.now()
    await pool(count, concurrency, async (i) => {
      const request = signed[i]
      if (!request) return
      try {
        const reply = await post(
          agent,
          url,
          '/api/auth/verify',
          { ...headers, 'content-type': 'application/json', cookie: request.cookie },
          request.body,
        )
        verifyMs.push(reply.ms)
        const session =
          reply.status === 200
            ? (JSON.parse(reply.body) as { session?: { address?: string } }).session
            : undefined
        if (session?.address === request.address) ok++
        else fail('verify', reply.status, reply.body)
      } catch (error) {
        fail('verify', 0, String(error))
      }
    })
    const wallMs = performance.now() - started
    const client = process.cpuUsage(clientBefore)
    const serverMs = cpuMs(await server.cpu()) - cpuMs(serverBefore)
    const databaseMs = databaseCpuMs && databaseBefore !== undefined ? databaseCpuMs() - databaseBefore : null
    const perVerify = (ms: number) => round1(ms / Math.max(ok, 1))

    return {
      concurrency,
      accounts: accounts.length,
      verify: {
        latency: latency(verifyMs),
        perSecond: Math.round(ok / (wallMs / 1000)),
        wallMs: Math.round(wallMs),
        ok,
      },
      nonce: {
        latency: latency(nonceMs),
        perSecond: Math.round(nonces / (nonceWallMs / 1000)),
        ok: nonces,
        serverCpuMsPerNonce: round1(nonceServerMs / Math.max(nonces, 1)),
      },
      cpuPerVerify: {
        apiServer: perVerify(serverMs),
        databaseServer: databaseMs === null ? null : perVerify(databaseMs),
        loadGenerator: perVerify(cpuMs(client)),
      },
      failures,
    }
  } finally {
    agent.destroy()
  }
}

// ---------------------------------------------------------------------------------------------------------

/** Distinct accounts: a warm-up set and one fresh set per concurrency level. */
type AccountSets = { warmUp: Account[]; runs: Account[][] }

const newAccounts = (count: number) =>
  Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()))

async function benchDatabase(options: {
  database: 'PGlite' | 'PostgreSQL'
  env: Record<string, string>
  anvilUrl: string
  accounts: AccountSets
  databaseCpuMs: (() => number) | null
  log: (message: string) => void
}): Promise<SignInRun[]> {
  const { database, accounts, log } = options
  log(`sign-in, ${database}: starting the API server`)
  const server = await startApiProcess({
    ...testEnv(options.anvilUrl),
    DAO_NAME,
    SIGN_IN: 'on',
    AUTH_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
    ...options.env,
  })
  try {
    log(`sign-in, ${database}: ${accounts.warmUp.length} warm-up sign-ins`)
    const warmUp = await signInLoad(server, accounts.warmUp, WARM_UP.concurrency, null, 'warm-up')
    const runs: SignInRun[] = []
    for (const [i, concurrency] of CONCURRENCY.entries()) {
      const set = accounts.runs[i] as Account[]
      log(`sign-in, ${database}: ${set.length} accounts, ${concurrency} concurrent (nonce, sign, verify)`)
      runs.push(await signInLoad(server, set, concurrency, options.databaseCpuMs))
    }
    // Warm-up failures are failures too: reported with the first run.
    const first = runs[0] as SignInRun
    first.failures.count += warmUp.failures.count
    first.failures.kinds.unshift(...warmUp.failures.kinds)
    return runs
  } finally {
    await stopApiProcess(server, 'SIGTERM')
  }
}

async function runSignInBench({ log }: { log: (message: string) => void }): Promise<SignInBenchResult> {
  const started = performance.now()
  const cleanups: Array<() => Promise<unknown>> = []
  const databases: SignInDatabaseResult[] = []
  log(`sign-in: rate limiting raised for the bench (AUTH_RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE})`)
  try {
    const anvil = await startChain()
    cleanups.push(() => anvil.stop())
    log(`sign-in: creating ${WARM_UP.accounts + CONCURRENCY.length * ACCOUNTS} accounts`)
    // Each database is new, so the same sets serve both: every account signs in once per database.
    const accounts: AccountSets = {
      warmUp: newAccounts(WARM_UP.accounts),
      runs: CONCURRENCY.map(() => newAccounts(ACCOUNTS)),
    }
    const common = { anvilUrl: anvil.url, accounts, log }

    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-pglite-'))
    // Also when the bench is stopped half-way (the caller exits on Ctrl-C without running our cleanups).
    const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true })
    process.once('exit', removeDataDir)
    cleanups.push(async () => {
      process.off('exit', removeDataDir)
      removeDataDir()
    })
    const pgliteVersion = JSON.parse(
      readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ).version as string
    databases.push({
      database: 'PGlite',
      version: pgliteVersion,
      connections: 'one connection, in the server process (queries queue)',
      runs: await benchDatabase({
        ...common,
        database: 'PGlite',
        env: { DATA_DIR: dataDir },
        databaseCpuMs: null,
      }),
    })

    log('sign-in: starting a throwaway PostgreSQL (scripts/with-postgres.sh)')
    const postgres = await startPostgres()
    if ('skipped' in postgres) {
      log(`sign-in: PostgreSQL part skipped: ${postgres.skipped}`)
      databases.push({ database: 'PostgreSQL', skipped: postgres.skipped })
    } else {
      cleanups.push(postgres.stop)
      databases.push({
        database: 'PostgreSQL',
        version: postgres.version,
        connections: `pool of up to ${poolSettings.max} connections`,
        runs: await benchDatabase({
          ...common,
          database: 'PostgreSQL',
          env: { DATABASE_URL: postgres.url },
          databaseCpuMs: postgres.serverCpuMs,
        }),
      })
    }
  } finally {
    for (let step = cleanups.pop(); step; step = cleanups.pop()) await step().catch(() => {})
  }
  const result: SignInBenchResult = {
    date: new Date().toISOString(),
    accountsPerRun: ACCOUNTS,
    warmUp: WARM_UP,
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model.trim() ?? 'unknown' },
    databases,
    totalSeconds: Math.round((performance.now() - started) / 1000),
  }
  if (databases.some((db) => 'runs' in db && db.runs.some((run) => run.failures.count > 0)))
    throw new SignInBenchError(result)
  return result
}

/** The `sign-in` section: verify latency and throughput, 1000 accounts at 50 and 200 concurrent, PGlite and PostgreSQL. */
export async function signInSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runSignInBench({ log: ctx.step })
  return { json: { signIn: result }, report: formatSignInReport(result), misses: 0 }
}
