// HTTP for the governance token, and the token index's lifecycle: it syncs while the server runs and leads.
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors.ts'
import type { Leadership } from '../indexer/leader.ts'
import type { TokenIndex } from '../indexer/token-index.ts'
import { holderCount } from '../services/token.ts'

export async function tokenRoutes(
  app: FastifyInstance,
  { tokenIndex, leadership }: { tokenIndex?: TokenIndex; leadership?: Leadership },
) {
  if (leadership) {
    app.addHook('onReady', async () => leadership.start())
    app.addHook('onClose', async () => leadership.stop())
  }

  app.get('/api/token/holders', async () => {
    if (!tokenIndex) throw new ApiError(404, 'no_token', 'No governance token is configured.')
    const stats = await holderCount(tokenIndex)
    return { holders: stats.holders, blockNumber: String(stats.blockNumber) }
  })
}
