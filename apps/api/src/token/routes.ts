// HTTP for the governance token (the index itself runs on the leader: app.ts, deps.ts).
import { holderStatsSchema } from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { holderCount } from './holders.ts'
import type { TokenIndex } from './token-index.ts'

export async function tokenRoutes(app: FastifyInstance, { tokenIndex }: { tokenIndex?: TokenIndex }) {
  const schema = {
    summary: 'How many accounts hold the governance token, at the indexed block',
    tags: ['token'],
    response: { 200: holderStatsSchema, ...errorAnswers },
  }
  app.withTypeProvider<ApiTypeProvider>().get('/api/token/holders', { schema }, async () => {
    if (!tokenIndex) throw new ApiError(404, 'no_token', 'No governance token is configured.')
    const stats = await holderCount(tokenIndex)
    return { holders: stats.holders, blockNumber: String(stats.blockNumber) }
  })
}
