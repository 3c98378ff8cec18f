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
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startChain, testEnv } from '../../apps/api/src/demo/local-chain.ts'
import { openDatabase, poolSettings } from '../../apps/api/src/platform/db/client.ts'
import { type ApiProcess, startApiProcess, stopApiProcess } from '../../apps/api/testbed/api-process.ts'
import { PREAUTH_COOKIE, signedSignInMessage } from '../../apps/api/testbed/sign-in.ts'
import { spread } from './report.ts'
import type { Latency } from './schema.ts'

const root = resolve(import.meta.dirname, '../..')
const ACCOUNTS = 1000
const CONCURRENCY = [50, 200] as const
/** Unmeasured sign-ins first on each database: JIT, connection pool and caches warm. */
const WARM_UP = { accounts: 100, concurrency: 10 }
/** Production default is 30 per IP and minute; the bench's single IP would be throttled at once. */
const RATE_LIMIT_PER_MINUTE = 1_000_000
const DAO_NAME = 'Guildhall Bench DAO'
const REQUEST_TIMEOUT_MS = 30_000
/** Distinct kinds of failure (phase and status) kept per run, each with its first answer and a count. */
const FAILURE_KINDS = 5

/** Failed requests of one phase and status (0 = no HTTP answer); `error` is the first answer's body. */
type Failure = { phase: 'warm-up' | 'nonce' | 'verify'; status: number; error: string; count: number }

type SignInRun = {
  concurrency: number
  accounts: number
  verify: { latency: Latency; perSecond: number; wallMs: number; ok: number }
  nonce: { latency: Latency; perSecond: number; ok: number; serverCpuMsPerNonce: number }
  /** CPU milliseconds per successful verify over the verify window. */
  cpuPerVerify: {
    apiServer: number
    /** PostgreSQL's own processes; null with PGlite (it runs inside the API server) or without /proc. */
    databaseServer: number | null
    /** The bench process (HTTP client), for reference: not part of the server's cost. */
    loadGenerator: number
  }
  failures: { count: number; kinds: Failure[] }
}

type SignInDatabaseResult =
  | { database: 'PGlite' | 'PostgreSQL'; version: string; connections: string; runs: SignInRun[] }
  | { database: 'PGlite' | 'PostgreSQL'; skipped: string }

export type SignInBenchResult = {
  date: string
  accountsPerRun: number
  warmUp: typeof WARM_UP
  rateLimitPerMinute: number
  machine: { cores: number; cpu: string }
  databases: SignInDatabaseResult[]
  totalSeconds: number
}

const failureKinds = (run: SignInRun) =>
  run.failures.kinds.map((f) => `${f.count} × ${f.phase} ${f.status || 'no answer'} ${f.error}`).join('; ')

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

export const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL: scripts/with-postgres.sh holds a throwaway server for as long as our pipe to it stays open

type Postgres = {
  url: string
  version: string
  serverCpuMs: (() => number) | null
  stop: () => Promise<void>
}

/**
 * Runs `with-postgres.sh` with a command that prints TEST_DATABASE_URL and then waits for its stdin to
 * close: closing the pipe (or this process dying) ends the command, and the script stops the server and
 * deletes its folder. Exit 127 before the URL = no PostgreSQL server binaries: skipped, with the reason.
 */
export async function startPostgres(): Promise<Postgres | { skipped: string }> {
  const child = spawn(
    'bash',
    [join(root, 'scripts/with-postgres.sh'), 'sh', '-c', 'echo "$TEST_DATABASE_URL"; exec cat >/dev/null'],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const stop = async () => {
    child.stdin.end()
    const timer = setTimeout(() => child.kill('SIGTERM'), 30_000)
    await exited
    clearTimeout(timer)
  }
  const url = await new Promise<string | { exitCode: number | null }>((done) => {
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n')
      if (line.length > 1) done((line[0] as string).trim())
    })
    exited.then((exitCode) => done({ exitCode }))
  })
  if (typeof url !== 'string') {
    if (url.exitCode === 127) return { skipped: stderr.trim().replace(/^with-postgres: /, '') }
    throw new Error(`scripts/with-postgres.sh failed (exit ${url.exitCode}): ${stderr.trim()}`)
  }
  try {
    const probe = await openDatabase({ databaseUrl: url })
    try {
      const { rows } = await probe.db.execute<{ pid: number; version: string }>(
        sql`select pg_backend_pid() as pid, current_setting('server_version') as version`,
      )
      const { pid, version } = rows[0] as { pid: number; version: string }
      const postmaster = procStat(pid)?.ppid
      return {
        url,
        version,
        serverCpuMs: postmaster === undefined ? null : () => processTreeCpuMs(postmaster),
        stop,
      }
    } finally {
      await probe.close()
    }
  } catch (error) {
    await stop()
    throw error
  }
}

const clockTicksPerSecond = (() => {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout)
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100
})()

/** Parent pid and CPU ticks (user + system) of a process, from /proc (Linux); undefined when gone. */
function procStat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }
  } catch {
    return undefined
  }
}

/** CPU milliseconds used so far by one process (e.g. anvil), from /proc; null when unreadable. */
export function processCpuMs(pid: number): number | null {
  const stat = procStat(pid)
  return stat ? (stat.ticks / clockTicksPerSecond) * 1000 : null
}

/**
 * CPU milliseconds used so far by a PostgreSQL server: the postmaster and its children (backends,
 * checkpointer, WAL writer…). A child that exits inside a window takes its time with it (pooled backends
 * live for the whole run, so this misses little, and errs low).
 */
function processTreeCpuMs(postmaster: number): number {
  if (!existsSync('/proc')) return 0
  let ticks = procStat(postmaster)?.ticks ?? 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = procStat(Number(entry))
    if (stat?.ppid === postmaster) ticks += stat.ticks
  }
  return (ticks / clockTicksPerSecond) * 1000
}

// ---------------------------------------------------------------------------------------------------------
// HTTP client

export type Reply = { status: number; body: string; setCookie: string[]; ms: number }

export function post(
  agent: Agent,
  url: URL,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<Reply> {
  const started = performance.now()
  return new Promise((done, fail) => {
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', fail)
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            setCookie: res.headers['set-cookie'] ?? [],
            ms: performance.now() - started,
          }),
        )
      },
    )
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)))
    req.on('error', fail)
    req.end(body)
  })
}

/** Runs work(0…count-1) with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0
  const worker = async () => {
    for (let index = next++; index < count; index = next++) await work(index)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

export function latency(samples: number[]): Latency {
  if (samples.length === 0) return { p50: 0, p99: 0, max: 0 }
  const { median, max } = spread(samples)
  const sorted = [...samples].sort((a, b) => a - b)
  // Nearest rank: the smallest sample at or above 99 % of all samples.
  const p99 = sorted[Math.ceil(0.99 * sorted.length) - 1] as number
  return { p50: median, p99: Math.round(p99), max }
}

export const round1 = (n: number) => Math.round(n * 10) / 10

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

export async function runSignInBench({
  log,
}: {
  log: (message: string) => void
}): Promise<SignInBenchResult> {
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

// ---------------------------------------------------------------------------------------------------------
// Report

// Same layout as report.ts's table() (not exported there): first column left, the others right-aligned.
function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length)))
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
        .join('   '),
    )
    .join('\n')
}

const ms = (n: number) => `${n} ms`
const cpu = (n: number | null) => (n === null ? '–' : `${n.toFixed(1)} ms`)

export function formatSignInReport(r: SignInBenchResult): string {
  const measured = r.databases.flatMap((db) =>
    'runs' in db
      ? db.runs.map((run) => ({ label: `${db.database}, ${run.concurrency} concurrent`, run }))
      : [],
  )
  const failures = measured.filter(({ run }) => run.failures.count > 0)
  const postgresCpu = measured.some(({ run }) => run.cpuPerVerify.databaseServer !== null)
  return [
    `Sign-in: ${r.accountsPerRun} distinct EOA accounts per row, SIWE nonce → sign → verify over HTTP`,
    '',
    table([
      ['Verify', 'p50', 'p99', 'max', 'verifies/s', 'nonce p50', 'p99'],
      ...measured.map(({ label, run }) => [
        label,
        ms(run.verify.latency.p50),
        ms(run.verify.latency.p99),
        ms(run.verify.latency.max),
        String(run.verify.perSecond),
        ms(run.nonce.latency.p50),
        ms(run.nonce.latency.p99),
      ]),
    ]),
    '  Latency = request sent until the whole response is read, at the client, every request of the row.',
    '  verifies/s = 200-OK verifies ÷ wall time of the verify phase (all signatures made before it).',
    `  ${r.warmUp.accounts} unmeasured warm-up sign-ins first on each database; keep-alive sockets, one per`,
    '  concurrent client.',
    `  Rate limiting is raised for the bench: AUTH_RATE_LIMIT_PER_MINUTE=${r.rateLimitPerMinute} (default 30`,
    '  per IP and minute; the limiter still runs on every request).',
    '',
    table([
      ['CPU per verify', 'API server', 'PostgreSQL server', 'server total', 'load generator', 'per nonce'],
      ...measured.map(({ label, run }) => {
        const { apiServer, databaseServer, loadGenerator } = run.cpuPerVerify
        return [
          label,
          cpu(apiServer),
          cpu(databaseServer),
          cpu(apiServer + (databaseServer ?? 0)),
          cpu(loadGenerator),
          cpu(run.nonce.serverCpuMsPerNonce),
        ]
      }),
    ]),
    '  API server = process.cpuUsage() of the server process (startServer in a child process of the bench,',
    '  nothing else in it) over the verify window ÷ verifies; with PGlite the database runs inside it.',
    postgresCpu
      ? '  PostgreSQL server = its postmaster and children (backends, workers): user + system time from /proc.'
      : '  PostgreSQL server: not measured (PGlite only, or no /proc).',
    '  Load generator = the bench process (HTTP client) in the same window: not part of the server cost.',
    '  Per nonce = API server CPU over the nonce phase ÷ nonces issued (PostgreSQL server not included).',
    `  Machine: ${r.machine.cores} × ${r.machine.cpu}, shared by client and server (and whatever else runs):`,
    '  latency and verifies/s move with other load on the machine, CPU per verify much less.',
    '',
    ...r.databases.map((db) =>
      'runs' in db
        ? `  ${db.database} ${db.version}: ${db.connections}.`
        : `  ${db.database}: skipped: ${db.skipped}`,
    ),
    failures.length
      ? failures
          .map(({ label, run }) => `  FAILED, ${label}: ${run.failures.count}: ${failureKinds(run)}`)
          .join('\n')
      : '  Every nonce and verify answered 200.',
    `  Sign-in bench took ${r.totalSeconds} s.`,
  ].join('\n')
}
