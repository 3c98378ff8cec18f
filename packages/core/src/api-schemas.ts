/**
 * The HTTP answers of the API (apps/api/src/routes), one schema each, validated by the web app, the tests
 * and the bench. Sign-in's answers live with the rest of its contract in auth.ts, the result bundle with
 * the recount that reads it (recount.ts). Whole numbers that may exceed a JavaScript number are decimal
 * strings (JSON has no bigint).
 */
import {
  delegateStatementMessageSchema,
  PROPOSAL_KINDS,
  proposalMessageSchema,
} from './governance/messages.ts'
import { GOVERNANCE_LIMITS } from './governance/rules.ts'
import {
  bytes32Schema,
  checksummedAddressSchema,
  decimalStringSchema,
  signatureSchema,
} from './primitives.ts'
import { OUTCOMES, PROPOSAL_STATES, type Tally } from './tally.ts'
import { z } from './zod.ts'

/** The error envelope every API error uses. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() })
export type ApiErrorEnvelope = z.infer<typeof apiErrorSchema>

/** GET /api/token/holders */
export const holderStatsSchema = z.strictObject({
  holders: z.int().check(z.gte(0)),
  blockNumber: decimalStringSchema,
})
export type HolderStats = z.infer<typeof holderStatsSchema>

/** Most addresses one GET /api/names may ask about. */
export const NAMES_PER_REQUEST_MAX = 100

/** GET /api/names?addresses=0x…,0x… : up to 100 addresses, any case, comma-separated. */
export const nameListQuerySchema = z.strictObject({
  addresses: z.pipe(
    z.pipe(
      z.string(),
      z.transform((text: string) => text.split(',')),
    ),
    z
      .array(z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')))
      .check(
        z.minLength(1),
        z.maxLength(NAMES_PER_REQUEST_MAX, `at most ${NAMES_PER_REQUEST_MAX} addresses`),
      ),
  ),
})
export type NameListQuery = z.infer<typeof nameListQuerySchema>

export const nameAnswerSchema = z.strictObject({
  address: checksummedAddressSchema,
  /** The primary ENS name, forward-checked; null: none (show the shortened address). */
  name: z.nullable(z.string()),
  /** The avatar image on one of the server's gateways; null: none (show a generated avatar). */
  avatarUrl: z.nullable(z.string()),
  /** True while the address waits for its first lookup: ask again in a few seconds. */
  pending: z.boolean(),
})
export type NameAnswer = z.infer<typeof nameAnswerSchema>

/** GET /api/names: one answer per distinct address asked, in the order asked. */
export const nameListSchema = z.strictObject({ names: z.array(nameAnswerSchema) })
export type NameList = z.infer<typeof nameListSchema>

/** The longest name GET /api/names/resolve takes: DNS's limit, which ENS names meet in practice. */
export const ENS_NAME_MAX_LENGTH = 255

/** GET /api/names/resolve?name=ben.eth : one name, as typed (the server normalises it). */
export const nameResolveQuerySchema = z.strictObject({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a name, such as ben.eth'),
      z.maxLength(ENS_NAME_MAX_LENGTH, `A name is at most ${ENS_NAME_MAX_LENGTH} characters`),
    ),
})
export type NameResolveQuery = z.infer<typeof nameResolveQuerySchema>

/** GET /api/names/resolve: the name as ENS normalises it and the address its record names. */
export const resolvedNameSchema = z.strictObject({
  name: z.string(),
  address: checksummedAddressSchema,
})
export type ResolvedName = z.infer<typeof resolvedNameSchema>

export const proposalSummarySchema = z.strictObject({
  id: bytes32Schema,
  author: checksummedAddressSchema,
  title: z.string(),
  kind: z.enum(PROPOSAL_KINDS),
  start: z.int(),
  end: z.int(),
  snapshot: z.int(),
  state: z.enum(PROPOSAL_STATES),
})
export type ProposalSummary = z.infer<typeof proposalSummarySchema>

/** The longest page link the server writes. */
export const CURSOR_MAX_LENGTH = 200
/** A page link the server wrote (opaque to clients). */
const cursorSchema = z.string().check(z.minLength(1), z.maxLength(CURSOR_MAX_LENGTH))
/**
 * A page link as a client sends it back: any text here; the server decodes it and answers 400 `bad_cursor`
 * for anything it did not write, too long included, so every bad link gets the same answer.
 */
const cursorParamSchema = z.string()
const pageLimit = (fallback: number, max: number) =>
  z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(max)), fallback)

/** GET /api/proposals?state=&cursor=&limit= : latest start first; `state` is one state or several, comma-separated. */
export const proposalListQuerySchema = z.strictObject({
  state: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((text: string) => text.split(',')),
      ),
      z.array(z.enum(PROPOSAL_STATES)),
    ),
  ),
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(20, 100),
})
export type ProposalListQuery = z.infer<typeof proposalListQuerySchema>

/** GET /api/proposals */
export const proposalListSchema = z.strictObject({
  proposals: z.array(proposalSummarySchema),
  /** The next page's cursor; null on the last page. */
  next: z.nullable(cursorSchema),
  /** The server's clock (unix seconds), so pages show times relative to it. */
  now: z.int(),
})

/** The start of an address, as the votes list's and the directory's searches take it. */
export const ADDRESS_START_PATTERN = /^0x[0-9a-fA-F]{0,40}$/
/**
 * The start of a name, as the directory's search takes it: what an ENS name is made of (letters, marks and
 * digits of any script, emoji, `.`, `-`, `_`, `$`), never spaces, quotes or the search's own wildcards.
 */
export const NAME_START_PATTERN = /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Component}$._-]+$/u

export const VOTE_LIST_ORDERS = ['power', 'time'] as const

/** GET /api/proposals/:id/votes?order=&choice=&voter=&cursor=&limit= : a proposal's counting votes, a page at a time. */
export const voteListQuerySchema = z.strictObject({
  order: z._default(z.enum(VOTE_LIST_ORDERS), 'power'),
  /** Only votes that picked this choice (1-based). */
  choice: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(GOVERNANCE_LIMITS.choicesMax))),
  /** Only voters whose address starts with this (any case). */
  voter: z.optional(
    z.string().check(z.regex(ADDRESS_START_PATTERN, 'The voter search is the start of an address (0x…)')),
  ),
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(25, 100),
})
export type VoteListQuery = z.infer<typeof voteListQuerySchema>

export const voteListItemSchema = z.strictObject({
  id: bytes32Schema,
  voter: checksummedAddressSchema,
  choices: z.array(z.int()),
  reason: z.string(),
  timestamp: z.int(),
  power: decimalStringSchema,
})
export type VoteListItem = z.infer<typeof voteListItemSchema>

/** GET /api/proposals/:id/votes */
export const voteListSchema = z.strictObject({
  votes: z.array(voteListItemSchema),
  next: z.nullable(cursorSchema),
})
export type VoteList = z.infer<typeof voteListSchema>

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

export const memberListItemSchema = z.strictObject({
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

/** A tally as the API writes it: `Tally` with its amounts as decimal strings. */
export const tallyJsonSchema = z.strictObject({
  version: z.int(),
  perChoice: z.array(decimalStringSchema),
  voters: z.int(),
  votingPower: decimalStringSchema,
  quorumPower: decimalStringSchema,
  quorumReached: z.boolean(),
  outcome: z.enum(OUTCOMES),
  leading: z.array(z.int()),
})
export type TallyJson = z.infer<typeof tallyJsonSchema>

/** `tally` as the API writes it (tallyJsonSchema). */
export const tallyToJson = (tally: Tally): TallyJson => ({
  version: tally.version,
  perChoice: tally.perChoice.map(String),
  voters: tally.voters,
  votingPower: String(tally.votingPower),
  quorumPower: String(tally.quorumPower),
  quorumReached: tally.quorumReached,
  outcome: tally.outcome,
  leading: tally.leading,
})

/** GET /api/proposals/:id */
export const proposalDetailSchema = z.extend(proposalSummarySchema, {
  message: proposalMessageSchema,
  signature: z.string(),
  tally: tallyJsonSchema,
  now: z.int(),
})
export type ProposalDetail = z.infer<typeof proposalDetailSchema>

// The live events (GET /api/proposals/:id/events and GET /api/events, server-sent): each event's id is the
// seq of the governance log entry it stands at, so a client that reconnects resumes after it.
/** `tally` on a proposal's stream: its totals as of log entry `seq` (every vote up to it counted in). */
export const liveTallySchema = z.strictObject({
  proposalId: bytes32Schema,
  seq: z.int(),
  tally: tallyJsonSchema,
  /** The server's clock (unix seconds) when the totals were read. */
  now: z.int(),
})
export type LiveTally = z.infer<typeof liveTallySchema>
/** `proposal` on the list's stream: a proposal was created, logged as entry `seq`. */
export const liveProposalSchema = z.strictObject({ proposalId: bytes32Schema, seq: z.int() })
export type LiveProposal = z.infer<typeof liveProposalSchema>

/** Why an address has no voting power at a block (the vote panel's explainer). */
export const ZERO_POWER_CODES = [
  'no-tokens',
  'tokens-after-snapshot',
  'not-delegated',
  'delegated-to-other',
] as const
export type ZeroPowerCode = (typeof ZERO_POWER_CODES)[number]
/** A zero voting power explained to the member in words; `delegate` names who votes with their tokens. */
export const zeroPowerExplanationSchema = z.strictObject({
  code: z.enum(ZERO_POWER_CODES),
  message: z.string(),
  delegate: z.optional(checksummedAddressSchema),
})
export type ZeroPowerExplanation = z.infer<typeof zeroPowerExplanationSchema>

/** Where a voting power was read: the server's token index, or the chain above the indexed block. */
export const ANSWER_SOURCES = ['index', 'chain'] as const
export type AnswerSource = (typeof ANSWER_SOURCES)[number]

/** GET /api/proposals/:id/power/:address */
export const votingPowerResponseSchema = z.strictObject({
  snapshot: z.int(),
  power: decimalStringSchema,
  source: z.enum(ANSWER_SOURCES),
  reason: z.nullable(zeroPowerExplanationSchema),
})
export type VotingPowerResponse = z.infer<typeof votingPowerResponseSchema>

/** POST /api/proposals → the proposal's id (201 created, 200 a replay). */
export const createProposalResponseSchema = z.strictObject({ id: bytes32Schema })
/** POST /api/proposals/:id/votes → the vote's id, whether it is new and whether it counts. */
export const castVoteResponseSchema = z.strictObject({
  id: bytes32Schema,
  created: z.boolean(),
  counts: z.boolean(),
})

/** POST /api/delegates/:address/statement → the statement's id (201 stored, 200 a replay). */
export const publishStatementResponseSchema = z.strictObject({ id: bytes32Schema, created: z.boolean() })
/** GET /api/delegates/:address/statement: the delegate's latest statement as signed, and its log entry. */
export const delegateStatementSchema = z.strictObject({
  id: bytes32Schema,
  message: delegateStatementMessageSchema,
  signature: signatureSchema,
  seq: z.int(),
})
export type DelegateStatement = z.infer<typeof delegateStatementSchema>

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

export const memberVoteSchema = z.strictObject({
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
export type MemberVote = z.infer<typeof memberVoteSchema>

/** GET /api/members/:address/votes: the member's counting votes, newest first. */
export const memberVoteListSchema = z.strictObject({
  votes: z.array(memberVoteSchema),
  next: z.nullable(cursorSchema),
})
export type MemberVoteList = z.infer<typeof memberVoteListSchema>

/** GET /api/members/:address/proposals: the proposals the member wrote, latest start first. */
export const memberProposalListSchema = z.strictObject({
  proposals: z.array(proposalSummarySchema),
  next: z.nullable(cursorSchema),
  /** The server's clock (unix seconds). */
  now: z.int(),
})
export type MemberProposalList = z.infer<typeof memberProposalListSchema>

/** GET /api/members/:address/delegators: accounts holding tokens that delegate to the member, most tokens first. */
export const memberDelegatorListSchema = z.strictObject({
  delegators: z.array(z.strictObject({ address: checksummedAddressSchema, balance: decimalStringSchema })),
  next: z.nullable(cursorSchema),
})
export type MemberDelegatorList = z.infer<typeof memberDelegatorListSchema>

/** The most points GET /api/members/:address/power answers. */
export const POWER_HISTORY_POINTS_MAX = 200

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
