import { loadWasmKeccak } from '@guildhall/core'
import Fastify, { type FastifyInstance } from 'fastify'
import { authArea } from './auth/area.ts'
import { rpcProxyRoutes } from './chain/rpc-proxy.ts'
import { discussionArea } from './discussion/area.ts'
import { executionArea } from './execution/area.ts'
import { executionProposals } from './execution/executions.ts'
import { governanceArea } from './governance/area.ts'
import { membersArea } from './members/area.ts'
import { namesArea } from './names/area.ts'
import { notificationsArea } from './notifications/area.ts'
import type { AreaContext } from './platform/area.ts'
import type { Database } from './platform/db/client.ts'
import { errorsPlugin } from './platform/http/error-handler.ts'
import { healthRoutes } from './platform/http/health.ts'
import { openapiPlugin } from './platform/http/openapi.ts'
import { securityPlugin, serverOptions } from './platform/http/security.ts'
import { leaderJobs } from './platform/jobs/leader.ts'
import { Metrics } from './platform/metrics/metrics.ts'
import { metricsPlugin } from './platform/metrics/metrics-http.ts'
import { silentObserver } from './platform/observer.ts'
import { signaturePool } from './platform/signatures/pool.ts'
import type { Settings } from './settings/env.ts'
import { metricsEnabled } from './settings/metrics.ts'
import { tokenArea } from './token/area.ts'
import { treasuryArea } from './treasury/area.ts'
import { webShellPlugin } from './web/web-shell.ts'

export interface AppDeps {
  settings: Settings
  /** Required when sign-in is on. */
  database?: Database
  logger?: boolean | { level: string }
  now?: () => Date
  /** The signature pool's worker file (platform/signatures/recover-worker.mjs; tests give one that crashes). */
  signatureWorker?: URL
}

/** Builds the HTTP app from its areas; never listens (tests use inject(), server.ts listens). */
export async function buildApp({
  settings,
  database,
  logger = false,
  now = () => new Date(),
  signatureWorker,
}: AppDeps): Promise<FastifyInstance> {
  // Every message's id and log entry is hashed on this thread (ADR 086).
  await loadWasmKeccak()
  const app = Fastify(serverOptions(settings, logger))
  const { publicConfig } = settings

  // First: routes take the error handler and the hooks that exist when they are added.
  await app.register(errorsPlugin)
  await app.register(securityPlugin, { settings, database })
  // Kept only where something reads them (ADR 065), one registry per app; its hook before any route.
  const metrics = metricsEnabled(settings.metrics) ? new Metrics() : undefined
  await app.register(metricsPlugin, { metrics, token: settings.metrics.token })
  // Before the routes: it checks their inputs and answers by their schemas, and documents them (ADR 045).
  await app.register(openapiPlugin, { appUrl: publicConfig.appUrl })

  const observer = metrics ?? silentObserver
  const signatures = signaturePool({
    threads: settings.signatureThreads,
    observer,
    logger: app.log,
    worker: signatureWorker,
  })
  app.addHook('onClose', () => signatures.close())
  const context: AreaContext = { settings, database, now, logger: app.log, observer, signatures }
  const auth = authArea(context)
  const token = tokenArea(context)
  const names = namesArea(context)
  const treasury = treasuryArea(context, {
    profiles: names.profiles,
    // Which executions the app queued (ADR 051); the others are "executed outside Guildhall".
    ...(database ? { executionProposals: executionProposals(database.db) } : {}),
  })
  const governance = governanceArea(context, token)
  const execution = executionArea(context, governance?.deps)
  const members =
    governance &&
    membersArea(context, {
      governance: governance.deps,
      profiles: names.profiles,
    })

  // Every discussion write is a signed-in member's: without sign-in there is no discussion.
  const discussion =
    governance && auth && discussionArea(context, { governance: governance.deps, signedIn: auth.signedIn })

  const notifications = notificationsArea(context)

  const jobs = {
    token: token.job,
    names: names.job,
    treasury: treasury.job,
    notifications: notifications.job,
  }
  const leadership = leaderJobs(database, Object.values(jobs), app.log)
  if (leadership) {
    const running = Object.entries(jobs).flatMap(([name, job]) => (job ? [name] : []))
    metrics?.watchLeadership(leadership, running)
    app.addHook('onReady', async () => leadership.start())
    app.addHook('onClose', async () => leadership.stop())
  }
  // `tokenIndex: leader | standby` in /api/health, as before names had a refresher on the same leader.
  await app.register(healthRoutes, { database, leadership: token.job && leadership })

  for (const area of [
    auth,
    governance,
    execution,
    members,
    discussion,
    token,
    names,
    treasury,
    notifications,
  ]) {
    if (area) await app.register(area.plugin)
  }

  // Local development chains are served from the app's own origin so the browser needs one URL.
  await app.register(rpcProxyRoutes, { chains: settings.chains.filter((chain) => chain.proxied) })

  if (settings.webDist) {
    await app.register(webShellPlugin, {
      webDist: settings.webDist,
      publicConfig,
      governance: governance?.deps,
    })
  }

  return app
}
