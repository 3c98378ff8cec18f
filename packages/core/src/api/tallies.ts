import { decimalStringSchema } from '../primitives.ts'
import { OUTCOMES, type RankedRound, type Tally } from '../tally.ts'
import { z } from '../zod.ts'

/** A ranked-choice round as the API writes it (`RankedRound`, amounts as decimal strings, null = eliminated). */
const rankedRoundJsonSchema = z.strictObject({
  perChoice: z.array(z.nullable(decimalStringSchema)),
  continuing: decimalStringSchema,
  eliminated: z.array(z.int()),
})
export type RankedRoundJson = z.infer<typeof rankedRoundJsonSchema>

/** A tally as the API writes it: `Tally` with its amounts as decimal strings; `rounds` for ranked-choice only. */
export const tallyJsonSchema = z.strictObject({
  version: z.int(),
  perChoice: z.array(decimalStringSchema),
  voters: z.int(),
  votingPower: decimalStringSchema,
  quorumPower: decimalStringSchema,
  quorumReached: z.boolean(),
  outcome: z.enum(OUTCOMES),
  leading: z.array(z.int()),
  rounds: z.optional(z.array(rankedRoundJsonSchema)),
})
export type TallyJson = z.infer<typeof tallyJsonSchema>

const roundToJson = (round: RankedRound): RankedRoundJson => ({
  perChoice: round.perChoice.map((power) => (power === null ? null : String(power))),
  continuing: String(round.continuing),
  eliminated: [...round.eliminated],
})

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
  ...(tally.rounds && { rounds: tally.rounds.map(roundToJson) }),
})

const roundFromJson = (round: RankedRoundJson): RankedRound => ({
  perChoice: round.perChoice.map((power) => (power === null ? null : BigInt(power))),
  continuing: BigInt(round.continuing),
  eliminated: [...round.eliminated],
})

/** A tally read back from its JSON (a stored ranked result, a bundle's published tally). */
export const tallyFromJson = (json: TallyJson): Tally => ({
  version: json.version,
  perChoice: json.perChoice.map(BigInt),
  voters: json.voters,
  votingPower: BigInt(json.votingPower),
  quorumPower: BigInt(json.quorumPower),
  quorumReached: json.quorumReached,
  outcome: json.outcome,
  leading: [...json.leading],
  ...(json.rounds && { rounds: json.rounds.map(roundFromJson) }),
})
