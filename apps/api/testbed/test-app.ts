// How an API test starts: the demo chain and a fresh database for a file's tests (startTestbed), the app's
// settings for a test (testSettings: no test writes the environment by hand), the app on them (testApp)
// and JSON requests from the app's own origin.
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.ts'
import { type DemoChain, startDemoChain, testEnv } from '../src/demo/local-chain.ts'
import type { Database } from '../src/platform/db/client.ts'
import { type TestDatabase, testDatabase } from '../src/platform/db/test-database.ts'
import { parseEnv, type Settings } from '../src/settings/env.ts'

export const ORIGIN = 'http://127.0.0.1:3999'
export const jsonHeaders = { origin: ORIGIN, 'content-type': 'application/json' }

/** POSTs `body` as JSON from the app's own origin. */
export const postJson = (app: FastifyInstance, url: string, body: unknown) =>
  app.inject({ method: 'POST', url, headers: jsonHeaders, payload: JSON.stringify(body) })

/** An address nothing listens on: for settings whose chain the test never reaches. */
const NO_CHAIN_URL = 'http://127.0.0.1:9'

/**
 * The app's settings for a test: the local chain at `rpcUrl` (with the demo DAO once `deployment` is given),
 * one injected wallet, the app's origin ORIGIN (`origin: null`: none, the server's own default), then `env`.
 */
export function testSettings({
  rpcUrl = NO_CHAIN_URL,
  deployment,
  origin = ORIGIN,
  env = {},
}: {
  rpcUrl?: string
  deployment?: DemoDeployment
  origin?: string | null
  env?: Record<string, string | undefined>
} = {}): Settings {
  return parseEnv({
    ...(origin !== null && { PUBLIC_ORIGIN: origin }),
    ...testEnv(rpcUrl, deployment),
    ...env,
  })
}

export type Testbed = DemoChain & { database: TestDatabase }

/** The demo DAO on a fresh anvil, and a fresh database (PGlite, or PostgreSQL under scripts/with-postgres.sh). */
export async function startTestbed(): Promise<Testbed> {
  const chain = await startDemoChain()
  try {
    return { ...chain, database: await testDatabase() }
  } catch (error) {
    await chain.anvil.stop()
    throw error
  }
}

/** Closes the apps, then the database and the chain (any of them may be missing: a setup that failed). */
export async function stopTestbed(
  testbed: Partial<Testbed>,
  ...apps: (FastifyInstance | undefined)[]
): Promise<void> {
  for (const app of apps) await app?.close()
  await testbed.database?.close()
  await testbed.anvil?.stop()
}

/**
 * The app on the demo chain (or `rpcUrl`, say a proxy in front of it) and `database`, ready. The governance
 * limit is out of the way: these tests send many messages from one address, and on PostgreSQL every app
 * on the database counts them together; `env` adds to or overrides the settings.
 */
export async function testApp(
  { anvil, deployment, database }: DemoChain & { database: Database },
  {
    env = {},
    rpcUrl = anvil.url,
    now,
  }: { env?: Record<string, string>; rpcUrl?: string; now?: () => Date } = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    settings: testSettings({
      rpcUrl,
      deployment,
      env: { GOVERNANCE_RATE_LIMIT_PER_MINUTE: '100000', ...env },
    }),
    database,
    ...(now ? { now } : {}),
  })
  await app.ready()
  return app
}
