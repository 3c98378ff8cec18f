// Ranked choice, weighted and quadratic (ADR 058): each rule and each tie rule on ballots small enough to
// follow by hand.
import { describe, expect, test } from 'vitest'
import { tallyFromJson, tallyJsonSchema, tallyToJson } from './api/tallies.ts'
import {
  emptyTallyTotals,
  isqrt,
  quadraticRoots,
  rankedRounds,
  settleTally,
  TALLY_VERSION,
  type TallyRules,
  tally,
  voteContribution,
  weightedAllocation,
} from './tally.ts'

const rulesOf = (kind: TallyRules['kind'], choiceCount: number, quorum = 0n): TallyRules => ({
  kind,
  choiceCount,
  quorum,
  abstainCountsToQuorum: false,
})
const ballot = (power: bigint, ...ranking: number[]) => ({ ranking, power })
/** `count` ballots of one ranking, one unit each. */
const many = (count: number, ...ranking: number[]) =>
  Array.from({ length: count }, () => ballot(1n, ...ranking))

describe('rankedRounds', () => {
  test('boundary: no ballots → one round of zeros, no winners', () => {
    expect(rankedRounds(3, [])).toEqual({
      rounds: [{ perChoice: [0n, 0n, 0n], continuing: 0n, eliminated: [] }],
      winners: [],
    })
  })

  test('boundary: only zero-power ballots → one round of zeros, no winners', () => {
    expect(rankedRounds(2, [ballot(0n, 1, 2), ballot(0n, 2, 1)])).toEqual({
      rounds: [{ perChoice: [0n, 0n], continuing: 0n, eliminated: [] }],
      winners: [],
    })
  })

  test('behavior: one choice with more than half in round 1 wins in one round', () => {
    expect(rankedRounds(3, [ballot(51n, 2, 1, 3), ballot(30n, 1, 2, 3), ballot(19n, 3, 1, 2)])).toEqual({
      rounds: [{ perChoice: [30n, 51n, 19n], continuing: 100n, eliminated: [] }],
      winners: [2],
    })
  })

  test('boundary: exactly half is not a majority: the count goes on', () => {
    const { rounds, winners } = rankedRounds(3, [
      ballot(50n, 1, 2, 3),
      ballot(30n, 2, 1, 3),
      ballot(20n, 3, 2, 1),
    ])
    expect(rounds.map((round) => round.perChoice)).toEqual([
      [50n, 30n, 20n],
      [50n, 50n, null],
    ])
    expect(winners).toEqual([1, 2])
  })

  test('behavior: the lowest goes each round and its ballots move with full power to their next continuing choice', () => {
    // 3 goes first and its ballots lift 4 past 2; then 2 goes and its ballots give 1 the majority.
    const { rounds, winners } = rankedRounds(4, [
      ...many(8, 1, 2, 3, 4),
      ...many(6, 2, 1, 3, 4),
      ...many(4, 4, 3, 2, 1),
      ...many(3, 3, 4, 2, 1),
    ])
    expect(rounds).toEqual([
      { perChoice: [8n, 6n, 3n, 4n], continuing: 21n, eliminated: [3] },
      { perChoice: [8n, 6n, null, 7n], continuing: 21n, eliminated: [2] },
      { perChoice: [14n, null, null, 7n], continuing: 21n, eliminated: [] },
    ])
    expect(winners).toEqual([1])
  })

  test('behavior: a bottom tie is broken by less power in the previous round', () => {
    // rankedChoice.spec.js's vector: in round 2, 1 and 3 tie at 150; in round 1 1 had 100, 3 had 150.
    const { rounds, winners } = rankedRounds(4, [
      ballot(100n, 1, 2, 3, 4),
      ballot(200n, 2, 1, 3, 4),
      ballot(150n, 3, 1, 2, 4),
      ballot(50n, 4, 1, 2, 3),
    ])
    expect(rounds).toEqual([
      { perChoice: [100n, 200n, 150n, 50n], continuing: 500n, eliminated: [4] },
      { perChoice: [150n, 200n, 150n, null], continuing: 500n, eliminated: [1] },
      { perChoice: [null, 350n, 150n, null], continuing: 500n, eliminated: [] },
    ])
    expect(winners).toEqual([2])
  })

  test('behavior: tied in this round and the previous one, the tie is broken by fewer first preferences', () => {
    // 1 and 2 tie at 6 in round 3 and at 5 in round 2; on first preferences 2 had 4 and 1 had 5, so 2 goes
    // (choice order would have dropped 1).
    const { rounds, winners } = rankedRounds(5, [
      ...many(4, 2, 1, 5, 3, 4),
      ...many(5, 1, 2, 5, 3, 4),
      ...many(1, 3, 2, 1, 5, 4),
      ...many(1, 4, 2, 1, 5, 3),
      ...many(1, 4, 1, 2, 5, 3),
      ...many(10, 5, 1, 2, 3, 4),
    ])
    expect(rounds).toEqual([
      { perChoice: [5n, 4n, 1n, 2n, 10n], continuing: 22n, eliminated: [3] },
      { perChoice: [5n, 5n, null, 2n, 10n], continuing: 22n, eliminated: [4] },
      { perChoice: [6n, 6n, null, null, 10n], continuing: 22n, eliminated: [2] },
      { perChoice: [12n, null, null, null, 10n], continuing: 22n, eliminated: [] },
    ])
    expect(winners).toEqual([1])
  })

  test('behavior: still tied on first preferences, all the tied lowest are eliminated together', () => {
    const { rounds, winners } = rankedRounds(4, [
      ...many(5, 1, 2, 3, 4),
      ...many(4, 2, 1, 3, 4),
      ...many(1, 3, 2, 1, 4),
      ...many(1, 4, 2, 1, 3),
    ])
    expect(rounds).toEqual([
      { perChoice: [5n, 4n, 1n, 1n], continuing: 11n, eliminated: [3, 4] },
      { perChoice: [5n, 6n, null, null], continuing: 11n, eliminated: [] },
    ])
    expect(winners).toEqual([2])
  })

  test('behavior: every continuing choice tied → the last round, all of them winners (an exact tie)', () => {
    expect(rankedRounds(3, [ballot(7n, 1, 2, 3), ballot(7n, 2, 3, 1), ballot(7n, 3, 1, 2)])).toEqual({
      rounds: [{ perChoice: [7n, 7n, 7n], continuing: 21n, eliminated: [] }],
      winners: [1, 2, 3],
    })
  })

  test('behavior: a choice no one ranks first is eliminated first, with 0, and shown null afterwards', () => {
    const { rounds, winners } = rankedRounds(3, [
      ballot(4n, 1, 3, 2),
      ballot(3n, 2, 3, 1),
      ballot(2n, 1, 2, 3),
    ])
    expect(rounds[0]).toEqual({ perChoice: [6n, 3n, 0n], continuing: 9n, eliminated: [] })
    expect(winners).toEqual([1])
    const later = rankedRounds(3, [ballot(4n, 1, 3, 2), ballot(4n, 2, 3, 1)])
    expect(later).toEqual({
      rounds: [
        { perChoice: [4n, 4n, 0n], continuing: 8n, eliminated: [3] },
        { perChoice: [4n, 4n, null], continuing: 8n, eliminated: [] },
      ],
      winners: [1, 2],
    })
  })

  test('behavior: equal rankings are one group whatever their order of arrival or how the power is split', () => {
    const split = [ballot(3n, 1, 2, 3), ballot(2n, 2, 1, 3), ballot(4n, 1, 2, 3), ballot(2n, 3, 2, 1)]
    const joined = [ballot(7n, 1, 2, 3), ballot(2n, 2, 1, 3), ballot(2n, 3, 2, 1)]
    expect(rankedRounds(3, split)).toEqual(rankedRounds(3, joined))
  })
})

describe('tally: ranked-choice', () => {
  const ranked = rulesOf('ranked-choice', 3, 10n)

  test('behavior: perChoice shows round 1 (first preferences), leading is the winner, every round comes with it', () => {
    const result = tally(ranked, [
      { choices: [1, 2, 3], power: 4n },
      { choices: [2, 1, 3], power: 3n },
      { choices: [3, 2, 1], power: 3n },
    ])
    expect(result).toEqual({
      version: TALLY_VERSION,
      perChoice: [4n, 3n, 3n],
      voters: 3,
      votingPower: 10n,
      quorumPower: 10n,
      quorumReached: true,
      outcome: 'passed',
      leading: [1],
      rounds: [
        // 2 and 3 tie at the bottom with equal first preferences: both go, and 1 wins alone.
        { perChoice: [4n, 3n, 3n], continuing: 10n, eliminated: [2, 3] },
        { perChoice: [10n, null, null], continuing: 10n, eliminated: [] },
      ],
    })
  })

  test('behavior: the quorum is the power of every counted ballot; short of it → no-quorum, winners still shown', () => {
    const result = tally(rulesOf('ranked-choice', 2, 11n), [{ choices: [2, 1], power: 10n }])
    expect(result.quorumPower).toBe(10n)
    expect(result.outcome).toBe('no-quorum')
    expect(result.leading).toEqual([2])
  })

  test('behavior: zero-power ballots count as voters and move nothing; with no power at all nothing wins', () => {
    const result = tally(rulesOf('ranked-choice', 2, 0n), [
      { choices: [1, 2], power: 0n },
      { choices: [2, 1], power: 0n },
    ])
    expect(result.voters).toBe(2)
    expect(result.rounds).toEqual([{ perChoice: [0n, 0n], continuing: 0n, eliminated: [] }])
    expect(result.outcome).toBe('rejected')
    expect(result.leading).toEqual([])
  })

  test('behavior: an exact final tie → "tie" with every tied choice leading', () => {
    const result = tally(ranked, [
      { choices: [1, 2, 3], power: 5n },
      { choices: [2, 1, 3], power: 5n },
    ])
    expect(result.outcome).toBe('tie')
    expect(result.leading).toEqual([1, 2])
  })

  test('behavior: settleTally needs the rounds for ranked-choice; the totals move by first preferences', () => {
    expect(() => settleTally(ranked, emptyTallyTotals(3))).toThrow(/rankedRounds/)
    expect(voteContribution(ranked, { choices: [3, 1, 2], power: 9n }).perChoice).toEqual([0n, 0n, 9n])
  })
})

describe('weightedAllocation', () => {
  test('parameters: exact shares stay exact; the units left over go to the largest remainders', () => {
    expect(weightedAllocation(100n, [70, 30])).toEqual([70n, 30n])
    // 7 · 1/3 = 2.33, 7 · 2/3 = 4.67: the unit left goes to the larger remainder.
    expect(weightedAllocation(7n, [1, 2])).toEqual([2n, 5n])
    expect(weightedAllocation(0n, [1, 5])).toEqual([0n, 0n])
    expect(weightedAllocation(1n, [1_000_000, 1])).toEqual([1n, 0n])
  })

  test('behavior: equal remainders give the units left over to the lower choice numbers, whatever order the ballot lists them in', () => {
    expect(weightedAllocation(5n, [1, 1])).toEqual([3n, 2n])
    expect(weightedAllocation(10n, [1, 1, 1])).toEqual([4n, 3n, 3n])
    // 10 · 2/6 = 3.33 twice, 10 · 1/6 = 1.67 twice: the two units left go to the 1.67s.
    expect(weightedAllocation(10n, [2, 1, 1, 2])).toEqual([3n, 2n, 2n, 3n])
    // Choices 3 and 1 listed in that order: the unit left goes to choice 1, listed second.
    expect(weightedAllocation(5n, [1, 1], [3, 1])).toEqual([2n, 3n])
    const listed = (choices: number[], weights: number[]) =>
      tally(rulesOf('weighted', 3, 0n), [{ choices, weights, power: 10n }]).perChoice
    expect(listed([3, 2, 1], [1, 1, 1])).toEqual(listed([1, 2, 3], [1, 1, 1]))
  })
})

describe('tally: weighted', () => {
  const weighted = rulesOf('weighted', 3, 10n)

  test('behavior: each voter splits their power by their weights; choices add their parts', () => {
    const result = tally(weighted, [
      { choices: [1, 3], weights: [3, 1], power: 40n },
      { choices: [2], weights: [9], power: 25n },
    ])
    expect(result.perChoice).toEqual([30n, 25n, 10n])
    expect(result.quorumPower).toBe(65n)
    expect(result.outcome).toBe('passed')
    expect(result.leading).toEqual([1])
    expect(result.rounds).toBeUndefined()
  })

  test('behavior: a tie at the top → "tie"; no power at all → rejected', () => {
    expect(
      tally(weighted, [
        { choices: [1, 2], weights: [1, 1], power: 20n },
        { choices: [3], weights: [1], power: 5n },
      ]).outcome,
    ).toBe('tie')
    expect(tally(rulesOf('weighted', 2), [{ choices: [1], weights: [1], power: 0n }]).outcome).toBe(
      'rejected',
    )
  })

  test('behavior: a weighted vote without one weight per choice is never counted (voteChoicesProblem refuses it first)', () => {
    expect(() => tally(weighted, [{ choices: [1, 2], power: 5n }])).toThrow(/one weight for each choice/)
    expect(() => tally(weighted, [{ choices: [1, 2], weights: [1], power: 5n }])).toThrow(/one weight/)
  })
})

describe('isqrt and quadraticRoots', () => {
  test('parameters: isqrt rounds down at every size', () => {
    expect([0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n].map(isqrt)).toEqual([0n, 1n, 1n, 1n, 2n, 3n, 4n, 4n])
    const big = 2n ** 200n + 12_345n
    const root = isqrt(big)
    expect(root * root <= big && (root + 1n) * (root + 1n) > big).toBe(true)
    expect(isqrt((10n ** 30n + 7n) ** 2n)).toBe(10n ** 30n + 7n)
    expect(() => isqrt(-1n)).toThrow(RangeError)
  })

  test("parameters: a root per picked choice, of the voter's share scaled by 10¹⁸", () => {
    expect(quadraticRoots(4n, [1])).toEqual([2_000_000_000n])
    expect(quadraticRoots(100n, [1, 3])).toEqual([5_000_000_000n, 8_660_254_037n])
    expect(quadraticRoots(0n, [1, 1])).toEqual([0n, 0n])
  })
})

describe('tally: quadratic', () => {
  const quadratic = rulesOf('quadratic', 3, 0n)

  test('behavior: one holder of 100 equals two holders of 25 each: a tie, shown 75 and 75', () => {
    const result = tally(quadratic, [
      { choices: [1], weights: [1], power: 100n },
      { choices: [2], weights: [1], power: 25n },
      { choices: [2], weights: [1], power: 25n },
    ])
    expect(result.perChoice).toEqual([75n, 75n, 0n])
    expect(result.outcome).toBe('tie')
    expect(result.leading).toEqual([1, 2])
  })

  test('behavior: the squares of the summed roots, rescaled so the choices add up to the voting power', () => {
    // Roots 10·10⁹ on 1 and 5·10⁹ + 5·10⁹ + 5·10⁹ on 2: squares 100 : 225, rescaled to 175.
    const result = tally(quadratic, [
      { choices: [1], weights: [1], power: 100n },
      ...Array.from({ length: 3 }, () => ({ choices: [2], weights: [1], power: 25n })),
    ])
    expect(result.perChoice).toEqual([54n, 121n, 0n])
    expect(result.perChoice.reduce((sum, power) => sum + power, 0n)).toBe(175n)
    expect(result.leading).toEqual([2])
    expect(result.outcome).toBe('passed')
  })

  test('behavior: the leader is read from the roots, not the rescaled figures, which may round equal', () => {
    // Roots 10⁹ and 10⁹ + 1 over 2 units of power: rescaled 1 and 1, yet choice 2's square is larger.
    const result = settleTally(quadratic, {
      perChoice: [1_000_000_000n, 1_000_000_001n, 0n],
      voters: 1,
      votingPower: 2n,
      quorumPower: 2n,
    })
    expect(result.perChoice).toEqual([1n, 1n, 0n])
    expect(result.leading).toEqual([2])
    expect(result.outcome).toBe('passed')
  })
})

describe('tally JSON', () => {
  test('behavior: a ranked tally with its rounds goes through JSON and back unchanged; null stays null', () => {
    const result = tally(rulesOf('ranked-choice', 3, 1n), [
      { choices: [1, 2, 3], power: 4n },
      { choices: [2, 3, 1], power: 3n },
      { choices: [3, 2, 1], power: 2n },
    ])
    const json = tallyToJson(result)
    expect(json.rounds?.[1]).toEqual({ perChoice: ['4', '5', null], continuing: '9', eliminated: [] })
    expect(tallyJsonSchema.parse(JSON.parse(JSON.stringify(json)))).toEqual(json)
    expect(tallyFromJson(json)).toEqual(result)
  })

  test('behavior: the other kinds carry no rounds; a "tie" outcome is valid', () => {
    const result = tally(rulesOf('weighted', 2), [{ choices: [1, 2], weights: [1, 1], power: 2n }])
    const json = tallyToJson(result)
    expect(json).not.toHaveProperty('rounds')
    expect(json.outcome).toBe('tie')
    expect(tallyJsonSchema.safeParse(json).success).toBe(true)
    expect(tallyFromJson(json)).toEqual(result)
  })
})
