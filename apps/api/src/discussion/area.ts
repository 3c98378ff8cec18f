// The discussion area (ADR 053): discussion keys, topics, threads with their comments, edits, reactions and
// vote cards, visits, bundles. Over governance (the log, the signature check, voting power) and sign-in.
import type { GovernanceDeps } from '../governance/deps.ts'
import type { Area, AreaContext } from '../platform/area.ts'
import type { DiscussionDeps } from './deps.ts'
import { moderationRoutes } from './moderation-routes.ts'
import { discussionRoutes } from './routes.ts'

/** Threads need governance (the log, proposals) and sign-in (every write is a signed-in member's). */
export function discussionArea(
  { settings }: AreaContext,
  { governance, signedIn }: { governance: GovernanceDeps; signedIn: DiscussionDeps['signedIn'] },
): Area {
  const deps: DiscussionDeps = {
    governance,
    categories: settings.discussion.categories,
    posters: settings.discussion.posters,
    moderators: settings.moderation.moderators,
    flagsToHide: settings.moderation.flagsToHide,
    signedIn,
  }
  return {
    plugin: async (app) => {
      const rateLimitPerMinute = settings.discussion.rateLimitPerMinute
      await discussionRoutes(app, {
        deps,
        rateLimitPerMinute,
        exportRateLimitPerMinute: settings.exportRateLimitPerMinute,
      })
      await moderationRoutes(app, {
        deps,
        rateLimitPerMinute,
      })
    },
  }
}
