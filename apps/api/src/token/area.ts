// The governance token's area: its index (kept by the leader, read by every instance) and its figures.
import { HTTP_TIMEOUT_MS, rpcTransport } from '@guildhall/core'
import { type Address, createPublicClient, type PublicClient } from 'viem'
import type { Area, AreaContext } from '../platform/area.ts'
import { tokenRoutes } from './routes.ts'
import { TokenIndex } from './token-index.ts'

/**
 * The token index, when a token is configured: it follows the token's events into the database in the
 * background (on the leader) and answers holders and voting power locally. Without a database there is
 * nothing to keep it in; the routes then answer that there is no index.
 */
export function tokenArea({ settings, database, logger, observer }: AreaContext): Area & {
  tokenIndex: TokenIndex | undefined
  /** The DAO chain's client the index reads with (batched into multicalls), shared with governance. */
  client: PublicClient | undefined
} {
  const { token } = settings.publicConfig
  const daoChain = settings.chains[0]
  if (!token || !daoChain || !database) {
    return { tokenIndex: undefined, client: undefined, plugin: (app) => tokenRoutes(app, {}) }
  }
  const client = createPublicClient({
    transport: rpcTransport(daoChain.upstreamRpcUrl, { timeout: HTTP_TIMEOUT_MS }),
    batch: { multicall: true },
  }) as PublicClient
  const tokenIndex = new TokenIndex({
    db: database.db,
    client,
    chainId: daoChain.id,
    token: token.address as Address,
    fromBlock: settings.tokenDeployBlock,
    confirmations: settings.tokenIndexConfirmations,
    multicall3: daoChain.multicall3,
    logger,
    observer,
  })
  return { tokenIndex, client, job: tokenIndex, plugin: (app) => tokenRoutes(app, { tokenIndex }) }
}
