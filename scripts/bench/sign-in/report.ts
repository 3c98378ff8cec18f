// The sign-in section's result (the shape of bench.json's `signIn`) and the table printed for people.
import type { Latency } from '../harness/schema.ts'
import { table } from '../harness/stats.ts'

/** Failed requests of one phase and status (0 = no HTTP answer); `error` is the first answer's body. */
export type Failure = { phase: 'warm-up' | 'nonce' | 'verify'; status: number; error: string; count: number }

export type SignInRun = {
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

export type SignInDatabaseResult =
  | { database: 'PGlite' | 'PostgreSQL'; version: string; connections: string; runs: SignInRun[] }
  | { database: 'PGlite' | 'PostgreSQL'; skipped: string }

export type SignInBenchResult = {
  date: string
  accountsPerRun: number
  warmUp: { accounts: number; concurrency: number }
  rateLimitPerMinute: number
  machine: { cores: number; cpu: string }
  databases: SignInDatabaseResult[]
  totalSeconds: number
}

export const failureKinds = (run: SignInRun) =>
  run.failures.kinds.map((f) => `${f.count} × ${f.phase} ${f.status || 'no answer'} ${f.error}`).join('; ')

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
