// What the discussion services work with: governance's (the database, the chain client, the domain, the
// signature check), the settings of who may post, and the signed-in session of a request.
import type { FastifyRequest } from 'fastify'
import type { Address } from 'viem'
import type { GovernanceDeps } from '../governance/deps.ts'
import type { DiscussionPosters } from '../settings/discussion.ts'

export interface DiscussionDeps {
  governance: GovernanceDeps
  categories: readonly string[]
  posters: DiscussionPosters
  /** The signed-in address of a request's session cookie, or undefined. */
  signedIn: (request: FastifyRequest) => Promise<Address | undefined>
}
