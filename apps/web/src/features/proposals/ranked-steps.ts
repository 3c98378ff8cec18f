// What each round of a ranked-choice count did, read from the published rounds alone (the tally's JSON):
// who was eliminated after it and, when several choices were tied at the bottom, which of core's tie
// rules decided (rankedElimination, the one the count itself uses).
import {
  type EliminationRule as CoreEliminationRule,
  rankedElimination,
  type TallyJson,
} from '@guildhall/core'

/** One published round of a ranked-choice count (amounts as decimal strings, null once eliminated). */
export type RankedRoundJson = NonNullable<TallyJson['rounds']>[number]

/** Why the choices eliminated after a round were the ones: core's rule, or none the rules give. */
type EliminationRule =
  | { rule: Exclude<CoreEliminationRule, 'least'>; tied: number[] }
  | { rule: 'least' }
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

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x) => b.includes(x))

/** Each round's eliminations, why, and where the eliminated choices' power went in the round after. */
export function roundSteps(rounds: readonly RankedRoundJson[]): RoundStep[] {
  const figures = rounds.map((round) => ({ perChoice: round.perChoice.map(power) }))
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
    // The rules as the count applies them (core's rankedElimination), asked of the published figures.
    const expected = rankedElimination(figures, index)
    const why: EliminationRule = !same(expected.eliminated, eliminated)
      ? { rule: 'unexplained' }
      : expected.rule === 'least'
        ? { rule: 'least' }
        : { rule: expected.rule, tied: expected.tied }
    return { round: index + 1, eliminated, why, moved }
  })
}
