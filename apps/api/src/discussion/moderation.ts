// Moderation (ADR 054): a moderator's signed hide, unhide, lock and unlock; members' flags, which hide a
// comment once enough members with power flagged it; the public log of every action.
import type {
  CommentJson,
  DiscussionPageQuery,
  FlagMessage,
  ModerationActionJson,
  ModerationActionList,
  ModerationMessage,
} from '@guildhall/core'
import type { FastifyRequest } from 'fastify'
import type { Hex } from 'viem'
import { ApiError } from '../platform/http/errors.ts'
import type { ModerationSettings } from '../settings/moderation.ts'
import type { DiscussionDeps } from './deps.ts'

const notYet = () => new ApiError(501, 'not_implemented', 'Not implemented yet.')

/** What moderation works with besides the discussion's services (MODERATORS, DISCUSSION_FLAGS_TO_HIDE). */
export interface ModerationDeps extends DiscussionDeps {
  moderation: ModerationSettings
}

export async function moderate(
  _deps: ModerationDeps,
  _request: FastifyRequest,
  _body: { message: ModerationMessage; signature: Hex },
): Promise<ModerationActionJson> {
  throw notYet()
}

export async function flagComment(
  _deps: ModerationDeps,
  _request: FastifyRequest,
  _body: { message: FlagMessage; signature: Hex },
): Promise<CommentJson> {
  throw notYet()
}

export async function listModeration(
  _deps: DiscussionDeps,
  _query: DiscussionPageQuery,
): Promise<ModerationActionList> {
  throw notYet()
}
