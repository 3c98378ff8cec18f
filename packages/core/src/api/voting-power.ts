import { checksummedAddressSchema, decimalStringSchema } from '../primitives.ts'
import { z } from '../zod.ts'

/** Why an address has no voting power at a block (the vote panel's explainer). */
const ZERO_POWER_CODES = [
  'no-tokens',
  'tokens-after-snapshot',
  'not-delegated',
  'delegated-to-other',
] as const
/** A zero voting power explained to the member in words; `delegate` names who votes with their tokens. */
const zeroPowerExplanationSchema = z.strictObject({
  code: z.enum(ZERO_POWER_CODES),
  message: z.string(),
  delegate: z.optional(checksummedAddressSchema),
})
export type ZeroPowerExplanation = z.infer<typeof zeroPowerExplanationSchema>

/** Where a voting power was read: the server's token index, or the chain above the indexed block. */
const ANSWER_SOURCES = ['index', 'chain'] as const
export type AnswerSource = (typeof ANSWER_SOURCES)[number]

/** GET /api/proposals/:id/power/:address */
export const votingPowerResponseSchema = z.strictObject({
  snapshot: z.int(),
  power: decimalStringSchema,
  source: z.enum(ANSWER_SOURCES),
  reason: z.nullable(zeroPowerExplanationSchema),
})
