// Liveness and readiness.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Database } from '../db/client.ts'
import type { Leadership } from '../jobs/leader.ts'
import { ApiError } from './errors.ts'
import { type ApiTypeProvider, errorAnswers } from './openapi.ts'

const healthSchema = z.strictObject({
  status: z.literal('ok'),
  /** With a token: whether this instance runs its index (`leader`) or is ready to take over (`standby`). */
  tokenIndex: z.enum(['leader', 'standby']).optional(),
})
const readySchema = z.strictObject({ status: z.literal('ready') })

export async function healthRoutes(
  app: FastifyInstance,
  { database, leadership }: { database?: Database; leadership?: Leadership },
) {
  // A balancer checks every instance every few seconds: these requests are logged only from warnings up,
  // not at info, where they would bury every other line.
  const quiet = { logLevel: 'warn' } as const
  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['health']
  // With a token, which instance runs its index: `leader`, or `standby` (ready to take over).
  const health = { summary: 'Liveness', tags, response: { 200: healthSchema, ...errorAnswers } }
  api.get('/api/health', { ...quiet, schema: health }, async () =>
    leadership ? { status: 'ok' as const, tokenIndex: leadership.role } : { status: 'ok' as const },
  )
  // Ready = able to serve: the database answers.
  const ready = {
    summary: 'Readiness: the database answers (503 if not)',
    tags,
    response: { 200: readySchema, ...errorAnswers },
  }
  api.get('/api/ready', { ...quiet, schema: ready }, async () => {
    if (database && !(await database.ping()))
      throw ApiError.databaseUnavailable('The database does not answer.')
    return { status: 'ready' as const }
  })
}
