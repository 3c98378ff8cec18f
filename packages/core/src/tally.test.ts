import fc from 'fast-check'
import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { countingVotes } from './governance/rules.ts'
import {
  basisPoints,
  FINALITY_DELAY_SECONDS,
  formatBasisPoints,
  nextStateChange,
  proposalState,
  sharesInBasisPoints,
  TALLY_VERSION,
  type TallyRules,
  tally,
} from './tally.ts'

const basic = (quorum: bigint, abstainCountsToQuorum = true): TallyRules => ({
  kind: 'basic',
  choiceCount: 3,
  quorum,
  abstainCountsToQuorum,
})
const single: TallyRules = {
  kind: 'single-choice',
  choiceCount: 3,
  quorum: 10n,
  abstainCountsToQuorum: false,
}
const approval: TallyRules = { kind: 'approval', choiceCount: 3, quorum: 10n, abstainCountsToQuorum: false }
const v = (power: bigint, ...choices: number[]) => ({ choices, power })

describe('tally: basic', () => {
  test('boundary: no votes → no quorum, nothing leads', () => {
    expect(tally(basic(1n), [])).toEqual({
      version: TALLY_VERSION,
      perChoice: [0n, 0n, 0n],
      voters: 0,
      votingPower: 0n,
      quorumPower: 0n,
      quorumReached: false,
      outcome: 'no-quorum',
      leading: [],
    })
  })

  test('behavior: For over Against with the quorum met → passed', () => {
    const result = tally(basic(100n), [v(60n, 1), v(40n, 2)])
    expect(result.perChoice).toEqual([60n, 40n, 0n])
    expect(result.outcome).toBe('passed')
  })

  test('boundary: the quorum exactly met counts; one unit short does not', () => {
    expect(tally(basic(100n), [v(100n, 1)]).outcome).toBe('passed')
    expect(tally(basic(101n), [v(100n, 1)]).outcome).toBe('no-quorum')
  })

  test('behavior: a tie between For and Against → rejected', () => {
    expect(tally(basic(10n), [v(50n, 1), v(50n, 2)]).outcome).toBe('rejected')
  })

  test('behavior: all abstain → quorum by the frozen rule, and never passed', () => {
    const votes = [v(70n, 3), v(30n, 3)]
    const counting = tally(basic(100n, true), votes)
    expect(counting).toMatchObject({
      quorumPower: 100n,
      quorumReached: true,
      outcome: 'rejected',
      leading: [3],
    })
    const notCounting = tally(basic(100n, false), votes)
    expect(notCounting).toMatchObject({ quorumPower: 0n, quorumReached: false, outcome: 'no-quorum' })
  })

  test('behavior: abstain helps reach the quorum only when the rules say so', () => {
    const votes = [v(60n, 1), v(40n, 3)]
    expect(tally(basic(100n, true), votes).outcome).toBe('passed')
    expect(tally(basic(100n, false), votes).outcome).toBe('no-quorum')
  })

  test('behavior: amounts beyond 2^53 are exact', () => {
    const whale = 2n ** 200n + 1n
    const result = tally(basic(whale), [v(whale, 1), v(2n ** 200n, 2)])
    expect(result.perChoice[0]).toBe(whale)
    expect(result.outcome).toBe('passed')
  })
})

describe('tally: single choice and approval', () => {
  test('behavior: a unique leader with the quorum met → passed with that choice', () => {
    const result = tally(single, [v(5n, 2), v(4n, 1), v(3n, 2)])
    expect(result).toMatchObject({ perChoice: [4n, 8n, 0n], leading: [2], outcome: 'passed' })
  })

  test('behavior: a tie at the top → rejected, both leading', () => {
    const result = tally(single, [v(6n, 1), v(6n, 3)])
    expect(result).toMatchObject({ leading: [1, 3], outcome: 'rejected' })
  })

  test('behavior: approval gives each approved choice the full power, and counts the voter once', () => {
    const result = tally(approval, [v(7n, 1, 2), v(3n, 2)])
    expect(result).toMatchObject({ perChoice: [7n, 10n, 0n], votingPower: 10n, quorumPower: 10n })
    expect(result).toMatchObject({ leading: [2], outcome: 'passed', voters: 2 })
  })

  test('behavior: voters with zero power take part but move nothing', () => {
    const result = tally(single, [v(0n, 1), v(0n, 2)])
    expect(result).toMatchObject({ voters: 2, leading: [], outcome: 'no-quorum' })
  })

  test.each([
    ['single choice', single],
    ['approval', approval],
  ])('boundary: %s with no votes → no quorum, nothing leads', (_name, rules) => {
    expect(tally(rules, [])).toEqual({
      version: TALLY_VERSION,
      perChoice: [0n, 0n, 0n],
      voters: 0,
      votingPower: 0n,
      quorumPower: 0n,
      quorumReached: false,
      outcome: 'no-quorum',
      leading: [],
    })
  })

  test.each([
    ['single choice', single],
    ['approval', approval],
  ])('boundary: %s, the quorum exactly met counts; one unit short does not', (_name, rules) => {
    expect(tally(rules, [v(6n, 1), v(4n, 2)])).toMatchObject({ quorumReached: true, outcome: 'passed' })
    expect(tally({ ...rules, quorum: 11n }, [v(6n, 1), v(4n, 2)])).toMatchObject({
      quorumPower: 10n,
      quorumReached: false,
      outcome: 'no-quorum',
      leading: [1],
    })
  })

  test('behavior: approval, a tie for the most approvals → rejected, every tied choice leading', () => {
    const result = tally(approval, [v(5n, 1, 3), v(5n, 2, 3), v(5n, 1, 2)])
    expect(result).toMatchObject({ perChoice: [10n, 10n, 10n], leading: [1, 2, 3], outcome: 'rejected' })
  })

  test('behavior: approval, everyone approving everything → a tie of all choices, rejected', () => {
    expect(tally(approval, [v(20n, 1, 2, 3)])).toMatchObject({ leading: [1, 2, 3], outcome: 'rejected' })
  })

  test('behavior: the abstain rule is for basic proposals only; a third choice of another kind always counts', () => {
    const rules = { ...single, abstainCountsToQuorum: false }
    expect(tally(rules, [v(10n, 3)])).toMatchObject({ quorumPower: 10n, outcome: 'passed', leading: [3] })
  })
})

describe('tally: a quorum of zero', () => {
  test('boundary: with no votes the quorum is met, but nothing won → rejected', () => {
    expect(tally(basic(0n), [])).toMatchObject({ quorumReached: true, outcome: 'rejected' })
    expect(tally({ ...single, quorum: 0n }, [])).toMatchObject({ quorumReached: true, outcome: 'rejected' })
  })
})

describe('tally properties', () => {
  const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex
  const voteArbitrary = fc.record({
    voter: fc.constantFrom('0x01', '0x02', '0x03', '0x04'),
    id: fc.integer({ min: 0, max: 1_000 }).map(id),
    timestamp: fc.integer({ min: 0, max: 3 }),
    choices: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
  })
  const power = (voter: string) => BigInt(voter) * 10n ** 18n
  type ArrivedVote = typeof voteArbitrary extends fc.Arbitrary<infer T> ? T : never
  const count = (votes: Iterable<ArrivedVote>) =>
    tally(
      approval,
      [...countingVotes(votes).values()].map((vote) => ({ choices: vote.choices, power: power(vote.voter) })),
    )

  test('property: the result is independent of the order votes arrived in and of replays', () => {
    fc.assert(
      fc.property(
        // A vote's id is the digest of its message: two different votes never share one.
        fc.uniqueArray(voteArbitrary, { maxLength: 25, selector: (vote) => vote.id }),
        fc.func(fc.integer()),
        fc.nat(10),
        (votes, key, replays) => {
          const arrived = [...votes, ...votes.slice(0, replays)].sort((a, b) => key(a) - key(b))
          expect(count(arrived)).toEqual(count(votes))
        },
      ),
    )
  })

  test('property: a passed result always has its quorum, and outside basic exactly one leader', () => {
    fc.assert(
      fc.property(
        fc.array(voteArbitrary, { maxLength: 25 }),
        fc.bigInt({ min: 0n, max: 8n * 10n ** 18n }),
        (votes, quorum) => {
          const counted = [...countingVotes(votes).values()].map((vote) => ({
            choices: vote.choices.slice(0, 1),
            power: power(vote.voter),
          }))
          for (const rules of [basic(quorum, false), { ...single, quorum }, { ...approval, quorum }]) {
            const result = tally(rules, counted)
            expect(result.quorumReached).toBe(result.quorumPower >= quorum)
            if (result.outcome === 'passed') {
              expect(result.quorumReached).toBe(true)
              if (rules.kind !== 'basic') expect(result.leading).toHaveLength(1)
            }
          }
        },
      ),
    )
  })

  test('property: per-choice power never exceeds the power that voted, and quorum power never exceeds it', () => {
    fc.assert(
      fc.property(fc.array(voteArbitrary, { maxLength: 25 }), (votes) => {
        const result = count(votes)
        for (const choice of result.perChoice) expect(choice <= result.votingPower).toBe(true)
        expect(result.quorumPower <= result.votingPower).toBe(true)
      }),
    )
  })
})

describe('proposalState', () => {
  const proposal = { start: 1_000, end: 2_000 }

  test('boundary: pending → active at start → closed at end → final after the finality delay', () => {
    expect(proposalState(proposal, 999)).toBe('pending')
    expect(proposalState(proposal, 1_000)).toBe('active')
    expect(proposalState(proposal, 1_999)).toBe('active')
    expect(proposalState(proposal, 2_000)).toBe('closed')
    expect(proposalState(proposal, 2_000 + FINALITY_DELAY_SECONDS - 1)).toBe('closed')
    expect(proposalState(proposal, 2_000 + FINALITY_DELAY_SECONDS)).toBe('final')
  })

  test('boundary: nextStateChange is the second proposalState next moves, null once final', () => {
    for (const now of [0, 999, 1_000, 1_999, 2_000, 2_000 + FINALITY_DELAY_SECONDS - 1]) {
      const next = nextStateChange(proposal, now)
      expect(next).not.toBeNull()
      expect(proposalState(proposal, (next as number) - 1)).toBe(proposalState(proposal, now))
      expect(proposalState(proposal, next as number)).not.toBe(proposalState(proposal, now))
    }
    expect(nextStateChange(proposal, 999)).toBe(1_000)
    expect(nextStateChange(proposal, 2_000 + FINALITY_DELAY_SECONDS)).toBeNull()
  })
})

describe('basis points', () => {
  test('parameters: rounded down, 0 of nothing, formatted with two decimals', () => {
    expect(basisPoints(1n, 3n)).toBe(3333n)
    expect(basisPoints(5n, 0n)).toBe(0n)
    expect(formatBasisPoints(1234n)).toBe('12.34 %')
    expect(formatBasisPoints(5n)).toBe('0.05 %')
  })
})

describe('shares in basis points (largest remainder)', () => {
  const percentages = (parts: bigint[]) => sharesInBasisPoints(parts).map(formatBasisPoints)
  const sum = (shares: bigint[]) => shares.reduce((a, b) => a + b, 0n)

  test('behavior: 5 : 2 : 2 shows 55.56 + 22.22 + 22.22 = 100 %, not 55.55 + 22.22 + 22.22 = 99.99 %', () => {
    expect(percentages([5n, 2n, 2n])).toEqual(['55.56 %', '22.22 %', '22.22 %'])
    // The demo's documentation sprint: 1,250 For, 850 Against, 0 Abstain (59.52 + 40.47 before).
    expect(percentages([1250n, 850n, 0n])).toEqual(['59.52 %', '40.48 %', '0.00 %'])
  })

  test('behavior: equal remainders give the missing points to the earlier parts', () => {
    expect(percentages([1n, 1n, 1n])).toEqual(['33.34 %', '33.33 %', '33.33 %'])
    expect(percentages([0n, 1n, 1n, 1n])).toEqual(['0.00 %', '33.34 %', '33.33 %', '33.33 %'])
    expect(sharesInBasisPoints([1n, 1n, 1n, 1n, 1n, 1n])).toEqual([1667n, 1667n, 1667n, 1667n, 1666n, 1666n])
  })

  test('parameters: nothing counted is 0 % each; no parts, no shares; exact shares stay exact', () => {
    expect(sharesInBasisPoints([0n, 0n, 0n])).toEqual([0n, 0n, 0n])
    expect(sharesInBasisPoints([])).toEqual([])
    expect(sharesInBasisPoints([7n])).toEqual([10_000n])
    expect(sharesInBasisPoints([1n, 3n])).toEqual([2_500n, 7_500n])
  })

  test('property: any non-zero votes add up to exactly 100 %, and no share is off by a point or more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 30n }), { minLength: 1, maxLength: 12 }),
        (parts) => {
          const shares = sharesInBasisPoints(parts)
          const total = sum(parts)
          if (total === 0n) return shares.every((share) => share === 0n)
          if (sum(shares) !== 10_000n) return false
          // Each share is its exact value rounded down or up: |share·total − part·10000| < total.
          return parts.every((part, i) => {
            const diff = (shares[i] ?? 0n) * total - part * 10_000n
            return diff < total && -diff < total
          })
        },
      ),
    )
  })
})
