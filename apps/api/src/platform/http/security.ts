// What the server does with every request (README "Security"): bounds, compression, headers, CORS, rate
// limits, the Origin check.

import type { Server } from 'node:http'
import fastifyCompress from '@fastify/compress'
import fastifyCookie from '@fastify/cookie'
import fastifyCors from '@fastify/cors'
import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyHttpOptions, FastifyInstance, FastifyServerOptions } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'
import type { Settings } from '../../settings/env.ts'
import type { Database } from '../db/client.ts'
import { contentSecurityPolicy } from './csp.ts'
import { ApiError } from './errors.ts'
import { postgresRateLimitStore } from './rate-limit-store.ts'

/** Methods that change nothing; any other one needs our Origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The Fastify options: body limit, the timeouts, and whose X-Forwarded-For names the client. */
export function serverOptions(
  { timeouts, trustProxy }: Settings,
  logger: FastifyServerOptions['logger'],
): FastifyHttpOptions<Server> {
  return {
    logger,
    bodyLimit: 64 * 1024,
    // request.ip (the rate limits' key, the logs) is the peer unless the operator names the proxies in front.
    trustProxy,
    // Bounds on what a client may hold open: a request whose headers or body trickle in (or stop) gets
    // 408, a connection silent mid-request is closed, an idle keep-alive connection is closed.
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node checks the request and headers timeouts on this interval (30 s by default), so a late check
      // would stretch them; a small fraction of the headers timeout keeps them close to their values.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
    },
  }
}

/** Registered on the root scope before any route, so every route is covered. */
export const securityPlugin = fp(
  async (app: FastifyInstance, { settings, database }: { settings: Settings; database?: Database }) => {
    const origin = settings.publicConfig.appUrl
    // Only JSON bodies: form and text bodies (what a cross-site form can send) are refused with 415.
    app.removeContentTypeParser('text/plain')
    // Session-bearing answers are never compressed: a body holding a secret next to text an attacker chose
    // would leak the secret through its compressed size (BREACH). Added before the plugin's own onRoute hook.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/auth/')) route.compress = false
    })
    // Before every route, so the page, /rpc and /api answers are covered; static files arrive pre-compressed.
    // Its brotli quality defaults to 4 (near gzip's speed) for bodies made per request; the build's files use 11.
    await app.register(fastifyCompress)
    await app.register(fastifyCookie)
    // helmet itself, built once: its headers' values are computed here, not per request (@fastify/helmet
    // builds the middleware, and parses the policy, on every request; ADR 078).
    const securityHeaders = helmet({
      // The full policy, built from the settings (chains' RPC hosts, the configured wallets' SDK hosts).
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(settings) },
      frameguard: false,
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      crossOriginEmbedderPolicy: false,
      hsts: origin.startsWith('https://'),
    })
    // helmet 8 throws a failure rather than passing it on: its callback only says the headers are set.
    app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, () => done()))
    await app.register(fastifyCors, { origin: [origin], credentials: true })
    // Routes opt in (`config.rateLimit`). On PostgreSQL the counts live in the database, shared by every
    // instance behind a load balancer (ADR 022); on PGlite, one process, in memory.
    await app.register(fastifyRateLimit, {
      global: false,
      ...(database?.postgres ? { store: postgresRateLimitStore(database.postgres.pool) } : {}),
    })

    // Cookies ride along on cross-site requests: every request that may change something must come from our
    // own pages, whatever path it names and however that path is spelled (the router decodes `%61pi` and
    // takes absolute-form targets, so the URL's text proves nothing). Only routes that read no cookie and
    // must serve other origins say so (`config.anyOrigin`: /rpc, called by wallets from their own origin).
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return
      if ((request.routeOptions.config as { anyOrigin?: boolean }).anyOrigin === true) return
      if (request.headers.origin !== origin)
        throw new ApiError(403, 'bad_origin', 'This request must come from the Guildhall app itself.')
    })
  },
  { name: 'guildhall-security' },
)
