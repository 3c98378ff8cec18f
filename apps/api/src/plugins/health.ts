// Liveness and readiness.
import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/client.ts'
import { ApiError } from '../errors.ts'

export async function healthRoutes(app: FastifyInstance, { database }: { database?: Database }) {
  app.get('/api/health', async () => ({ status: 'ok' }))
  // Ready = able to serve: the database answers.
  app.get('/api/ready', async () => {
    if (database && !(await database.ping()))
      throw ApiError.databaseUnavailable('The database does not answer.')
    return { status: 'ready' }
  })
}
