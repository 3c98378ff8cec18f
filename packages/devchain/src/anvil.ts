import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import path from 'node:path'
import { ANVIL_MNEMONIC } from './accounts.ts'

export type StartAnvilOptions = {
  port: number
  chainId: number
  /** Load from and dump to this file, so a restart keeps the chain. */
  statePath?: string
  /** Seconds between blocks; omitted = mine on every transaction. */
  blockTime?: number
  /** Do not forward anvil's log to this process's stdout. */
  quiet?: boolean
  /** Seconds between periodic state dumps (default 1), bounding what a SIGKILL loses. */
  stateInterval?: number
  /** How long to wait for `eth_chainId` to answer (default 15 s). */
  readyTimeoutMs?: number
  /** The genesis block's number (default 0): a long chain at once, where mining one would take minutes. */
  genesisBlockNumber?: number
  /** The genesis block's time (unix seconds; default now): a chain whose history starts in the past. */
  genesisTimestamp?: number
}

export type AnvilInstance = {
  url: string
  chainId: number
  /** Anvil's process id (tests use it to simulate a crash). */
  pid: number | undefined
  /** SIGTERM and wait for exit; anvil dumps its state on the way out. */
  stop(): Promise<void>
}

const HOST = '127.0.0.1'
const OUTPUT_TAIL = 4000

const running = new Set<ChildProcess>()

/** Absolute path of the anvil binary shipped by `@foundry-rs/anvil`'s platform package. */
export function anvilBinaryPath(): string {
  // Same lookup as the package's bin.mjs; we spawn the binary directly because bin.mjs re-raises
  // SIGTERM on itself without waiting, which would hide when anvil has finished dumping state.
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string]
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  const wrapperPkg = createRequire(import.meta.url).resolve('@foundry-rs/anvil/package.json')
  const fromWrapper = createRequire(wrapperPkg)
  const candidates: string[] = []
  if (arch) {
    try {
      candidates.push(fromWrapper.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${binary}`))
    } catch {
      // optional dependency not installed for this platform; fall through to postinstall's dist/
    }
  }
  candidates.push(path.join(path.dirname(wrapperPkg), '..', 'dist', binary))
  const found = candidates.find((p) => existsSync(p))
  if (!found) {
    throw new Error(
      `anvil binary not found for ${process.platform}-${process.arch} (looked in ${candidates.join(', ')})`,
    )
  }
  return found
}

/** Starts anvil on 127.0.0.1 and resolves once it answers `eth_chainId`. */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const { port, chainId, statePath, blockTime, quiet = false, stateInterval = 1 } = options
  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000
  const url = `http://${HOST}:${port}`

  const args = ['--host', HOST, '--port', String(port), '--chain-id', String(chainId)]
  args.push('--mnemonic', ANVIL_MNEMONIC, '--accounts', '10')
  if (blockTime !== undefined) args.push('--block-time', String(blockTime))
  if (options.genesisBlockNumber !== undefined) args.push('--number', String(options.genesisBlockNumber))
  // Later blocks follow from it at the wall clock's pace until a block is dated with evm_setNextBlockTimestamp.
  if (options.genesisTimestamp !== undefined) args.push('--timestamp', String(options.genesisTimestamp))
  if (statePath) {
    mkdirSync(path.dirname(path.resolve(statePath)), { recursive: true })
    // Historical states let eth_call at old blocks work after a reload, not only at the head.
    args.push('--state', statePath, '--state-interval', String(stateInterval), '--preserve-historical-states')
  }

  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  ensureCleanupHooks()

  let output = ''
  const remember = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL)
  }
  child.stdout?.on('data', (chunk: Buffer) => {
    remember(chunk)
    if (!quiet) process.stdout.write(chunk)
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    remember(chunk)
    if (!quiet) process.stderr.write(chunk)
  })

  let spawnError: Error | undefined
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child)
      resolve()
    })
    child.once('error', (error) => {
      spawnError = error
      running.delete(child)
      resolve()
    })
  })
  const hasExited = () => spawnError !== undefined || child.exitCode !== null || child.signalCode !== null

  const stop = async () => {
    if (hasExited()) return
    child.kill('SIGTERM')
    // Dumping a large state can take a moment; escalate only if anvil hangs.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }

  const fail = async (reason: string): Promise<never> => {
    await stop()
    const tail = output.trim() ? `\nanvil output:\n${output.trim()}` : ''
    throw new Error(`anvil on ${url} ${reason}${tail}`)
  }

  const deadline = Date.now() + readyTimeoutMs
  while (true) {
    if (spawnError) return fail(`could not be spawned: ${spawnError.message}`)
    if (hasExited()) return fail(`exited early (code ${child.exitCode}, signal ${child.signalCode})`)
    const answered = await rpcChainId(url)
    // Check the process again: a foreign server on the same port must not pass for ours.
    if (answered !== undefined && !hasExited()) {
      if (answered !== chainId) return fail(`answered chain id ${answered}, expected ${chainId}`)
      return { url, chainId, pid: child.pid, stop }
    }
    if (Date.now() > deadline) return fail(`did not answer eth_chainId within ${readyTimeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function rpcChainId(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    })
    const body = (await response.json()) as { result?: string }
    return body.result ? Number(body.result) : undefined
  } catch {
    return undefined
  }
}

/** Asks the OS for a free TCP port on 127.0.0.1. */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, HOST, () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))))
    })
  })
}

let hooksInstalled = false

// Anvil must not outlive us: kill on exit, and on signals that would otherwise end us without 'exit'.
function ensureCleanupHooks() {
  if (hooksInstalled) return
  hooksInstalled = true
  const killAll = () => {
    for (const child of running) child.kill('SIGTERM')
  }
  process.once('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      killAll()
      // If nobody else handles the signal, restore the default (terminate) behaviour.
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal)
        process.kill(process.pid, signal)
      }
    }
    process.on(signal, onSignal)
  }
}
