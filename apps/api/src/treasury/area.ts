// The treasury's area (ADR 049): the DAO's Safe read live, and its index (kept by the leader, read by every
// instance) for the history and the charts.
import { HTTP_TIMEOUT_MS, rpcTransport } from '@guildhall/core'
import { createPublicClient, type PublicClient } from 'viem'
import type { NameProfiles } from '../names/profiles.ts'
import type { Area, AreaContext } from '../platform/area.ts'
import { treasuryRoutes } from './routes.ts'
import { safeStateReader } from './safe-state.ts'
import { type ExecutionProposals, TreasuryIndex } from './treasury-index.ts'

export function treasuryArea(
  { settings, database, logger }: AreaContext,
  {
    profiles,
    executionProposals,
  }: { profiles?: NameProfiles | undefined; executionProposals?: ExecutionProposals } = {},
): Area & { treasuryIndex: TreasuryIndex | undefined } {
  const { treasury } = settings
  const daoChain = settings.chains[0]
  const exportRateLimitPerMinute = settings.exportRateLimitPerMinute
  if (!treasury || !daoChain) {
    return {
      treasuryIndex: undefined,
      plugin: (app) =>
        treasuryRoutes(app, {
          treasury: null,
          treasuryIndex: undefined,
          readSummary: undefined,
          exportRateLimitPerMinute,
        }),
    }
  }
  const client = createPublicClient({
    transport: rpcTransport(daoChain.upstreamRpcUrl, { timeout: HTTP_TIMEOUT_MS }),
  }) as PublicClient
  const treasuryIndex = database
    ? new TreasuryIndex({
        db: database.db,
        client,
        chainId: daoChain.id,
        safe: treasury.safe,
        tokens: treasury.tokens,
        fromBlock: treasury.startBlock,
        confirmations: settings.tokenIndexConfirmations,
        nativeSymbol: daoChain.nativeCurrency.symbol,
        executionProposals,
        logger,
      })
    : undefined
  const readSummary = safeStateReader({
    db: database?.db,
    client,
    treasury,
    multicall3: daoChain.multicall3,
    nativeCurrency: daoChain.nativeCurrency,
    nameOf: profiles ? async (address) => (await profiles.lookup([address]))[0]?.name ?? null : undefined,
  })
  return {
    treasuryIndex,
    job: treasuryIndex,
    plugin: (app) => treasuryRoutes(app, { treasury, treasuryIndex, readSummary, exportRateLimitPerMinute }),
  }
}
