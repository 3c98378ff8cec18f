// The one error envelope, { error: code, message }: core's `apiErrorSchema` (packages/core/src/api/errors.ts).
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { endedByTheDatabase, isDatabaseUnavailable } from '../db/errors.ts'
import { ApiError } from './errors.ts'

const ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
}

/** The root scope's error handler; registered before any route, which takes the handler it finds. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    // ApiError answers as it says; other 4xx keep their status (413 body too large, 415 media type, 429 rate limit).
    app.setErrorHandler(async (error: { statusCode?: number; message: string }, request, reply) => {
      if (error instanceof ApiError) {
        if (error.retryAfter) reply.header('retry-after', String(error.retryAfter))
        return reply.status(error.status).send({ error: error.code, message: error.message })
      }
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500
      // Any route: an error saying the database is unreachable or dropped the connection (a restart,
      // failover or pooler) is a 503, try again shortly; judged by the error (platform/db/client.ts), not by asking
      // the database, which may be back already. Nothing is half-written (every write is one transaction),
      // and a signed message sent again is stored once. A bug stays a 500.
      // So is a statement the database ended again on its one more try (a deadlock, ADR 091): nothing of it
      // was applied, and the same request a moment later meets other transactions.
      const ended = status === 500 && endedByTheDatabase(error)
      if ((status === 500 && isDatabaseUnavailable(error)) || ended) {
        request.log.warn(
          { err: error },
          ended ? 'database ended the statement twice' : 'database unavailable',
        )
        const down = ended
          ? ApiError.databaseUnavailable('The database was busy with other changes. Try again shortly.')
          : ApiError.databaseUnavailable()
        return reply
          .status(down.status)
          .header('retry-after', String(down.retryAfter))
          .send({ error: down.code, message: down.message })
      }
      if (status === 500) request.log.error(error)
      return reply.status(status).send({
        error: ERROR_CODES[status] ?? (status === 500 ? 'internal' : 'bad_request'),
        message: status === 500 ? 'Internal error' : error.message,
      })
    })
  },
  { name: 'guildhall-errors' },
)
