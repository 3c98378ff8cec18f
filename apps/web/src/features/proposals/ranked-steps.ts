// What each round of a ranked-choice count did, read from the published rounds alone (the tally's JSON):
// who was eliminated after it and, when several choices were tied at the bottom, which of core's tie
// rules decided (rankedRounds: fewer power in the previous round, then fewer first preferences, then all
// of them together).
import type { TallyJson } from '@guildhall/core'

/** One published round of a ranked-choice count (amounts as decimal strings, null once eliminated). */
export type RankedRoundJson = NonNullable<TallyJson['rounds']>[number]

/** Why the choices eliminated after a round were the ones. */
type EliminationRule =
  /** One choice had the least power. */
  | { rule: 'least' }
  /** Tied at the bottom; fewer power in the round before decided. */
  | { rule: 'previous-round'; tied: number[] }
  /** Tied at the bottom and in the round before (if any); fewer first preferences decided. */
  | { rule: 'first-preferences'; tied: number[] }
  /** Tied on every rule: all eliminated together. */
  | { rule: 'together'; tied: number[] }
  /** The published eliminations are not what the rules give from these figures (the recount says more). */
  | { rule: 'unexplained' }

export type RoundStep = {
  /** 1-based. */
  round: number
  eliminated: number[]
  /** Null in the last round (nothing eliminated). */
  why: EliminationRule | null
  /** Power that moved to each continuing choice in the next round (1-based choice → power). */
  moved: Map<number, bigint>
}

const power = (value: string | null | undefined) => (value == null ? null : BigInt(value))

/** The lowest-valued of `choices` (1-based) by `measure`: all of them on a tie. */
function lowest(choices: number[], measure: (choice: number) => bigint): number[] {
  let least: bigint | null = null
  for (const choice of choices) {
    const value = measure(choice)
    if (least === null || value < least) least = value
  }
  return choices.filter((choice) => measure(choice) === least)
}

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x) => b.includes(x))

/** Each round's eliminations, why, and where the eliminated choices' power went in the round after. */
export function roundSteps(rounds: readonly RankedRoundJson[]): RoundStep[] {
  const at = (round: RankedRoundJson | undefined) => (choice: number) =>
    power(round?.perChoice[choice - 1]) ?? 0n
  return rounds.map((round, index) => {
    const eliminated = [...round.eliminated].sort((a, b) => a - b)
    const next = rounds[index + 1]
    const moved = new Map<number, bigint>()
    next?.perChoice.forEach((value, choiceIndex) => {
      const now = power(value)
      const before = power(round.perChoice[choiceIndex])
      if (now !== null && before !== null && now > before) moved.set(choiceIndex + 1, now - before)
    })
    if (eliminated.length === 0) return { round: index + 1, eliminated, why: null, moved }
    const continuing = round.perChoice.flatMap((value, choiceIndex) =>
      value === null ? [] : [choiceIndex + 1],
    )
    const tied = lowest(continuing, at(round))
    let expected = tied
    let why: EliminationRule = { rule: 'least' }
    if (tied.length > 1) {
      // Round 1 has no round before it: the first preferences decide there.
      const previous = rounds[index - 1]
      const byPrevious = previous ? lowest(tied, at(previous)) : tied
      if (byPrevious.length === 1) {
        expected = byPrevious
        why = { rule: 'previous-round', tied }
      } else {
        expected = lowest(byPrevious, at(rounds[0]))
        why = expected.length === 1 ? { rule: 'first-preferences', tied } : { rule: 'together', tied }
      }
    }
    if (!same(expected, eliminated)) why = { rule: 'unexplained' }
    return { round: index + 1, eliminated, why, moved }
  })
}
