// The names area: ENS names and avatars of members, kept in a table the leader's refresher resolves.
import type { PublicClient } from 'viem'
import type { Area, AreaContext } from '../platform/area.ts'
import type { Settings } from '../settings/env.ts'
import { NameRefresher, nameLookupClient } from './name-refresher.ts'
import { NameProfiles } from './profiles.ts'
import { nameRoutes } from './routes.ts'

/**
 * Names and avatars: the table's answers for readers (every instance), and, with ENS_RPC_URL, the refresher
 * that resolves its queue (the leader's). Without a database there is nothing to keep them in.
 */
export function namesArea({ settings, database, now, logger }: AreaContext): Area & {
  profiles: NameProfiles | undefined
} {
  const { nameService } = settings
  let profiles: NameProfiles | undefined
  let refresher: NameRefresher | undefined
  if (database) {
    const gateways = nameService && {
      ipfs: nameService.ipfsGateways,
      arweave: nameService.arweaveGateways,
    }
    refresher =
      (nameService &&
        gateways &&
        new NameRefresher({
          db: database.db,
          client: nameLookupClient(nameService.rpcUrl),
          gateways,
          now,
          logger,
        })) ||
      undefined
    profiles = new NameProfiles({ db: database.db, now, gateways, onQueued: () => refresher?.wake() })
  }
  return {
    profiles,
    job: refresher,
    plugin: (app) =>
      nameRoutes(app, {
        profiles,
        rateLimitPerMinute: settings.namesRateLimitPerMinute,
        ensClient: nameResolutionClient(settings),
        resolveRateLimitPerMinute: settings.nameResolveRateLimitPerMinute,
      }),
  }
}

/** The ENS client that resolves names to addresses on any instance, at a reader's request; none when names are off. */
function nameResolutionClient(settings: Settings): PublicClient | undefined {
  return settings.nameService ? nameLookupClient(settings.nameService.rpcUrl) : undefined
}
