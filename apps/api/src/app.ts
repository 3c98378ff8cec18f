import Fastify, { type FastifyInstance } from 'fastify'
import { authRoutes } from './auth/routes.ts'
import { rpcProxyRoutes } from './chain/rpc-proxy.ts'
import { leaderJobs, nameDeps, nameResolutionClient, signInDeps, tokenDeps } from './deps.ts'
import { eventRoutes } from './governance/live/routes.ts'
import { governanceRoutes } from './governance/routes.ts'
import { memberRoutes } from './members/routes.ts'
import { nameRoutes } from './names/routes.ts'
import type { Database } from './platform/db/client.ts'
import { errorsPlugin } from './platform/http/error-handler.ts'
import { healthRoutes } from './platform/http/health.ts'
import { securityPlugin, serverOptions } from './platform/http/security.ts'
import type { Settings } from './settings/env.ts'
import { tokenRoutes } from './token/routes.ts'
import { webShellPlugin } from './web/web-shell.ts'

export interface AppDeps {
  settings: Settings
  /** Required when sign-in is on. */
  database?: Database
  logger?: boolean | { level: string }
  now?: () => Date
}

/** Builds the HTTP app; never listens (tests use inject(), server.ts listens). */
export async function buildApp({
  settings,
  database,
  logger = false,
  now = () => new Date(),
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(settings, logger))
  const { publicConfig } = settings

  // First: routes take the error handler and the hooks that exist when they are added.
  await app.register(errorsPlugin)
  await app.register(securityPlugin, { settings, database })
  const token = tokenDeps(settings, database, now, app.log)
  const names = nameDeps(settings, database, now, app.log)
  const leadership = leaderJobs(database, [token?.tokenIndex, names?.refresher], app.log)
  if (leadership) {
    app.addHook('onReady', async () => leadership.start())
    app.addHook('onClose', async () => leadership.stop())
  }
  // `tokenIndex: leader | standby` in /api/health, as before names had a refresher on the same leader.
  await app.register(healthRoutes, { database, leadership: token && leadership })

  if (publicConfig.signIn) {
    if (!database) throw new Error('Sign-in is on, so buildApp needs a database')
    await app.register(authRoutes, {
      deps: signInDeps(settings, database, now),
      secure: publicConfig.appUrl.startsWith('https://'),
      rateLimitPerMinute: settings.authRateLimitPerMinute,
    })
  }

  if (token) {
    await app.register(governanceRoutes, {
      deps: token.governance,
      writeRateLimitPerMinute: settings.governanceRateLimitPerMinute,
      exportRateLimitPerMinute: settings.exportRateLimitPerMinute,
      powerRateLimitPerMinute: settings.powerRateLimitPerMinute,
    })
    await app.register(eventRoutes, { deps: token.governance })
    await app.register(memberRoutes, {
      deps: token.governance,
      tokenIndex: token.tokenIndex,
      profiles: names?.profiles,
      namesOn: settings.nameService !== null,
    })
  }
  await app.register(tokenRoutes, { tokenIndex: token?.tokenIndex })
  await app.register(nameRoutes, {
    profiles: names?.profiles,
    rateLimitPerMinute: settings.namesRateLimitPerMinute,
    ensClient: nameResolutionClient(settings),
    resolveRateLimitPerMinute: settings.nameResolveRateLimitPerMinute,
  })

  // Local development chains are served from the app's own origin so the browser needs one URL.
  await app.register(rpcProxyRoutes, { chains: settings.chains.filter((chain) => chain.proxied) })

  if (settings.webDist) {
    await app.register(webShellPlugin, {
      webDist: settings.webDist,
      publicConfig,
      governance: token?.governance,
    })
  }

  return app
}
