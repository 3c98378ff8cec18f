// HAProxy in front of several API instances, for the cluster fault test and `npm run cluster`
// (docs/deploy.md shows the same configuration for production, with TLS).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stopChild, watchChild } from './child-process.ts'

const START_TIMEOUT_MS = 10_000

/** Debian's haproxy package, or the one on PATH. */
const haproxyBinary = (): string => (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy')

/** HAProxy's idle limits (client, server, keep-alive): above the event streams' 15 s heartbeat. */
const IDLE_TIMEOUT_S = 60
/**
 * KEEP_ALIVE_TIMEOUT_MS for an instance behind this HAProxy (docs/deploy.md): above the proxy's idle
 * timeout, so the proxy, never the instance, closes an idle connection between them, and never sends a
 * request on one the instance is closing.
 */
export const INSTANCE_KEEP_ALIVE_MS = (IDLE_TIMEOUT_S + 5) * 1_000

/** The name of the n-th instance (from 0) in the configuration, in `X-Served-By` and `npm run cluster`'s log. */
export const instanceName = (n: number): string => `api${n + 1}`

/**
 * The configuration: HTTP on 127.0.0.1:`port`, over `instances` (host:port) by `balance`, named by
 * `instanceName` in their order, each checked on /api/health every half second and taken out after two
 * failures (a check may take 2 s). A request whose connection an instance refuses is sent to another (`retries`, `redispatch 1`:
 * every retry goes to another instance). A GET or HEAD an instance closed without a byte of answer (it
 * died mid-request) is sent again to another (`retry-on empty-response`): a read is safe to resend. Any
 * other request already sent is never resent by the proxy, since only the client knows it may resend (a
 * signed vote is idempotent, the client's retry converges; a sign-in's nonce is not). Every answer names
 * the instance that gave it in `X-Served-By`, so a test knows which to kill. An event stream is an
 * ordinary response to HAProxy: the client and server idle timeouts apply, and exceed the streams' 15 s
 * heartbeat (`timeout tunnel` is for upgraded connections, WebSockets, only).
 */
/**
 * How HAProxy picks an instance. `leastconn` (the default, as docs/deploy.md configures it): the one with the
 * fewest requests and streams in progress, so one that falls behind (a pause, its leader work, a slow batch)
 * gets fewer until it catches up; under round robin it kept a third of the votes and their p99 tripled (the
 * closing-hour bench, 3 instances). `roundrobin`: each in turn, for a test that needs every instance to take
 * a request.
 */
export type Balance = 'leastconn' | 'roundrobin'

type HaproxyOptions = { port: number; instances: string[]; balance?: Balance }

function haproxyConfig({ port, instances, balance = 'leastconn' }: HaproxyOptions): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch 1',
    '  retries 3',
    '  retry-on conn-failure empty-response',
    '  timeout connect 2s',
    `  timeout client ${IDLE_TIMEOUT_S}s`,
    `  timeout server ${IDLE_TIMEOUT_S}s`,
    `  timeout http-keep-alive ${IDLE_TIMEOUT_S}s`,
    'frontend guildhall',
    `  bind 127.0.0.1:${port}`,
    '  default_backend api',
    'backend api',
    `  balance ${balance}`,
    '  http-request disable-l7-retry unless METH_GET',
    '  option httpchk GET /api/health',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 2',
    // A check's answer may take up to 2 s (else its timeout is `inter`): an instance slow under a burst on a
    // loaded machine stays in; one that refuses connections (stopped) still goes after two checks.
    '  timeout check 2s',
    '  http-response set-header X-Served-By %[srv_name]',
    ...instances.map((address, n) => `  server ${instanceName(n)} ${address} check`),
    '',
  ].join('\n')
}

export type Haproxy = { url: string; stop: () => Promise<void>; output: () => string }

/** Writes the configuration to a temporary folder and runs HAProxy in the foreground until `stop()`. */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const dir = await mkdtemp(join(tmpdir(), 'guildhall-haproxy-'))
  const configPath = join(dir, 'haproxy.cfg')
  await writeFile(configPath, haproxyConfig(options))
  const child = spawn(haproxyBinary(), ['-db', '-f', configPath], { stdio: ['ignore', 'pipe', 'pipe'] })
  const { exited, output } = watchChild(child)
  const url = `http://127.0.0.1:${options.port}`
  const stop = async () => {
    await stopChild(child, exited, 'SIGTERM')
    await rm(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  while (true) {
    if (child.exitCode !== null || child.signalCode !== null || output().includes('ENOENT')) {
      await stop()
      throw new Error(`HAProxy did not start (is Debian's haproxy package installed?):\n${output()}`)
    }
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    )
    if (up) return { url, stop, output }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`HAProxy did not answer within ${START_TIMEOUT_MS} ms:\n${output()}`)
    }
    await new Promise((done) => setTimeout(done, 100))
  }
}
