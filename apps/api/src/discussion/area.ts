// The discussion area (ADR 053): discussion keys, topics, threads with their comments, edits, reactions and
// vote cards, visits, bundles. Over governance (the log, the signature check, voting power) and sign-in.
import type { GovernanceDeps } from '../governance/deps.ts'
import type { Area, AreaContext } from '../platform/area.ts'
import type { DiscussionDeps } from './deps.ts'
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
    moderators: [],
    signedIn,
  }
  return {
    plugin: (app) =>
      discussionRoutes(app, {
        deps,
        rateLimitPerMinute: settings.discussion.rateLimitPerMinute,
        exportRateLimitPerMinute: settings.exportRateLimitPerMinute,
      }),
  }
}
