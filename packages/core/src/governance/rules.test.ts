import fc from 'fast-check'
import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { BASIC_CHOICES } from './messages.ts'
import {
  countingVotes,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  durationInWords,
  GOVERNANCE_LIMITS,
  kindTakesWeights,
  PROPOSAL_KIND_HELP,
  PROPOSAL_KIND_LABELS,
  PROPOSAL_KINDS,
  QUADRATIC_WARNING,
  snapshotProblem,
  supersedes,
  supersedingTimestamp,
  TIMESTAMP_MAX_AGE_SECONDS,
  TIMESTAMP_MAX_SKEW_SECONDS,
  timestampProblem,
  timestampProblemMessage,
  voteChoicesProblem,
} from './rules.ts'

describe('voteChoicesProblem', () => {
  const single = { kind: 'single-choice', choices: ['A', 'B', 'C'] } as const
  const approval = { kind: 'approval', choices: ['A', 'B', 'C'] } as const

  test('parameters: choices that fit the proposal → null', () => {
    expect(voteChoicesProblem(single, [3])).toBeNull()
    expect(voteChoicesProblem(approval, [1, 3])).toBeNull()
    expect(voteChoicesProblem({ kind: 'basic', choices: [...BASIC_CHOICES] }, [3])).toBeNull()
  })

  test('parameters: choices that do not fit → the reason', () => {
    expect(voteChoicesProblem(single, [4])).toBe('Choice 4 does not exist: this proposal has choices 1 to 3')
    expect(voteChoicesProblem(single, [1, 2])).toBe('This proposal takes exactly one choice')
    expect(voteChoicesProblem(approval, [])).toBe('Pick at least one choice')
    expect(voteChoicesProblem(approval, [2, 2])).toBe('Each choice may be picked once')
    expect(voteChoicesProblem(approval, [0])).toBe(
      'Choice 0 does not exist: this proposal has choices 1 to 3',
    )
    expect(voteChoicesProblem(single, [1.5])).toBe(
      'Choice 1.5 does not exist: this proposal has choices 1 to 3',
    )
    expect(voteChoicesProblem({ kind: 'basic', choices: [...BASIC_CHOICES] }, [1, 3])).toBe(
      'This proposal takes exactly one choice',
    )
  })

  const ranked = { kind: 'ranked-choice', choices: ['A', 'B', 'C', 'D'] } as const
  const weighted = { kind: 'weighted', choices: ['A', 'B', 'C'] } as const
  const quadratic = { kind: 'quadratic', choices: ['A', 'B', 'C'] } as const

  test('parameters: ranked-choice takes every choice once, in any order; a partial ranking names both counts', () => {
    expect(voteChoicesProblem(ranked, [3, 1, 4, 2])).toBeNull()
    expect(voteChoicesProblem(ranked, [2, 1])).toBe(
      'Rank every choice: this proposal has 4 choices and your ballot ranks 2',
    )
    expect(voteChoicesProblem(ranked, [1, 2, 3, 3])).toBe('Each choice may be picked once')
    expect(voteChoicesProblem(ranked, [1, 2, 3, 5])).toBe(
      'Choice 5 does not exist: this proposal has choices 1 to 4',
    )
  })

  test('parameters: weighted and quadratic take any choices with one weight each, from a version 2 vote', () => {
    for (const proposal of [weighted, quadratic]) {
      expect(voteChoicesProblem(proposal, [3, 1], [5, 1])).toBeNull()
      expect(voteChoicesProblem(proposal, [2], [7])).toBeNull()
      expect(voteChoicesProblem(proposal, [1, 2])).toBe(
        'This proposal splits your voting power by weights: sign a version 2 vote with one weight for each choice you pick',
      )
      expect(voteChoicesProblem(proposal, [1, 2], [1])).toBe(
        'Give one weight for each choice you pick: 2 choices and 1 weights',
      )
      expect(voteChoicesProblem(proposal, [1], [])).toBe(
        'Give one weight for each choice you pick: 1 choices and 0 weights',
      )
    }
  })

  test('parameters: weights on a kind that takes none are refused; a version 2 vote with no weights is not', () => {
    const message = 'This proposal does not take weights: only weighted and quadratic proposals do'
    expect(voteChoicesProblem(approval, [1, 2], [1, 1])).toBe(message)
    expect(voteChoicesProblem(ranked, [1, 2, 3, 4], [1, 1, 1, 1])).toBe(message)
    expect(voteChoicesProblem({ kind: 'basic', choices: [...BASIC_CHOICES] }, [1], [3])).toBe(message)
    expect(voteChoicesProblem(single, [2], [])).toBeNull()
    expect(voteChoicesProblem(ranked, [4, 3, 2, 1], [])).toBeNull()
  })

  test('property: null exactly when the choices are distinct whole numbers in range and fit the kind', () => {
    const choiceArbitrary = fc.oneof(fc.integer({ min: -3, max: 25 }), fc.double({ noNaN: true }))
    fc.assert(
      fc.property(
        fc.constantFrom(...PROPOSAL_KINDS),
        fc.integer({ min: 2, max: GOVERNANCE_LIMITS.choicesMax }),
        fc.array(choiceArbitrary, { maxLength: 6 }),
        fc.option(fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 6 }), { nil: undefined }),
        (kind, count, choices, weights) => {
          const proposal = {
            kind,
            choices: kind === 'basic' ? [...BASIC_CHOICES] : Array.from({ length: count }, (_, i) => `C${i}`),
          }
          const weightsFit = kindTakesWeights(kind)
            ? weights !== undefined && weights.length === choices.length
            : weights === undefined || weights.length === 0
          const countFits =
            kind === 'basic' || kind === 'single-choice'
              ? choices.length === 1
              : kind === 'ranked-choice'
                ? choices.length === proposal.choices.length
                : true
          const fits =
            choices.length > 0 &&
            new Set(choices).size === choices.length &&
            choices.every((c) => Number.isInteger(c) && c >= 1 && c <= proposal.choices.length) &&
            weightsFit &&
            countFits
          expect(voteChoicesProblem(proposal, choices, weights) === null).toBe(fits)
        },
      ),
    )
  })
})

describe('proposal kinds', () => {
  test('parameters: every kind has a label and one sentence of help; only weighted and quadratic take weights', () => {
    expect(PROPOSAL_KINDS).toEqual([
      'basic',
      'single-choice',
      'approval',
      'ranked-choice',
      'weighted',
      'quadratic',
    ])
    for (const kind of PROPOSAL_KINDS) {
      expect(PROPOSAL_KIND_LABELS[kind]).toMatch(/^[A-Z]/)
      expect(PROPOSAL_KIND_HELP[kind]).toMatch(/^[A-Z][^.]*[^.]\.$/)
    }
    expect(PROPOSAL_KIND_LABELS['ranked-choice']).toBe('Ranked choice')
    expect(PROPOSAL_KINDS.filter(kindTakesWeights)).toEqual(['weighted', 'quadratic'])
  })

  test('behavior: the quadratic warning says plainly it is not sybil-resistant, and why', () => {
    expect(QUADRATIC_WARNING).toMatch(/^Quadratic voting is not sybil-resistant:/)
    expect(QUADRATIC_WARNING).toMatch(/several addresses/)
  })
})

describe('timestampProblem', () => {
  test('boundary: up to 6 days old and 5 minutes ahead are accepted', () => {
    const now = 1_800_000_000
    expect(timestampProblem(now - 6 * 24 * 3600, now)).toBeNull()
    expect(timestampProblem(now - 6 * 24 * 3600 - 1, now)).toBe('too-old')
    expect(timestampProblem(now + 300, now)).toBeNull()
    expect(timestampProblem(now + 301, now)).toBe('in-the-future')
  })

  test('boundary: a vote may be dated up to 5 minutes before its proposal starts, not earlier', () => {
    const now = 1_800_000_000
    const start = now - 3600
    expect(timestampProblem(start - TIMESTAMP_MAX_SKEW_SECONDS, now, start)).toBeNull()
    expect(timestampProblem(start - TIMESTAMP_MAX_SKEW_SECONDS - 1, now, start)).toBe('before-start')
  })

  test('behavior: the refusals name the limits in words', () => {
    expect(timestampProblemMessage('proposal', 'too-old')).toBe(
      'This proposal was signed more than 6 days ago. Sign it again.',
    )
    expect(timestampProblemMessage('vote', 'in-the-future')).toBe(
      "This vote is dated more than 5 minutes ahead of the server's clock. Check your device clock.",
    )
  })
})

describe('snapshotProblem', () => {
  test('boundary: one of the last maxAgeBlocks blocks before the head, no older, and not the head itself', () => {
    const head = 1_000
    const bound = DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS
    expect(snapshotProblem(head - 1, head, bound)).toBeNull()
    expect(snapshotProblem(head - bound, head, bound)).toBeNull()
    expect(snapshotProblem(head - bound - 1, head, bound)).toBe(
      `The snapshot block ${head - bound - 1} is ${bound + 1} blocks old; it must be one of the last ${bound} blocks before the chain's current block (1000). Sign the proposal again to take a recent snapshot.`,
    )
    expect(snapshotProblem(head, head, bound)).toBe(
      "The snapshot block 1000 is not yet final: it must be before the chain's current block (1000).",
    )
    expect(snapshotProblem(head + 5, head, bound)).toMatch(/not yet final/)
  })
})

describe('durationInWords', () => {
  test.each([
    [3600, '1 hour'],
    [90 * 24 * 3600, '90 days'],
    [TIMESTAMP_MAX_AGE_SECONDS, '6 days'],
    [TIMESTAMP_MAX_SKEW_SECONDS, '5 minutes'],
    [90, '90 seconds'],
    [36 * 3600, '36 hours'],
  ])('parameters: %s s → %s', (seconds, words) => {
    expect(durationInWords(seconds)).toBe(words)
  })
})

describe('which vote counts', () => {
  const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

  test('behavior: a later timestamp wins; an equal one goes to the lower id; a vote never supersedes itself', () => {
    expect(supersedes({ id: id(9), timestamp: 2 }, { id: id(1), timestamp: 1 })).toBe(true)
    expect(supersedes({ id: id(1), timestamp: 1 }, { id: id(9), timestamp: 2 })).toBe(false)
    expect(supersedes({ id: id(1), timestamp: 5 }, { id: id(9), timestamp: 5 })).toBe(true)
    expect(supersedes({ id: id(9), timestamp: 5 }, { id: id(1), timestamp: 5 })).toBe(false)
    expect(supersedes({ id: id(4), timestamp: 5 }, { id: id(4), timestamp: 5 })).toBe(false)
  })

  test('property: every arrival order, with replays, converges to the same vote per voter', () => {
    const voteArbitrary = fc.record({
      voter: fc.constantFrom('0xaa', '0xbb', '0xcc'),
      timestamp: fc.integer({ min: 0, max: 5 }),
      id: fc.integer({ min: 0, max: 20 }).map(id),
    })
    fc.assert(
      fc.property(fc.array(voteArbitrary, { maxLength: 30 }), fc.func(fc.integer()), (votes, key) => {
        const withReplays = [...votes, ...votes.slice(0, 5)]
        const shuffled = [...withReplays].sort((a, b) => key(a) - key(b))
        const expected = countingVotes(votes)
        const actual = countingVotes(shuffled)
        expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected))
      }),
    )
  })
})

describe('supersedingTimestamp', () => {
  const NOON = Date.UTC(2030, 0, 1, 12) // ms
  const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

  test('default: a first message is dated now, in whole seconds', () => {
    expect(supersedingTimestamp(NOON + 999)).toBe(NOON / 1000)
  })

  test('behavior: within the same second as the one it replaces, or on a clock behind it, one second later; later on, now', () => {
    expect(supersedingTimestamp(NOON + 400, { timestamp: NOON / 1000 })).toBe(NOON / 1000 + 1)
    expect(supersedingTimestamp(NOON, { timestamp: NOON / 1000 + 60 })).toBe(NOON / 1000 + 61)
    expect(supersedingTimestamp(NOON, { timestamp: NOON / 1000 - 3600 })).toBe(NOON / 1000)
  })

  test('property: the replacement supersedes what it replaces whatever their ids, and is never dated before now', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        (nowMs, replacedAt, newId, oldId) => {
          const timestamp = supersedingTimestamp(nowMs, { timestamp: replacedAt })
          expect(supersedes({ id: id(newId), timestamp }, { id: id(oldId), timestamp: replacedAt })).toBe(
            true,
          )
          expect(timestamp).toBeGreaterThanOrEqual(Math.floor(nowMs / 1000))
        },
      ),
    )
  })
})
