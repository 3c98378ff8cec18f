import { voteMessageSchema } from '../governance/messages.ts'
import { GOVERNANCE_LIMITS } from '../governance/rules.ts'
import { bytes32Schema, checksummedAddressSchema, decimalStringSchema } from '../primitives.ts'
import { z } from '../zod.ts'
import { ADDRESS_START_PATTERN, cursorParamSchema, cursorSchema, pageLimit } from './lists.ts'

export const VOTE_LIST_ORDERS = ['power', 'time'] as const

/** GET /api/proposals/:id/votes?order=&choice=&voter=&cursor=&limit= : a proposal's counting votes, a page at a time. */
export const voteListQuerySchema = z.strictObject({
  order: z._default(z.enum(VOTE_LIST_ORDERS), 'power'),
  /** Only votes that picked this choice (1-based); ranked-choice: that rank it first. */
  choice: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(GOVERNANCE_LIMITS.choicesMax))),
  /** Only voters whose address starts with this (any case). */
  voter: z.optional(
    z.string().check(z.regex(ADDRESS_START_PATTERN, 'The voter search is the start of an address (0x…)')),
  ),
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(25, 100),
})
export type VoteListQuery = z.infer<typeof voteListQuerySchema>

const voteListItemSchema = z.strictObject({
  id: bytes32Schema,
  voter: checksummedAddressSchema,
  choices: z.array(z.int()),
  reason: z.string(),
  timestamp: z.int(),
  power: decimalStringSchema,
  /** The vote as signed: a ranking in order, the weights of a version 2 vote. */
  message: voteMessageSchema,
})
export type VoteListItem = z.infer<typeof voteListItemSchema>

/** GET /api/proposals/:id/votes */
export const voteListSchema = z.strictObject({
  votes: z.array(voteListItemSchema),
  next: z.nullable(cursorSchema),
})

/** POST /api/proposals/:id/votes → the vote's id, whether it is new and whether it counts. */
export const castVoteResponseSchema = z.strictObject({
  id: bytes32Schema,
  created: z.boolean(),
  counts: z.boolean(),
})
