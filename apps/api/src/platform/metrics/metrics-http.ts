// Where the metrics are read and what every request adds to them (ADR 065). Prometheus reads them on a
// listener of their own (METRICS_PORT, loopback by default), or on the public origin only with the
// operator's token (METRICS_TOKEN); without a token the public path is unknown like any other (404).
import { createHash, timingSafeEqual } from 'node:crypto'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../http/errors.ts'
import type { Metrics } from './metrics.ts'

const METRICS_PATH = '/metrics'

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics, null when they are off (server.ts serves them on METRICS_PORT). */
    metrics: Metrics | null
  }
}

/** Prometheus asks every 15 s or so: its requests are logged from warnings up, as the health checks'. */
const quiet = { logLevel: 'warn' } as const

const digest = (text: string) => createHash('sha256').update(text).digest()

/** The answer Prometheus reads: never stored by a cache on the way. */
async function sendMetrics(metrics: Metrics, reply: FastifyReply) {
  const { body, contentType } = await metrics.text()
  return reply.header('cache-control', 'no-store').type(contentType).send(body)
}

/**
 * On the root scope, before any route: each answered request counts under its route's template (`none`
 * when no route matched, so a scan of random paths adds one series, not one per path). Also the public
 * GET /metrics, always there: behind the token, or 404.
 */
export const metricsPlugin = fp(
  async (
    app: FastifyInstance,
    { metrics, token }: { metrics: Metrics | undefined; token: string | undefined },
  ) => {
    app.decorate('metrics', metrics ?? null)
    if (metrics) {
      app.addHook('onResponse', async (request, reply) => {
        metrics.requestAnswered(
          request.method,
          request.routeOptions.url ?? 'none',
          reply.statusCode,
          reply.elapsedTime / 1000,
        )
      })
    }
    // Compared as digests: the same length whatever was sent, so the comparison's time tells nothing.
    const expected = token === undefined ? undefined : digest(token)
    app.get(METRICS_PATH, { ...quiet, schema: { hide: true } }, async (request, reply) => {
      if (!metrics || !expected) {
        reply.callNotFound()
        return reply
      }
      const given = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"')
        throw ApiError.unauthenticated(
          'The metrics need the operator’s token: Authorization: Bearer <token>.',
        )
      }
      return sendMetrics(metrics, reply)
    })
  },
  { name: 'guildhall-metrics' },
)

/** The metrics' own listener (METRICS_PORT): GET /metrics and nothing else, no token (who may reach it is the address's business). */
export async function listenForMetrics(
  metrics: Metrics,
  { port, host }: { port: number; host: string },
  logger: FastifyBaseLogger,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = Fastify({ loggerInstance: logger.child({ listener: 'metrics' }) })
  server.get(METRICS_PATH, quiet, async (_request, reply) => sendMetrics(metrics, reply))
  await server.listen({ port, host })
  const address = server.server.address()
  const listening = typeof address === 'object' && address ? address.port : port
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${listening}`
  logger.info(`metrics at ${url}${METRICS_PATH}`)
  return { url, close: () => server.close() }
}
