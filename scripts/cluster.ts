// `npm run cluster`: the demo as a cluster (docs/deploy.md): a throwaway anvil chain with the demo DAO,
// CLUSTER_INSTANCES API processes (3 by default) on one PostgreSQL database, and HAProxy in front of them
// on one printed URL. PostgreSQL: DATABASE_URL, else a throwaway server (scripts/with-postgres.sh).
// Ctrl-C stops everything it started.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { deployDemoDao } from '@guildhall/devchain/demo-dao'
import { openDatabase } from '../apps/api/src/db/client.ts'
import { seedDemoDatabase } from '../apps/api/src/demo/governance-seed.ts'
import { demoEnv } from '../apps/api/src/demo/local-chain.ts'
import { EnvError, parseEnv } from '../apps/api/src/env.ts'
import { startHaproxy } from '../apps/api/src/fault/haproxy.ts'
import { type ApiProcess, startApiProcess, stopApiProcess } from '../apps/api/test-support/api-process.ts'
import { ensureHaproxy, ensurePostgres } from './system-deps.ts'

const root = resolve(import.meta.dirname, '..')
const instances = Number(process.env.CLUSTER_INSTANCES ?? 3)
const preferredPort = Number(process.env.PORT ?? 3000)

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
  const port = (await isPortFree(preferredPort)) ? preferredPort : await getFreePort()
  const origin = `http://127.0.0.1:${port}`
  const anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  const apis: ApiProcess[] = []
  let stopHaproxy = async () => {}
  const stopAll = async () => {
    await stopHaproxy()
    await Promise.all(apis.map((api) => stopApiProcess(api, 'SIGTERM')))
    await anvil.stop()
  }
  try {
    const deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    // PORT and HOST are the proxy's; each instance gets a port of its own.
    const { PORT: _port, HOST: _host, ...callerEnv } = process.env
    const env = {
      ...demoEnv({ anvilUrl: anvil.url, deployment, webDist: join(root, 'apps/web/dist'), env: callerEnv }),
      DATABASE_URL: databaseUrl,
      // Users open the proxy's origin; the instances believe its X-Forwarded-For.
      PUBLIC_ORIGIN: origin,
      TRUST_PROXY: '127.0.0.1',
    }
    const database = await openDatabase({ databaseUrl })
    let seeded: number
    try {
      await database.migrate()
      seeded = await seedDemoDatabase(parseEnv(env), database)
    } finally {
      await database.close()
    }
    for (let n = 0; n < instances; n++) apis.push(await startApiProcess(env))
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
    console.log(`  instances  ${apis.map((api) => api.origin).join(', ')} (each: /api/health)`)
    console.log(`  database   ${databaseUrl}`)
    console.log(`  chain      anvil ${anvil.url} (chain id ${LOCAL_CHAIN_ID}), ${seeded} demo proposals`)
    console.log('\nKill an instance (its pid in `ps`) to watch the others carry on; Ctrl-C stops everything.')
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
