// `npm run cluster`: the demo as a cluster (docs/deploy.md): a throwaway anvil chain with the demo DAO,
// CLUSTER_INSTANCES API processes (3 by default) on one PostgreSQL database, and HAProxy in front of them
// on one printed URL. The instances are the production server `npm run build` made, run with plain node as
// an operator runs it (ADR 066; SERVER_DIST: another build's folder). PostgreSQL: DATABASE_URL, else a
// throwaway server (scripts/with-postgres.sh).
// Each instance's log is printed line by line behind its name (`[api2] …`, HAProxy's name for it); an
// instance that exits is reported and started again on its port, after a pause that grows while it keeps
// failing. Settings reach the instances in their environment, never on a command line (`ps` shows those to
// every local user). Ctrl-C stops everything it started.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EnvError, sharedMachineSignatureThreads } from '@guildhall/api'
import { demoEnv, seedDemoInChild } from '@guildhall/api/demo'
import {
  type ApiProcess,
  INSTANCE_KEEP_ALIVE_MS,
  instanceName,
  startApiProcess,
  startHaproxy,
  stopApiProcess,
} from '@guildhall/api/testbed'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { deployDemoDao } from '@guildhall/devchain/demo-dao'
import { ensureHaproxy, ensurePostgres } from './system-deps.ts'

const root = resolve(import.meta.dirname, '..')
const instances = Number(process.env.CLUSTER_INSTANCES ?? 3)
const preferredPort = Number(process.env.PORT ?? 3000)
/** The server every instance runs. */
const serverFile = join(process.env.SERVER_DIST ?? join(root, 'apps/api/dist'), 'server.js')
/** Pauses before an instance that exited is started again: doubling while it keeps failing, then given up. */
const RESTART_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000]
/** An instance that ran this long before it exited failed alone: its next restart waits the first pause. */
const STEADY_MS = 60_000

type Env = Record<string, string | undefined>
type Instance = { name: string; origin: string; pid: () => number | undefined; stop: () => Promise<void> }

/**
 * Starts an API process named `name` and keeps it running: its lines printed behind `[name]`; when it
 * exits (or a restart fails), that is said with its code or signal, and it is started again on the same
 * port (HAProxy knows it there) after a pause of RESTART_DELAYS_MS, the next one for each exit in a row
 * (an exit after STEADY_MS of running counts from the first again); past the last it is left down.
 * `stop()` stops it for good.
 */
async function superviseInstance(name: string, env: Env): Promise<Instance> {
  const print = (line: string) => console.log(`[${name}] ${line}`)
  let api = await startApiProcess(env, { built: serverFile, onLine: print })
  const { origin } = api
  const port = Number(new URL(origin).port)
  let stopping = false
  let failures = 0
  let pause: NodeJS.Timeout | undefined
  let restarting: Promise<void> | undefined

  const down = (how: string, ranMs: number) => {
    if (stopping) return
    failures = ranMs < STEADY_MS ? failures + 1 : 1
    const delay = RESTART_DELAYS_MS[failures - 1]
    if (delay === undefined) {
      print(`${how}; left down: ${RESTART_DELAYS_MS.length} restarts in a row failed (its log is above)`)
      return
    }
    print(`${how}; restarting in ${delay / 1_000} s`)
    pause = setTimeout(() => {
      restarting = restart()
    }, delay)
  }
  const watch = (current: ApiProcess) => {
    const startedAt = Date.now()
    // 'close' comes after its last output has been printed.
    current.child.once('close', (code, signal) =>
      down(`exited (${signal ? `signal ${signal}` : `code ${code}`})`, Date.now() - startedAt),
    )
  }
  const restart = async () => {
    let next: ApiProcess
    try {
      next = await startApiProcess(env, { built: serverFile, port, onLine: print })
    } catch (error) {
      // Its own lines say why; the error repeats them.
      down(`did not start (${(error as Error).message.split('\n')[0]})`, 0)
      return
    }
    api = next
    if (stopping) return stopApiProcess(next, 'SIGTERM')
    watch(next)
    print(`running again at ${origin} (pid ${next.child.pid})`)
  }
  watch(api)
  return {
    name,
    origin,
    pid: () => api.child.pid,
    stop() {
      // Set at once, before any await: exits from now on (Ctrl-C reaches the instances too) are no failures.
      stopping = true
      clearTimeout(pause)
      return (async () => {
        await restarting
        await stopApiProcess(api, 'SIGTERM')
      })()
    },
  }
}

/** The URL without its password, to print. */
function withoutPassword(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}

/** True when nothing listens on 127.0.0.1:port. */
function isPortFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer()
    server.once('error', () => done(false))
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)))
  })
}

async function main(databaseUrl: string) {
  if (!Number.isInteger(instances) || instances < 1 || instances > 16)
    throw new Error('CLUSTER_INSTANCES must be a whole number from 1 to 16')
  ensureHaproxy()
  // PORT=0, or a port already taken: any free one.
  const port = preferredPort && (await isPortFree(preferredPort)) ? preferredPort : await getFreePort()
  const origin = `http://127.0.0.1:${port}`
  const anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  const apis: Instance[] = []
  let stopHaproxy = async () => {}
  const stopAll = async () => {
    await Promise.all([stopHaproxy(), ...apis.map((api) => api.stop())])
    await anvil.stop()
  }
  try {
    const deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    // PORT and HOST are the proxy's; each instance gets a port of its own. SERVER_DIST is this script's.
    const { PORT: _port, HOST: _host, SERVER_DIST: _serverDist, ...callerEnv } = process.env
    const env = {
      ...demoEnv({
        anvilUrl: anvil.url,
        deployment,
        webDist: process.env.WEB_DIST ?? join(root, 'apps/web/dist'),
        env: callerEnv,
      }),
      // The instances' log is printed: from info, for the leadership line docs/deploy.md says to watch.
      LOG_LEVEL: callerEnv.LOG_LEVEL ?? 'info',
      DATABASE_URL: databaseUrl,
      // Users open the proxy's origin; the instances believe its X-Forwarded-For.
      PUBLIC_ORIGIN: origin,
      TRUST_PROXY: '127.0.0.1',
      // docs/deploy.md: an instance keeps an idle connection longer than the proxy does.
      KEEP_ALIVE_TIMEOUT_MS: String(INSTANCE_KEEP_ALIVE_MS),
      // docs/deploy.md: instances on one machine share its cores, so each checks signatures on its part.
      SIGNATURE_THREADS: callerEnv.SIGNATURE_THREADS ?? String(sharedMachineSignatureThreads(instances)),
    }
    const seeded = await seedDemoInChild(env)
    for (let n = 0; n < instances; n++) apis.push(await superviseInstance(instanceName(n), env))
    const haproxy = await startHaproxy({ port, instances: apis.map((api) => new URL(api.origin).host) })
    stopHaproxy = haproxy.stop
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        stopAll().then(
          () => process.exit(0),
          () => process.exit(1),
        )
      })
    }
    console.log(`\nGuildhall (${instances} instances behind HAProxy) is running at ${origin}\n`)
    for (const api of apis)
      console.log(`  ${api.name.padEnd(9)}  ${api.origin} (pid ${api.pid()}, /api/health)`)
    console.log(`  database   ${withoutPassword(databaseUrl)}`)
    console.log(`  chain      anvil ${anvil.url} (chain id ${LOCAL_CHAIN_ID}), ${seeded} demo proposals`)
    console.log(
      '\nKill an instance (its pid above) to watch the others carry on while it is started again; Ctrl-C stops everything.',
    )
  } catch (error) {
    await stopAll()
    throw error
  }
}

const databaseUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL
if (databaseUrl) {
  main(databaseUrl).catch((error) => {
    console.error(error instanceof EnvError ? error.message : error)
    process.exit(1)
  })
} else {
  // No PostgreSQL given: this same command again, under a throwaway server. Ctrl-C reaches both; this
  // process waits for the inner one to stop everything and the server to be removed.
  process.on('SIGINT', () => {})
  const { status } = spawnSync(
    'bash',
    [
      join(root, 'scripts/with-postgres.sh'),
      process.execPath,
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
    ],
    { stdio: 'inherit', env: { ...process.env, PG_BIN: ensurePostgres() } },
  )
  process.exit(status ?? 1)
}
