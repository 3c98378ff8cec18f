// What the discussion services work with: governance's (the database, the chain client, the domain, the
// signature check), the settings of who may post, and the signed-in session of a request.

import type { DiscussionPosters } from '@guildhall/core'
import type { FastifyRequest } from 'fastify'
import type { Address } from 'viem'
import type { GovernanceDeps } from '../governance/deps.ts'

export interface DiscussionDeps {
  governance: GovernanceDeps
  categories: readonly string[]
  posters: DiscussionPosters
  /** The moderators the server names (MODERATORS, the moderation part's setting); none without it. */
  moderators: readonly Address[]
  /** How many flags from members with voting power or tokens hide a comment (DISCUSSION_FLAGS_TO_HIDE). */
  flagsToHide: number
  /** The signed-in address of a request's session cookie, or undefined. */
  signedIn: (request: FastifyRequest) => Promise<Address | undefined>
}
