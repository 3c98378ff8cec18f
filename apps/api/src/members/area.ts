// The members area: the directory, a member's page, and delegates' statements.
import type { GovernanceDeps } from '../governance/deps.ts'
import type { NameProfiles } from '../names/profiles.ts'
import type { Area, AreaContext } from '../platform/area.ts'
import { memberRoutes } from './routes.ts'

/** Members are the token's holders and governance's voters: the area is there when governance is. */
export function membersArea(
  { settings }: AreaContext,
  { governance, profiles }: { governance: GovernanceDeps; profiles?: NameProfiles },
): Area {
  return {
    plugin: (app) =>
      memberRoutes(app, {
        deps: governance,
        tokenIndex: governance.tokenIndex,
        profiles,
        namesOn: settings.nameService !== null,
        writeRateLimitPerMinute: settings.governanceRateLimitPerMinute,
      }),
  }
}
