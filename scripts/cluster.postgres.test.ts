// `npm run cluster` as an operator runs it (without the web build: a stand-in index.html; the server built
// here into a folder of its own, as `npm run build` builds it), two instances on a test database whose URL
// carries a password, and one more secret in the operator's environment:
// - each instance is the built server under plain node, no TypeScript loader (ADR 066), restarted ones too;
// - no setting is on any command line of the processes it started (any local user reads those with `ps`);
//   the instances have them in their environment, which only their owner can read;
// - each instance's log is printed behind its name, the leadership line docs/deploy.md says to watch
//   among it, the proxy's health checks not; each keeps idle connections longer than the proxy does;
// - an instance SIGKILLed is reported with its name and signal, and started again on its port, where it
//   answers /api/ready; Ctrl-C (SIGINT) stops everything, and the exit is clean.
// PostgreSQL only (vitest.config.ts runs *.postgres.test.ts when TEST_DATABASE_URL is set).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { INSTANCE_KEEP_ALIVE_MS, type TestDatabase, testDatabase } from '@guildhall/api/testbed'
import { PUBLIC_CONFIG_PLACEHOLDER } from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildServer, type ServerBuild } from './build-server.ts'

const ROOT = resolve(import.meta.dirname, '..')
const PASSWORD = 'cluster-test-password-1f3a'
const OPERATOR_SECRET = 'operator-secret-9c2e'
/** Anvil, the demo DAO and its seed, two instances, HAProxy: a minute or more on a busy 2-core machine. */
const START_TIMEOUT_MS = 150_000
/** Inside the repository, so the bundle's external packages resolve from node_modules as in apps/api/dist. */
const SERVER_DIST = join(ROOT, 'node_modules/.cache', `guildhall-cluster-test-${process.pid}`)

let postgres: TestDatabase
let webDist: string
let build: ServerBuild
let cluster: ChildProcess | undefined
const lines: string[] = []

beforeAll(async () => {
  postgres = await testDatabase()
  webDist = await mkdtemp(join(tmpdir(), 'guildhall-cluster-web-'))
  await writeFile(join(webDist, 'index.html'), `<!doctype html><head>${PUBLIC_CONFIG_PLACEHOLDER}</head>`)
  build = await buildServer({ outDir: SERVER_DIST })
}, 120_000)

afterAll(async () => {
  if (cluster && cluster.exitCode === null && cluster.signalCode === null) {
    cluster.kill('SIGINT')
    await new Promise((exited) => cluster?.once('exit', exited))
  }
  await postgres?.close()
  await rm(webDist, { recursive: true, force: true })
  await rm(SERVER_DIST, { recursive: true, force: true })
}, 60_000)

/** Resolves with the first printed line matching `pattern` (from line `from` on), within `timeoutMs`. */
async function lineMatching(pattern: RegExp, timeoutMs: number, from = 0): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs
  while (true) {
    for (const line of lines.slice(from)) {
      const match = line.match(pattern)
      if (match) return match
    }
    if (cluster?.exitCode !== null || cluster?.signalCode !== null)
      throw new Error(`the cluster exited:\n${lines.join('\n')}`)
    if (Date.now() > deadline)
      throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.slice(-40).join('\n')}`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

/** Every process under `root` (its children, theirs, …), with its command line's arguments. */
async function descendants(root: number): Promise<{ pid: number; argv: string[] }[]> {
  const parents = new Map<number, number>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses: read after the last ')'.
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (ppid) parents.set(Number(entry), ppid)
  }
  const found: number[] = []
  const visit = (parent: number) => {
    for (const [pid, ppid] of parents) {
      if (ppid !== parent) continue
      found.push(pid)
      visit(pid)
    }
  }
  visit(root)
  const processes = await Promise.all(
    found.map(async (pid) => ({
      pid,
      argv: (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter(Boolean),
    })),
  )
  return processes.filter((process) => process.argv.length > 0)
}

/** An instance's environment, as its owner reads it. */
async function environment(pid: number): Promise<Map<string, string>> {
  const text = await readFile(`/proc/${pid}/environ`, 'utf8')
  return new Map(
    text
      .split('\0')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  )
}

/** No command line under the cluster holds a setting, a setting's name, JSON, or the operator's secret. */
async function expectNoSettingOnACommandLine(instancePids: number[]) {
  const settings = await environment(instancePids[0] as number)
  const values = ['DATABASE_URL', 'PUBLIC_ORIGIN', 'TOKEN_ADDRESS', 'DEV_WALLET_ACCOUNTS', 'WEB_DIST'].map(
    (key) => settings.get(key) as string,
  )
  expect(values.every(Boolean)).toBe(true)
  const secrets = [...values, PASSWORD, OPERATOR_SECRET, 'DATABASE_URL', '{"']
  const processes = await descendants(cluster?.pid as number)
  // The instances, anvil and HAProxy at least.
  expect(processes.length).toBeGreaterThanOrEqual(instancePids.length + 2)
  for (const pid of instancePids) expect(processes.map((p) => p.pid)).toContain(pid)
  for (const { pid, argv } of processes) {
    const commandLine = argv.join(' ')
    for (const secret of secrets) expect(commandLine, `pid ${pid}: ${commandLine}`).not.toContain(secret)
  }
  for (const pid of instancePids) {
    expect((await environment(pid)).get('DATABASE_URL')).toContain(PASSWORD)
    // Readable by its owner only.
    expect((await stat(`/proc/${pid}/environ`)).mode & 0o077).toBe(0)
  }
}

/** Each instance is the built server run by plain node: no tsx loader on its command line or in NODE_OPTIONS. */
async function expectBuiltServer(instancePids: number[]) {
  for (const pid of instancePids) {
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean)
    expect(argv, `pid ${pid}`).toEqual([process.execPath, build.serverFile])
    expect((await environment(pid)).has('NODE_OPTIONS'), `pid ${pid}`).toBe(false)
  }
}

test('behavior: npm run cluster (2 instances): each instance the built server under plain node; no setting on any command line; each instance logged behind its name with the leadership line; an instance SIGKILLed is reported, restarted on its port, and answers /api/ready; Ctrl-C stops everything', async () => {
  const databaseUrl = new URL(postgres.url as string)
  databaseUrl.password = PASSWORD
  const port = await getFreePort()
  cluster = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/cluster.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      PORT: String(port),
      CLUSTER_INSTANCES: '2',
      WEB_DIST: webDist,
      SERVER_DIST: build.outDir,
      GUILDHALL_OPERATOR_SECRET: OPERATOR_SECRET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [cluster.stdout, cluster.stderr]) {
    let partial = ''
    stream?.setEncoding('utf8')
    stream?.on('data', (text: string) => {
      const parts = (partial + text).split('\n')
      partial = parts.pop() ?? ''
      lines.push(...parts)
    })
  }

  const running = await lineMatching(/is running at http:\/\/127\.0\.0\.1:\d+/, START_TIMEOUT_MS)
  // The summary is several writes to a pipe: its later lines may arrive in a later chunk than its heading.
  const summaryFrom = lines.indexOf(running.input as string)
  const instances = await Promise.all(
    ['api1', 'api2'].map(async (name) => {
      const [, origin, pid] = await lineMatching(
        new RegExp(`^\\s+${name}\\s+(http:\\/\\/127\\.0\\.0\\.1:\\d+) \\(pid (\\d+)`),
        10_000,
        summaryFrom,
      )
      return { name, origin: origin as string, pid: Number(pid) }
    }),
  )
  expect(lines.join('\n')).not.toContain(PASSWORD)
  await expectBuiltServer(instances.map((i) => i.pid))
  await expectNoSettingOnACommandLine(instances.map((i) => i.pid))

  // One of them leads the token index, and says so in its own name.
  await lineMatching(/^\[api[12]\] .*token index leadership: this instance runs the token index/, 30_000)
  // Every line of theirs is theirs: the proxy's checks (every 500 ms) are not among them.
  expect(lines.filter((line) => line.startsWith('[api') && line.includes('/api/health'))).toEqual([])
  // Keep-alive above the proxy's idle timeout (docs/deploy.md).
  const health = await fetch(`${instances[0]?.origin}/api/health`)
  expect(health.headers.get('keep-alive')).toBe(`timeout=${INSTANCE_KEEP_ALIVE_MS / 1_000}`)

  const killed = instances[1] as (typeof instances)[number]
  const from = lines.length
  process.kill(killed.pid, 'SIGKILL')
  await lineMatching(/^\[api2\] exited \(signal SIGKILL\); restarting in 1 s$/, 10_000, from)
  const [, origin, newPid] = await lineMatching(
    /^\[api2\] running again at (http:\/\/127\.0\.0\.1:\d+) \(pid (\d+)\)$/,
    START_TIMEOUT_MS,
    from,
  )
  expect(origin).toBe(killed.origin)
  expect(Number(newPid)).not.toBe(killed.pid)
  expect((await fetch(`${killed.origin}/api/ready`)).status).toBe(200)
  await expectBuiltServer([Number(newPid)])
  await expectNoSettingOnACommandLine([instances[0]?.pid as number, Number(newPid)])

  // Ctrl-C: everything stops, the instances are not restarted, and the exit is clean.
  const exited = new Promise<number | null>((done) => cluster?.once('exit', (code) => done(code)))
  const stopping = lines.length
  cluster.kill('SIGINT')
  expect(await exited).toBe(0)
  expect(lines.slice(stopping).filter((line) => /restarting|running again/.test(line))).toEqual([])
  for (const pid of [instances[0]?.pid, Number(newPid)])
    expect(() => process.kill(pid as number, 0)).toThrow()
}, 400_000)
