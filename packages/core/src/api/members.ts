import { bytes32Schema, checksummedAddressSchema, decimalStringSchema } from '../primitives.ts'
import { z } from '../zod.ts'
import {
  ADDRESS_START_PATTERN,
  cursorParamSchema,
  cursorSchema,
  NAME_START_PATTERN,
  pageLimit,
} from './lists.ts'
import { nameAnswerSchema } from './names.ts'
import { proposalSummarySchema } from './proposals.ts'
import { delegateStatementSchema } from './statements.ts'

export const MEMBER_SORTS = ['power', 'delegators', 'participation'] as const
export type MemberSort = (typeof MEMBER_SORTS)[number]

/** GET /api/members?sort=&q=&cursor=&limit= : the members directory, a page at a time. */
export const memberListQuerySchema = z.strictObject({
  sort: z._default(z.enum(MEMBER_SORTS), 'power'),
  /** The start of an address (0x…, ADDRESS_START_PATTERN) or of a name (NAME_START_PATTERN), any case. */
  q: z.optional(
    z.string().check(
      z.trim(),
      z.minLength(1, 'The search is empty'),
      z.maxLength(64, 'The search is at most 64 characters'),
      z.refine(
        (q) => ADDRESS_START_PATTERN.test(q) || NAME_START_PATTERN.test(q),
        'The search is the start of an address (0x…) or of a name, without spaces',
      ),
    ),
  ),
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(25, 100),
})
export type MemberListQuery = z.infer<typeof memberListQuerySchema>

const memberListItemSchema = z.strictObject({
  address: checksummedAddressSchema,
  /** Voting power at the indexed block. */
  votes: decimalStringSchema,
  /** votes / the total voting power, rounded to millionths (0 when nobody has any). */
  share: z.number().check(z.gte(0), z.lte(1)),
  /** Tokens held at the indexed block. */
  balance: decimalStringSchema,
  /** Whom the member delegates to; null: nobody. */
  delegate: z.nullable(checksummedAddressSchema),
  /** Other accounts holding tokens that delegate to the member. */
  delegators: z.int().check(z.gte(0)),
  /** Proposals the member voted on. */
  votesCast: z.int().check(z.gte(0)),
  /** Proposals the member could vote on (voting power at the snapshot). */
  eligibleProposals: z.int().check(z.gte(0)),
  /** votesCast / eligibleProposals (at most 1); null when there were none. */
  participation: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  /** Unix seconds of the member's latest vote; null: never voted. */
  lastVoteAt: z.nullable(z.int()),
})
export type MemberListItem = z.infer<typeof memberListItemSchema>

/** GET /api/members */
export const memberListSchema = z.strictObject({
  members: z.array(memberListItemSchema),
  /** Every delegate's votes added up at the indexed block. */
  totalVotes: decimalStringSchema,
  /** The block the figures stand at; null before the token index's first range. */
  blockNumber: z.nullable(z.int()),
  next: z.nullable(cursorSchema),
})
export type MemberList = z.infer<typeof memberListSchema>

/** GET /api/members/:address/votes, /proposals and /delegators: a page of a member's list. */
export const memberPageQuerySchema = z.strictObject({
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(25, 100),
})
export type MemberPageQuery = z.infer<typeof memberPageQuerySchema>

/** GET /api/members/:address: a member's figures (zeros for an address the directory does not list). */
export const memberProfileSchema = z.extend(memberListItemSchema, {
  /**
   * Whether the directory lists the member: they hold tokens, have voting power or delegators, or voted. An
   * account that only signed in, or holds nothing, is not listed (found only by its whole address).
   */
  listed: z.boolean(),
  /** Every delegate's votes added up at the indexed block. */
  totalVotes: decimalStringSchema,
  /** The block the figures stand at; null before the token index's first range. */
  blockNumber: z.nullable(z.int()),
  /** Name and avatar, as GET /api/names answers them. */
  profile: nameAnswerSchema,
  /**
   * Why the name's avatar record gives no image, in viem's words as the spec quotes them ("Unable to
   * resolve ENS avatar URI …", "ENS NFT avatar URI is invalid …"); null when it gives one or there is none.
   */
  avatarProblem: z.nullable(z.string()),
  /** The member's latest delegate statement; null: none. */
  statement: z.nullable(delegateStatementSchema),
})
export type MemberProfile = z.infer<typeof memberProfileSchema>

const memberVoteSchema = z.strictObject({
  /** The counting vote's id. */
  id: bytes32Schema,
  proposalId: bytes32Schema,
  proposalTitle: z.string(),
  /** The picked choices, 1-based, and their labels on the proposal. */
  choices: z.array(z.int()),
  choiceLabels: z.array(z.string()),
  power: decimalStringSchema,
  reason: z.string(),
  timestamp: z.int(),
})

/** GET /api/members/:address/votes: the member's counting votes, newest first. */
export const memberVoteListSchema = z.strictObject({
  votes: z.array(memberVoteSchema),
  next: z.nullable(cursorSchema),
})

/** GET /api/members/:address/proposals: the proposals the member wrote, latest start first. */
export const memberProposalListSchema = z.strictObject({
  proposals: z.array(proposalSummarySchema),
  next: z.nullable(cursorSchema),
  /** The server's clock (unix seconds). */
  now: z.int(),
})

/** GET /api/members/:address/delegators: accounts holding tokens that delegate to the member, most tokens first. */
export const memberDelegatorListSchema = z.strictObject({
  delegators: z.array(z.strictObject({ address: checksummedAddressSchema, balance: decimalStringSchema })),
  next: z.nullable(cursorSchema),
})

/** The most points GET /api/members/:address/power answers. */
const POWER_HISTORY_POINTS_MAX = 200

/** GET /api/members/:address/power?points= */
export const powerHistoryQuerySchema = z.strictObject({
  points: z._default(
    z.coerce.number().check(z.int(), z.gte(2), z.lte(POWER_HISTORY_POINTS_MAX)),
    POWER_HISTORY_POINTS_MAX,
  ),
})
export type PowerHistoryQuery = z.infer<typeof powerHistoryQuerySchema>

/**
 * GET /api/members/:address/power: the member's voting power after each block it changed in, oldest first,
 * with the block's time (unix seconds, as the token index stored it); with more changes than `points`, the
 * last of each of `points` equal spans of blocks.
 */
export const powerHistorySchema = z.strictObject({
  points: z.array(z.strictObject({ block: z.int(), votes: decimalStringSchema, time: z.int() })),
  /** Every change the index holds, before sampling. */
  changes: z.int().check(z.gte(0)),
  /** The block the index stands at (the series holds until it); null before its first range. */
  blockNumber: z.nullable(z.int()),
  /** That block's time (unix seconds); null before the first range, or just after a rewind. */
  blockTime: z.nullable(z.int()),
})
export type PowerHistory = z.infer<typeof powerHistorySchema>
