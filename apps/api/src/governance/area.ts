// The governance area: proposals, votes, results, the log, and the live stream of a proposal's tally.
import { governanceDomain } from '@guildhall/core'
import type { PublicClient } from 'viem'
import type { Area, AreaContext } from '../platform/area.ts'
import type { TokenIndex } from '../token/token-index.ts'
import type { GovernanceDeps } from './deps.ts'
import { eventRoutes } from './live/routes.ts'
import { ProposalReads } from './proposal-reads.ts'
import { governanceRoutes } from './routes.ts'
import { VoteWriter } from './vote-writer.ts'

/** Governance runs over the token index: without a token (or a database) there is none. */
export function governanceArea(
  { settings, database, now, observer, signatures }: AreaContext,
  token: { tokenIndex: TokenIndex | undefined; client: PublicClient | undefined },
): (Area & { deps: GovernanceDeps }) | undefined {
  const { token: tokenConfig, governance: rules } = settings.publicConfig
  const { tokenIndex, client } = token
  if (!tokenConfig || !database || !tokenIndex || !client) return undefined
  const deps: GovernanceDeps = {
    database,
    client,
    tokenIndex,
    domain: governanceDomain({ chainId: tokenConfig.chainId, token: tokenConfig.address }),
    rules,
    snapshotMaxAgeBlocks: settings.snapshotMaxAgeBlocks,
    categories: settings.publicConfig.proposalCategories,
    treasury: settings.treasury ? { safe: settings.treasury.safe } : null,
    now,
    reads: new ProposalReads(),
    observer,
    recover: signatures.recover,
    voteWriter: new VoteWriter(database, observer),
  }
  return {
    deps,
    plugin: async (app) => {
      // Every vote handed to the writer is answered before the database closes.
      app.addHook('onClose', () => deps.voteWriter?.close())
      await app.register(governanceRoutes, {
        deps,
        writeRateLimitPerMinute: settings.governanceRateLimitPerMinute,
        exportRateLimitPerMinute: settings.exportRateLimitPerMinute,
        powerRateLimitPerMinute: settings.powerRateLimitPerMinute,
      })
      await app.register(eventRoutes, { deps, caps: settings.live })
    },
  }
}
