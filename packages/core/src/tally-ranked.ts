/**
 * Ranked choice by instant runoff (ADR 058): every round each ballot counts for its highest continuing
 * choice with the voter's full power, until one choice holds more than half of the power counted.
 */

/** One round of a ranked-choice count. */
export type RankedRound = {
  /** Power per choice this round, index 0 = choice 1; null once the choice was eliminated in an earlier round. */
  perChoice: (bigint | null)[]
  /** The power of the ballots counted this round (every ballot, as each ranks every choice). */
  continuing: bigint
  /** The choices eliminated after this round, ascending; empty in the last round. */
  eliminated: number[]
}

export type RankedBallot = { ranking: readonly number[]; power: bigint }
export type RankedResult = { rounds: RankedRound[]; winners: number[] }

/**
 * Every round of the count and its winners (several on an exact final tie; none when no ballot has power).
 * A round ends the count when one choice has more than half of the continuing power, when one choice is
 * left, or when every continuing choice has the same power (they all win: a tie). Otherwise the choices
 * with the least power are eliminated; a tie among them is broken, never by choice order, by the least
 * power in the previous round, then the fewest first preferences, and any still tied go out together.
 * Equal rankings are counted as one (their powers summed), so the rounds cost the distinct rankings.
 */
export function rankedRounds(choiceCount: number, ballots: Iterable<RankedBallot>): RankedResult {
  const groups = aggregate(ballots)
  const continuing = Array.from({ length: choiceCount }, () => true)
  const rounds: RankedRound[] = []
  for (;;) {
    const perChoice: bigint[] = Array.from({ length: choiceCount }, () => 0n)
    let counted = 0n
    for (const group of groups) {
      // Each group's pointer only moves forward: its choices before it are all eliminated.
      while (group.at < group.ranking.length && !continuing[(group.ranking[group.at] ?? 0) - 1]) group.at++
      const choice = group.ranking[group.at]
      if (choice === undefined) continue
      perChoice[choice - 1] = (perChoice[choice - 1] ?? 0n) + group.power
      counted += group.power
    }
    const round: RankedRound = {
      perChoice: perChoice.map((power, index) => (continuing[index] ? power : null)),
      continuing: counted,
      eliminated: [],
    }
    rounds.push(round)
    const alive = continuing.flatMap((on, index) => (on ? [index + 1] : []))
    const powerOf = (choice: number) => perChoice[choice - 1] ?? 0n
    if (counted === 0n) return { rounds, winners: [] }
    const majority = alive.find((choice) => powerOf(choice) * 2n > counted)
    if (majority !== undefined) return { rounds, winners: [majority] }
    if (alive.length === 1) return { rounds, winners: alive }
    if (fewest(alive, powerOf).length === alive.length) return { rounds, winners: alive }
    round.eliminated = rankedElimination(rounds, rounds.length - 1).eliminated
    for (const choice of round.eliminated) continuing[choice - 1] = false
  }
}

/**
 * Which tie rule chose the choices eliminated after a round: `least` (one choice had the least power),
 * `previous-round` (tied at the bottom, fewer power in the round before), `first-preferences` (tied there
 * too, or in round 1: fewer first preferences), `together` (tied on every rule: all go).
 */
export type EliminationRule = 'least' | 'previous-round' | 'first-preferences' | 'together'

/**
 * The choices the rules eliminate after `rounds[index]` (ascending), the rule that decided and the choices
 * tied at the bottom, from the rounds' figures alone: the count itself uses it, and a page explaining
 * published rounds asks it again instead of restating the rules. Call it on a round that ends no count
 * (no majority, more than one choice continuing, not all tied).
 */
export function rankedElimination(
  rounds: readonly Pick<RankedRound, 'perChoice'>[],
  index: number,
): { eliminated: number[]; rule: EliminationRule; tied: number[] } {
  const powerIn = (round: Pick<RankedRound, 'perChoice'> | undefined) => (choice: number) =>
    round?.perChoice[choice - 1] ?? 0n
  const current = rounds[index]?.perChoice ?? []
  const alive = current.flatMap((power, at) => (power === null ? [] : [at + 1]))
  const tied = fewest(alive, powerIn(rounds[index]))
  if (tied.length === 1) return { eliminated: tied, rule: 'least', tied }
  const previous = index > 0 ? fewest(tied, powerIn(rounds[index - 1])) : tied
  if (previous.length === 1) return { eliminated: previous, rule: 'previous-round', tied }
  const first = fewest(previous, powerIn(rounds[0]))
  return { eliminated: first, rule: first.length === 1 ? 'first-preferences' : 'together', tied }
}

/** The choices among `choices` with the least `power`. */
function fewest(choices: number[], power: (choice: number) => bigint): number[] {
  let least: bigint | undefined
  for (const choice of choices) if (least === undefined || power(choice) < least) least = power(choice)
  return choices.filter((choice) => power(choice) === least)
}

type Group = { ranking: readonly number[]; power: bigint; at: number }

function aggregate(ballots: Iterable<RankedBallot>): Group[] {
  const byRanking = new Map<string, Group>()
  for (const { ranking, power } of ballots) {
    if (power === 0n) continue
    const key = ranking.join(',')
    const group = byRanking.get(key)
    if (group) group.power += power
    else byRanking.set(key, { ranking, power, at: 0 })
  }
  return [...byRanking.values()]
}
