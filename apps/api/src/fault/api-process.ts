// The real API server as a child process, for fault tests: a SIGKILL kills the server and nothing else.
import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { getFreePort } from '@guildhall/devchain/anvil'

const ROOT = resolve(import.meta.dirname, '../../../..')
const SERVER_ENTRY = resolve(ROOT, 'apps/api/src/server.ts')
const START_TIMEOUT_MS = 120_000

export type ApiProcess = { child: ChildProcess; origin: string; exited: Promise<void>; output: () => string }

/** Every server started, so afterAll can kill what a failed test left running. */
export const startedApis: ApiProcess[] = []

/** Starts `server.ts` with `env` (plus PORT, HOST, PUBLIC_ORIGIN, LOG_LEVEL) and waits until it is ready. */
export async function startApi(env: Record<string, string | undefined>): Promise<ApiProcess> {
  const port = await getFreePort()
  const origin = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: origin,
      LOG_LEVEL: 'silent',
      ...env,
    },
  })
  let output = ''
  const remember = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout?.on('data', remember)
  child.stderr?.on('data', remember)
  const exited = new Promise<void>((done) => {
    child.once('exit', () => done())
    child.once('error', () => done())
  })
  const api = { child, origin, exited, output: () => output }
  startedApis.push(api)

  const deadline = Date.now() + START_TIMEOUT_MS
  while (true) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the API exited while starting (code ${child.exitCode}):\n${output}`)
    }
    const ready = await fetch(`${origin}/api/ready`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) return api
    if (Date.now() > deadline) {
      await stopApi(api, 'SIGKILL')
      throw new Error(`the API was not ready within ${START_TIMEOUT_MS} ms:\n${output}`)
    }
    await new Promise((done) => setTimeout(done, 100))
  }
}

/** Signals the process and waits for it to exit; SIGTERM closes the server cleanly, escalating if it hangs. */
export async function stopApi(api: ApiProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (api.child.exitCode === null && api.child.signalCode === null) {
    api.child.kill(signal)
    const escalate = setTimeout(() => api.child.kill('SIGKILL'), 10_000)
    await api.exited
    clearTimeout(escalate)
  }
}
