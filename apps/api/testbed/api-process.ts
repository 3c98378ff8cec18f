// The real API server as a child process, run as an operator runs it (server.ts run directly, from its
// TypeScript through tsx or built into plain JavaScript), for the fault tests and the bench: a SIGKILL kills
// the server and nothing else, and its CPU time is its own (server.ts answers its parent over IPC).
import { type ChildProcess, fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { getFreePort } from '@guildhall/devchain/anvil'
import type { ServerMessage } from '../src/server.ts'
import { stopChild, watchChild } from './child-process.ts'

const ROOT = resolve(import.meta.dirname, '../../..')
/** `npm run build`'s server (scripts/build-server.ts). */
const BUILT_SERVER = resolve(ROOT, 'apps/api/dist/server.js')
/** PGlite creates its cluster and migrates first: tens of seconds on a busy machine. */
const START_TIMEOUT_MS = 180_000

export type ApiProcess = {
  child: ChildProcess
  origin: string
  exited: Promise<void>
  /** The last few thousand characters the server wrote. */
  output: () => string
  /** The server process's own process.cpuUsage(). */
  cpu: () => Promise<NodeJS.CpuUsage>
}

/** Every server started, so an afterAll (stopApiProcesses) can kill what a failed test left running. */
const started: ApiProcess[] = []

export type ApiProcessOptions = {
  /** Flags for its Node (a bench caps its heap with them). */
  nodeFlags?: string[]
  /** The port to listen on (a restarted instance keeps its own); a free one by default. */
  port?: number
  /** Called with each line the server writes, stdout and stderr (`npm run cluster` prints them). */
  onLine?: (line: string) => void
  /**
   * Run the production build with plain `node` (no TypeScript loader): true for `npm run build`'s
   * apps/api/dist/server.js, or the path of another build's server.js; by default the sources under tsx.
   */
  built?: boolean | string
  /**
   * In a process group of its own (`npm start`): a Ctrl-C at the terminal reaches only the caller, which
   * stops it once (a second signal makes the server exit at once, before its database is closed).
   */
  detached?: boolean
}

/**
 * Starts the server with `env` (after PORT, HOST, PUBLIC_ORIGIN and LOG_LEVEL of its own) and waits until it
 * listens. `env` is the server's whole environment, never its command line, which any local user reads
 * with `ps` (DATABASE_URL carries a password); /proc/<pid>/environ is readable by its owner only.
 */
export async function startApiProcess(
  env: Record<string, string | undefined>,
  { nodeFlags = [], port: chosenPort, onLine, built = false, detached = false }: ApiProcessOptions = {},
): Promise<ApiProcess> {
  const serverFile = built === false ? undefined : built === true ? BUILT_SERVER : resolve(built)
  if (serverFile && !existsSync(serverFile)) throw new Error(`${serverFile} is not built: run npm run build`)
  // Run directly, the server keeps its data in ./.data by default (the demo's, here): without DATA_DIR or
  // DATABASE_URL it gets a fresh data dir of its own instead, removed once it exits.
  const ownDataDir =
    env.DATABASE_URL || env.DATA_DIR ? undefined : await mkdtemp(join(tmpdir(), 'guildhall-api-process-'))
  const port = chosenPort ?? (await getFreePort())
  const origin = `http://127.0.0.1:${port}`
  const settings = {
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: origin,
    LOG_LEVEL: 'silent',
    ...env,
    ...(ownDataDir && { DATA_DIR: ownDataDir }),
    PORT: String(port),
  }
  // execArgv is always given: a fork otherwise inherits this process's, tsx's loader when run by tsx.
  const child = fork(serverFile ?? resolve(ROOT, 'apps/api/src/server.ts'), [], {
    cwd: ROOT,
    env: settings,
    execArgv: serverFile ? nodeFlags : ['--import', 'tsx', ...nodeFlags],
    detached,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  const { exited, output } = watchChild(child, onLine)
  if (ownDataDir) void exited.then(() => rm(ownDataDir, { recursive: true, force: true }))
  const next = <T extends ServerMessage['type']>(type: T, timeoutMs: number) =>
    new Promise<Extract<ServerMessage, { type: T }>>((resolveMessage, reject) => {
      const onMessage = (message: ServerMessage) => {
        if (message.type !== type) return
        finish()
        resolveMessage(message as Extract<ServerMessage, { type: T }>)
      }
      const onExit = () => {
        finish()
        reject(new Error(`the API exited (code ${child.exitCode}):\n${output()}`))
      }
      const timer = setTimeout(() => {
        finish()
        reject(new Error(`the API sent no '${type}' within ${timeoutMs / 1000} s:\n${output()}`))
      }, timeoutMs)
      const finish = () => {
        clearTimeout(timer)
        child.off('message', onMessage)
        child.off('exit', onExit)
      }
      child.on('message', onMessage)
      child.once('exit', onExit)
    })
  const api: ApiProcess = {
    child,
    origin,
    exited,
    output,
    async cpu() {
      const reply = next('cpu', 10_000)
      child.send('cpu')
      return (await reply).usage
    },
  }
  started.push(api)
  try {
    await next('ready', START_TIMEOUT_MS)
    return api
  } catch (error) {
    await stopApiProcess(api, 'SIGKILL')
    throw error
  }
}

/** Signals the process and waits for it to exit; SIGTERM closes the server cleanly, escalating if it hangs. */
export async function stopApiProcess(api: ApiProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  await stopChild(api.child, api.exited, signal)
}

/** Kills every server this process started that still runs. */
export async function stopApiProcesses(): Promise<void> {
  for (const api of started) await stopApiProcess(api, 'SIGKILL')
}

/** What an instance's health says of its token index: `leader`, `standby`, or undefined when it does not answer. */
export const tokenIndexRole = (api: ApiProcess): Promise<string | undefined> =>
  fetch(`${api.origin}/api/health`, { signal: AbortSignal.timeout(1_000) })
    .then((response) => response.json() as Promise<{ tokenIndex?: string }>)
    .then(
      (health) => health.tokenIndex,
      () => undefined,
    )

/** The one leader among `apis`, once exactly one says so and the others stand by (bounded wait). */
export async function leaderAmong(apis: ApiProcess[], timeoutMs: number): Promise<ApiProcess> {
  const deadline = Date.now() + timeoutMs
  while (true) {
    const roles = await Promise.all(apis.map(tokenIndexRole))
    const leaders = apis.filter((_, n) => roles[n] === 'leader')
    if (leaders.length === 1 && roles.every((r) => r === 'leader' || r === 'standby'))
      return leaders[0] as ApiProcess
    if (Date.now() > deadline) throw new Error(`no single leader within ${timeoutMs} ms: ${roles.join(', ')}`)
    await new Promise((done) => setTimeout(done, 100))
  }
}
