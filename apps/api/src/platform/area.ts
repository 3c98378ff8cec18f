// What the API is made of: areas (auth, token, governance, members, names, chain, web), each building its
// services from the settings and giving the app one Fastify plugin with its routes, and what only the
// leader runs. buildApp (app.ts) composes them; an area may use the services of an area below it
// (biome.json's import rules give the order).
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Settings } from '../settings/env.ts'
import type { Database } from './db/client.ts'
import type { LeaderJob } from './jobs/leader.ts'
import type { Observer } from './observer.ts'
import type { SignaturePool } from './signatures/pool.ts'

/** What every area is built from. */
export interface AreaContext {
  settings: Settings
  /** Absent when the app runs without one (no sign-in, no token): the areas that need one then stay off. */
  database: Database | undefined
  now: () => Date
  logger: FastifyBaseLogger
  /** Where the areas report what the metrics count (silentObserver without metrics). */
  observer: Observer
  /** Signature recovery on worker threads (ADR 063), one pool per app. */
  signatures: SignaturePool
}

export interface Area {
  /** Registers the area's routes (and hooks) on the app. */
  plugin: (app: FastifyInstance) => Promise<void>
  /** What only the leader runs, if the area has background work. */
  job?: LeaderJob
}
