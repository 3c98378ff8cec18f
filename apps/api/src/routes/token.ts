// HTTP for the governance token, and the token index's lifecycle: it syncs while the server runs.
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors.ts'
import type { TokenIndex } from '../indexer/token-index.ts'
import { holderCount } from '../services/token.ts'

export async function tokenRoutes(app: FastifyInstance, { tokenIndex }: { tokenIndex?: TokenIndex }) {
  if (tokenIndex) {
    app.addHook('onReady', async () => tokenIndex.start())
    app.addHook('onClose', async () => tokenIndex.stop())
  }

  app.get('/api/token/holders', async () => {
    if (!tokenIndex) throw new ApiError(404, 'no_token', 'No governance token is configured.')
    const stats = await holderCount(tokenIndex)
    return { holders: stats.holders, blockNumber: String(stats.blockNumber) }
  })
}
