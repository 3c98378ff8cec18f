// Snapshot's published vectors (fixtures/snapshot-voting/SOURCES.md): the same winners, and each documented
// divergence from Snapshot's rules (ADR 058) named in a test of its own.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import {
  type CountedVote,
  quadraticPower,
  rankedRounds,
  type TallyRules,
  tally,
  weightedAllocation,
} from './tally.ts'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/snapshot-voting/${name}`, import.meta.url))
type Example = {
  proposal: { choices: string[] }
  scores: number[]
  scoresTotal: number
  votes: { choice: number[] | Record<string, number>; balance: number }[]
}
const example = (name: 'rankedChoice' | 'weighted' | 'quadratic'): Example =>
  JSON.parse(fixture(`${name}.json`).toString('utf8'))
const specVectors: {
  rankedChoice: { test: string; choices: string[]; votes: Example['votes']; finalRound: [string, number][] }[]
  examples2: {
    test: string
    example: 'rankedChoice' | 'weighted' | 'quadratic'
    balance: number
    scores: number[]
    scoresTotal: number
  }[]
} = JSON.parse(fixture('spec-vectors.json').toString('utf8'))

/** A Snapshot balance as voting power: whole tokens of 18 decimals. */
const TOKEN = 10n ** 18n
const powerOf = (balance: number) => BigInt(balance) * TOKEN

/** Snapshot's `{choice: weight}` as choices and whole-number weights in the same proportions. */
function fromChoiceMap(map: Record<string, number>): { choices: number[]; weights: number[] } {
  const entries = Object.entries(map).filter(([, weight]) => weight > 0)
  let scale = 1
  while (!entries.every(([, weight]) => Number.isInteger(Math.round(weight * scale * 1e9) / 1e9))) scale *= 10
  return {
    choices: entries.map(([choice]) => Number(choice)),
    weights: entries.map(([, weight]) => Math.round(weight * scale)),
  }
}

const rules = (kind: TallyRules['kind'], choiceCount: number): TallyRules => ({
  kind,
  choiceCount,
  quorum: 0n,
  abstainCountsToQuorum: false,
})

function countExample(kind: 'ranked-choice' | 'weighted' | 'quadratic', data: Example, balance?: number) {
  const votes: CountedVote[] = data.votes.map((vote) => {
    const power = powerOf(balance ?? vote.balance)
    return Array.isArray(vote.choice)
      ? { choices: vote.choice, power }
      : { ...fromChoiceMap(vote.choice), power }
  })
  return tally(rules(kind, data.proposal.choices.length), votes)
}

/** Our units and Snapshot's float, both in micro-tokens: equal to within one (the float's own rounding). */
function expectCloseToFloat(units: readonly bigint[], floats: readonly number[]) {
  expect(units).toHaveLength(floats.length)
  units.forEach((value, index) => {
    const ours = value / 10n ** 12n
    const theirs = BigInt(Math.round((floats[index] ?? Number.NaN) * 1e6))
    const gap = ours > theirs ? ours - theirs : theirs - ours
    expect(gap <= 1n, `choice ${index + 1}: ${ours} µ vs Snapshot's ${theirs} µ`).toBe(true)
  })
}

/** The 1-based choices with the highest float score (Snapshot's winners). */
const topOf = (scores: readonly number[]) => {
  const top = Math.max(...scores)
  return scores.flatMap((score, index) => (score === top ? [index + 1] : []))
}

describe('Snapshot vectors: the fixtures are the ones SOURCES.md names', () => {
  test('default: each copied example hashes to the sha256 SOURCES.md records', () => {
    const sources = fixture('SOURCES.md').toString('utf8')
    for (const name of ['rankedChoice', 'weighted', 'quadratic']) {
      const sha = createHash('sha256')
        .update(fixture(`${name}.json`))
        .digest('hex')
      expect(sources).toContain(
        `\`${name}.json\` | \`src/voting/examples/${name}.json\` | verbatim (sha256 \`${sha}\`)`,
      )
    }
  })
})

describe('Snapshot vectors: the same winners', () => {
  test('behavior: examples/rankedChoice.json (197 ballots) → Alice wins 117 to Carol 80 in the last round, as Snapshot', () => {
    const data = example('rankedChoice')
    const result = countExample('ranked-choice', data)
    expect(result.leading).toEqual(topOf(data.scores))
    expect(result.outcome).toBe('passed')
    const last = result.rounds?.at(-1)
    // Snapshot's scores are its last round, eliminated choices as 0 (see the divergence below).
    expect(last?.perChoice.map((power) => (power === null ? 0 : Number(power / TOKEN)))).toEqual(data.scores)
    expect(result.votingPower).toBe(powerOf(data.scoresTotal))
  })

  test('behavior: examples/weighted.json (543 ballots) → the same winner and every choice equal to 10⁻⁶ token', () => {
    const data = example('weighted')
    const result = countExample('weighted', data)
    expect(result.leading).toEqual(topOf(data.scores))
    expectCloseToFloat(result.perChoice, data.scores)
    expect(result.votingPower).toBe(powerOf(data.scoresTotal))
  })

  test('behavior: examples/quadratic.json (394 ballots) → the same winner and every choice equal to 10⁻⁶ token', () => {
    const data = example('quadratic')
    const result = countExample('quadratic', data)
    expect(result.leading).toEqual(topOf(data.scores))
    expectCloseToFloat(result.perChoice, data.scores)
    expect(result.votingPower).toBe(powerOf(data.scoresTotal))
  })

  test.each(specVectors.examples2.map((vector) => [vector.test, vector] as const))(
    'behavior: %s → the same winner and scores',
    (_name, vector) => {
      const kind = vector.example === 'rankedChoice' ? 'ranked-choice' : vector.example
      const result = countExample(kind, example(vector.example), vector.balance)
      expect(result.leading).toEqual(topOf(vector.scores))
      expect(result.votingPower).toBe(powerOf(vector.scoresTotal))
      if (kind === 'ranked-choice') {
        const last = result.rounds?.at(-1)?.perChoice ?? []
        expect(last.map((power) => (power === null ? 0 : Number(power / TOKEN)))).toEqual(vector.scores)
      } else expectCloseToFloat(result.perChoice, vector.scores)
    },
  )

  test.each(specVectors.rankedChoice.map((vector) => [vector.test, vector] as const))(
    'behavior: rankedChoice.spec.js %s → the same winner and last round',
    (_name, vector) => {
      const { rounds, winners } = rankedRounds(
        vector.choices.length,
        vector.votes.map((vote) => ({ ranking: vote.choice as number[], power: BigInt(vote.balance) })),
      )
      const [winner] = vector.finalRound[0] ?? []
      expect(winners).toEqual([Number(winner)])
      const last = rounds.at(-1)?.perChoice ?? []
      for (const [choice, power] of vector.finalRound) {
        // Snapshot lists a choice nobody ranked first with 0: still continuing here, with 0n.
        expect(last[Number(choice) - 1]).toBe(BigInt(power))
      }
    },
  )
})

describe('Snapshot divergences (ADR 058)', () => {
  test('divergence: bottom tie rule: the choice with less power in the previous round goes, never the lower-numbered one', () => {
    // rankedChoice.spec.js "multiple elimination rounds": in round 2 Alice (1) and Carol (3) tie at 150.
    // Snapshot drops the first it meets in choice order (a strict `<` over the choices in order): Alice.
    // Guildhall drops the one with less power in round 1: also Alice (100 against Carol's 150).
    const ballots = [
      { ranking: [1, 2, 3, 4], power: 100n },
      { ranking: [2, 1, 3, 4], power: 200n },
      { ranking: [3, 1, 2, 4], power: 150n },
      { ranking: [4, 1, 2, 3], power: 50n },
    ]
    const ours = rankedRounds(4, ballots)
    expect(ours.rounds.map((round) => round.eliminated)).toEqual([[4], [1], []])
    // The same ballots with Alice and Carol's numbers swapped: choice order would now drop Carol (1 after
    // the swap), whose ballots go to Alice, who would then win 300 to 200. Guildhall still drops Alice,
    // now numbered 3, and Bob still wins.
    const swap = (choice: number) => (choice === 1 ? 3 : choice === 3 ? 1 : choice)
    const swapped = rankedRounds(
      4,
      ballots.map((ballot) => ({ ranking: ballot.ranking.map(swap), power: ballot.power })),
    )
    expect(swapped.rounds.map((round) => round.eliminated)).toEqual([[4], [3], []])
    expect(swapped.winners).toEqual(ours.winners)
  })

  test('divergence: exact final tie: two choices left with equal power → the outcome "tie", not the lower-numbered choice', () => {
    // Snapshot stops with two choices left and lists them sorted by power; on equal power the sort keeps
    // choice order, so the lower-numbered one shows first, as if it had won.
    const result = tally(rules('ranked-choice', 3), [
      { choices: [1, 2, 3], power: 40n },
      { choices: [2, 1, 3], power: 40n },
      { choices: [3, 2, 1], power: 10n },
      { choices: [3, 1, 2], power: 10n },
    ])
    expect(result.rounds?.map((round) => round.perChoice)).toEqual([
      [40n, 40n, 20n],
      [50n, 50n, null],
    ])
    expect(result.leading).toEqual([1, 2])
    expect(result.outcome).toBe('tie')
  })

  test('divergence: eliminated choices not shown as 0: they are null in every later round, and round 1 shows first preferences', () => {
    const data = example('rankedChoice')
    const result = countExample('ranked-choice', data)
    const rounds = result.rounds ?? []
    // Snapshot's published scores for this example: [117, 0, 80, 0], Bob and David shown with nothing.
    expect(data.scores).toEqual([117, 0, 80, 0])
    const last = rounds.at(-1)?.perChoice ?? []
    expect(last[1]).toBeNull()
    expect(last[3]).toBeNull()
    // Each eliminated choice is null from the round after its elimination on, and had power before it.
    const eliminatedIn = new Map(rounds.flatMap((round, index) => round.eliminated.map((c) => [c, index])))
    expect([...eliminatedIn.keys()].sort()).toEqual([2, 4])
    for (const [choice, index] of eliminatedIn) {
      expect(rounds[index]?.perChoice[choice - 1]).not.toBeNull()
      for (const later of rounds.slice(index + 1)) expect(later.perChoice[choice - 1]).toBeNull()
    }
    expect(result.perChoice).toEqual(rounds[0]?.perChoice)
    expect(result.perChoice.every((power) => power > 0n)).toBe(true)
  })

  test('divergence: integer vs float: a power beyond 2^53 units is split to the unit and sums to itself', () => {
    const power = 10n ** 18n + 1n
    // As a JavaScript number (Snapshot's balance) the last unit is already gone.
    expect(BigInt(Number(power))).not.toBe(power)
    const parts = weightedAllocation(power, [1, 1, 1])
    expect(parts).toEqual([333_333_333_333_333_334n, 333_333_333_333_333_334n, 333_333_333_333_333_333n])
    expect(parts.reduce((sum, part) => sum + part, 0n)).toBe(power)
    // On Snapshot's own example every ballot's parts add up to its power exactly, so the choices do too.
    const result = countExample('weighted', example('weighted'))
    expect(result.perChoice.reduce((sum, part) => sum + part, 0n)).toBe(result.votingPower)
  })

  test('divergence: rescale rounding: quadratic power is whole units by largest remainder, summing to the voting power', () => {
    // Three equal squares over 10 units: Snapshot shows 3.333… each; here 4, 3, 3 (equal remainders: the
    // lower choice gets the unit left over).
    expect(quadraticPower([1n, 1n, 1n], 10n)).toEqual([4n, 3n, 3n])
    const data = example('quadratic')
    const result = countExample('quadratic', data)
    expect(result.perChoice.reduce((sum, part) => sum + part, 0n)).toBe(result.votingPower)
  })
})
