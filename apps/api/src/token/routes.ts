// HTTP for the governance token (the index itself runs on the leader: app.ts, deps.ts).
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../platform/http/errors.ts'
import { holderCount } from './holders.ts'
import type { TokenIndex } from './token-index.ts'

export async function tokenRoutes(app: FastifyInstance, { tokenIndex }: { tokenIndex?: TokenIndex }) {
  app.get('/api/token/holders', async () => {
    if (!tokenIndex) throw new ApiError(404, 'no_token', 'No governance token is configured.')
    const stats = await holderCount(tokenIndex)
    return { holders: stats.holders, blockNumber: String(stats.blockNumber) }
  })
}
