// Properties of the newer kinds' counting (ADR 058), over random ballots of every kind.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { kindTakesWeights, PROPOSAL_KINDS, type ProposalKind } from './governance/rules.ts'
import {
  addToTotals,
  type CountedVote,
  emptyTallyTotals,
  quadraticPower,
  rankedRounds,
  settleTally,
  type TallyRules,
  tally,
  voteContribution,
  weightedAllocation,
} from './tally.ts'

const powerArbitrary = fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 10n ** 27n }))
const weightsArbitrary = (length: number) =>
  fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: length, maxLength: length })

/** A valid ballot of `kind` on `choiceCount` choices (basic: 3). */
function ballotArbitrary(kind: ProposalKind, choiceCount: number): fc.Arbitrary<CountedVote> {
  const choice = fc.integer({ min: 1, max: choiceCount })
  const some = fc.uniqueArray(choice, { minLength: 1, maxLength: choiceCount })
  switch (kind) {
    case 'basic':
    case 'single-choice':
      return fc.record({ choices: choice.map((c) => [c]), power: powerArbitrary })
    case 'approval':
      return fc.record({ choices: some, power: powerArbitrary })
    case 'ranked-choice':
      return fc.record({
        choices: fc.shuffledSubarray(
          Array.from({ length: choiceCount }, (_, i) => i + 1),
          { minLength: choiceCount, maxLength: choiceCount },
        ),
        power: powerArbitrary,
      })
    default:
      return some.chain((choices) =>
        fc.record({
          choices: fc.constant(choices),
          weights: weightsArbitrary(choices.length),
          power: powerArbitrary,
        }),
      )
  }
}

/** Rules of any kind, and ballots for them. */
const caseArbitrary = fc
  .record({
    kind: fc.constantFrom(...PROPOSAL_KINDS),
    count: fc.integer({ min: 2, max: 6 }),
    quorum: fc.bigInt({ min: 0n, max: 2_000n }),
  })
  .chain(({ kind, count, quorum }) => {
    const choiceCount = kind === 'basic' ? 3 : count
    const rules: TallyRules = { kind, choiceCount, quorum, abstainCountsToQuorum: false }
    return fc.record({
      rules: fc.constant(rules),
      ballots: fc.array(ballotArbitrary(kind, choiceCount), { maxLength: 30 }),
      other: ballotArbitrary(kind, choiceCount),
    })
  })

/** The result from totals moved vote by vote, as the server keeps them (ranked: rounds from the ballots). */
function settleMoved(rules: TallyRules, totals: ReturnType<typeof emptyTallyTotals>, finals: CountedVote[]) {
  return settleTally(
    rules,
    totals,
    rules.kind === 'ranked-choice'
      ? rankedRounds(
          rules.choiceCount,
          finals.map((vote) => ({ ranking: vote.choices, power: vote.power })),
        )
      : undefined,
  )
}

describe('tally properties: the newer kinds', () => {
  test('property: a weighted allocation sums to the power, each part within one unit of its exact share', () => {
    fc.assert(
      fc.property(
        powerArbitrary,
        fc.integer({ min: 1, max: 20 }).chain(weightsArbitrary),
        (power, weights) => {
          const parts = weightedAllocation(power, weights)
          expect(parts.reduce((sum, part) => sum + part, 0n)).toBe(power)
          const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n)
          parts.forEach((part, index) => {
            const exact = power * BigInt(weights[index] ?? 0)
            // part·Σw is within Σw of power·w: less than one unit off.
            const gap = part * total - exact
            expect(gap > -total && gap < total).toBe(true)
          })
        },
      ),
    )
  })

  test('property: quadratic power shown sums to the voting power; no other choice shows more than a leader, and tied leaders differ by at most the one unit the rescale gives the lower choice number', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((count) =>
            fc
              .array(ballotArbitrary('quadratic', count), { maxLength: 30 })
              .map((ballots) => ({ count, ballots })),
          ),
        ({ count, ballots }) => {
          const result = tally(
            { kind: 'quadratic', choiceCount: count, quorum: 0n, abstainCountsToQuorum: false },
            ballots,
          )
          expect(result.perChoice.reduce((sum, power) => sum + power, 0n)).toBe(result.votingPower)
          const shownOf = (choice: number) => result.perChoice[choice - 1] ?? 0n
          const others = result.perChoice.filter((_, index) => !result.leading.includes(index + 1))
          for (const leader of result.leading) {
            expect(others.every((power) => power <= shownOf(leader))).toBe(true)
            for (const tied of result.leading) expect(shownOf(tied) - shownOf(leader) <= 1n).toBe(true)
          }
        },
      ),
    )
    expect(quadraticPower([0n, 0n], 0n)).toEqual([0n, 0n])
    // The case fast-check found: equal roots tie, and 3 units cannot split evenly.
    const tied = tally({ kind: 'quadratic', choiceCount: 2, quorum: 0n, abstainCountsToQuorum: false }, [
      { choices: [1, 2], weights: [5, 5], power: 3n },
    ])
    expect({ leading: tied.leading, perChoice: tied.perChoice, outcome: tied.outcome }).toEqual({
      leading: [1, 2],
      perChoice: [2n, 1n],
      outcome: 'tie',
    })
  })

  test("property: the order ballots arrive in never changes any kind's result", () => {
    fc.assert(
      fc.property(caseArbitrary, fc.func(fc.integer()), ({ rules, ballots }, key) => {
        const shuffled = ballots
          .map((ballot, index) => ({ ballot, at: key(index) }))
          .sort((a, b) => a.at - b.at)
          .map(({ ballot }) => ballot)
        expect(tally(rules, shuffled)).toEqual(tally(rules, ballots))
      }),
    )
  })

  test('property: a re-vote (its old ballot taken off, the new one added) gives the recount of the final ballots, for every kind', () => {
    fc.assert(
      fc.property(caseArbitrary, fc.nat(), ({ rules, ballots, other }, pick) => {
        fc.pre(ballots.length > 0)
        const replaced = pick % ballots.length
        const old = ballots[replaced] as CountedVote
        const successor = { ...other, power: old.power }
        const finals = ballots.map((ballot, index) => (index === replaced ? successor : ballot))
        let totals = emptyTallyTotals(rules.choiceCount)
        for (const ballot of ballots) totals = addToTotals(totals, voteContribution(rules, ballot))
        totals = addToTotals(totals, voteContribution(rules, old), -1)
        totals = addToTotals(totals, voteContribution(rules, successor))
        expect(settleMoved(rules, totals, finals)).toEqual(tally(rules, finals))
      }),
    )
  })

  test('property: rankedRounds gives the same rounds for equal rankings aggregated or one by one, and each round counts every ballot', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((count) =>
            fc
              .array(ballotArbitrary('ranked-choice', count), { maxLength: 40 })
              .map((ballots) => ({ count, ballots })),
          ),
        ({ count, ballots }) => {
          const units = ballots.map((ballot) => ({ ranking: ballot.choices, power: ballot.power }))
          const byRanking = new Map<string, { ranking: readonly number[]; power: bigint }>()
          for (const { ranking, power } of units) {
            const key = ranking.join()
            byRanking.set(key, { ranking, power: (byRanking.get(key)?.power ?? 0n) + power })
          }
          const aggregated = rankedRounds(count, [...byRanking.values()].reverse())
          const result = rankedRounds(count, units)
          expect(aggregated).toEqual(result)
          const total = units.reduce((sum, { power }) => sum + power, 0n)
          for (const round of result.rounds) {
            expect(round.continuing).toBe(total)
            expect(round.perChoice.reduce<bigint>((sum, power) => sum + (power ?? 0n), 0n)).toBe(total)
          }
          // A winner alone holds a majority, or every continuing choice is tied.
          const last = result.rounds.at(-1)?.perChoice ?? []
          if (result.winners.length === 1 && total > 0n) {
            const alive = last.filter((power) => power !== null)
            const winner = last[(result.winners[0] ?? 1) - 1] ?? 0n
            expect(winner * 2n > total || alive.length === 1).toBe(true)
          }
          for (const winner of result.winners)
            expect(last[winner - 1]).toBe(last[(result.winners[0] ?? 1) - 1])
        },
      ),
    )
  })

  test('property: weights are read only by the kinds that take them', () => {
    fc.assert(
      fc.property(caseArbitrary, ({ rules, ballots }) => {
        fc.pre(!kindTakesWeights(rules.kind))
        const withWeights = ballots.map((ballot) => ({ ...ballot, weights: ballot.choices.map(() => 7) }))
        expect(tally(rules, withWeights)).toEqual(tally(rules, ballots))
      }),
    )
  })
})
