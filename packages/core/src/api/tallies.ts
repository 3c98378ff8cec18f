import { decimalStringSchema } from '../primitives.ts'
import { OUTCOMES, type Tally } from '../tally.ts'
import { z } from '../zod.ts'

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
