// Liveness and readiness.
import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/client.ts'
import type { Leadership } from '../jobs/leader.ts'
import { ApiError } from './errors.ts'

export async function healthRoutes(
  app: FastifyInstance,
  { database, leadership }: { database?: Database; leadership?: Leadership },
) {
  // A balancer checks every instance every few seconds: these requests are logged only from warnings up,
  // not at info, where they would bury every other line.
  const quiet = { logLevel: 'warn' } as const
  // With a token, which instance runs its index: `leader`, or `standby` (ready to take over).
  app.get('/api/health', quiet, async () =>
    leadership ? { status: 'ok', tokenIndex: leadership.role } : { status: 'ok' },
  )
  // Ready = able to serve: the database answers.
  app.get('/api/ready', quiet, async () => {
    if (database && !(await database.ping()))
      throw ApiError.databaseUnavailable('The database does not answer.')
    return { status: 'ready' }
  })
}
