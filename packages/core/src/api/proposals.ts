import { proposalMessageSchema } from '../governance/messages.ts'
import { PROPOSAL_KINDS } from '../governance/rules.ts'
import { bytes32Schema, checksummedAddressSchema, decimalStringSchema, hexSchema } from '../primitives.ts'
import { OUTCOMES, PROPOSAL_STATES } from '../tally.ts'
import { proposalActionSchema } from '../treasury/actions.ts'
import { z } from '../zod.ts'
import { cursorParamSchema, cursorSchema, pageLimit } from './lists.ts'
import { tallyJsonSchema } from './tallies.ts'

export const proposalSummarySchema = z.strictObject({
  id: bytes32Schema,
  author: checksummedAddressSchema,
  title: z.string(),
  kind: z.enum(PROPOSAL_KINDS),
  /** The signed category; '' for none (and for every version 1 proposal). */
  category: z.string(),
  start: z.int(),
  end: z.int(),
  snapshot: z.int(),
  state: z.enum(PROPOSAL_STATES),
  /**
   * The result as the list shows it, read with the page: null only for a ranked-choice proposal whose rounds
   * were never settled yet (its page settles them).
   */
  result: z.nullable(
    z.strictObject({
      outcome: z.enum(OUTCOMES),
      leading: z.array(z.int()),
      quorumReached: z.boolean(),
      voters: z.int(),
    }),
  ),
})

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

/** An action as `decodeAction` reads it (ADR 048). */
const decodedActionSchema = z.strictObject({
  kind: z.enum(['erc20-transfer', 'erc20-approve', 'eth-transfer', 'safe-settings', 'call']),
  target: checksummedAddressSchema,
  value: decimalStringSchema,
  selector: z.nullable(hexSchema),
  functionName: z.nullable(z.string()),
  args: z.nullable(z.array(z.unknown())),
  token: z.nullable(
    z.strictObject({ address: checksummedAddressSchema, symbol: z.string(), decimals: z.int() }),
  ),
  counterparty: z.nullable(checksummedAddressSchema),
  amount: z.nullable(decimalStringSchema),
})

/** GET /api/proposals/:id: the summary with the whole result (`tally`) in place of its summary. */
export const proposalDetailSchema = z.extend(z.omit(proposalSummarySchema, { result: true }), {
  /** The signed actions (none for version 1), each with how it reads. */
  actions: z.array(z.extend(proposalActionSchema, { decoded: decodedActionSchema })),
  /** Signed: whether the actions may change the treasury Safe's own settings. */
  changesSafeSettings: z.boolean(),
  /** What voters are warned of: settings changes, unlimited approvals (ADR 048). */
  actionWarnings: z.array(z.strictObject({ index: z.nullable(z.int()), message: z.string() })),
  message: proposalMessageSchema,
  signature: z.string(),
  tally: tallyJsonSchema,
  now: z.int(),
})
export type ProposalDetail = z.infer<typeof proposalDetailSchema>

/** POST /api/proposals → the proposal's id (201 created, 200 a replay). */
export const createProposalResponseSchema = z.strictObject({ id: bytes32Schema })
