/**
 * The HTTP answers of the API (apps/api/src/routes), one schema each, validated by the web app, the tests
 * and the bench. Sign-in's answers live with the rest of its contract in auth.ts, the result bundle with
 * the recount that reads it (recount.ts). Whole numbers that may exceed a JavaScript number are decimal
 * strings (JSON has no bigint).
 */
import { PROPOSAL_KINDS, proposalMessageSchema } from './governance/messages.ts'
import { bytes32Schema, checksummedAddressSchema, decimalStringSchema } from './primitives.ts'
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

/** GET /api/proposals */
export const proposalListSchema = z.strictObject({
  proposals: z.array(proposalSummarySchema),
  /** The server's clock (unix seconds), so pages show times relative to it. */
  now: z.int(),
})

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
  votes: z.array(
    z.strictObject({
      id: bytes32Schema,
      voter: checksummedAddressSchema,
      choices: z.array(z.int()),
      reason: z.string(),
      timestamp: z.int(),
      power: decimalStringSchema,
    }),
  ),
  now: z.int(),
})
export type ProposalDetail = z.infer<typeof proposalDetailSchema>

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
