import Fastify, { type FastifyInstance } from 'fastify'
import type { Database } from './db/client.ts'
import { leaderJobs, nameDeps, nameResolutionClient, signInDeps, tokenDeps } from './deps.ts'
import type { Settings } from './env.ts'
import { errorsPlugin } from './plugins/errors.ts'
import { healthRoutes } from './plugins/health.ts'
import { openapiPlugin } from './plugins/openapi.ts'
import { securityPlugin, serverOptions } from './plugins/security.ts'
import { webShellPlugin } from './plugins/web-shell.ts'
import { authRoutes } from './routes/auth.ts'
import { eventRoutes } from './routes/events.ts'
import { governanceRoutes } from './routes/governance.ts'
import { memberRoutes } from './routes/members.ts'
import { nameRoutes } from './routes/names.ts'
import { tokenRoutes } from './routes/token.ts'
import { rpcProxyRoutes } from './rpc-proxy.ts'

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
  // Before the routes: it checks their inputs and answers by their schemas, and documents them (ADR 045).
  await app.register(openapiPlugin, { appUrl: publicConfig.appUrl })
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
