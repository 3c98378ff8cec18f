import { describe, expect, test } from 'vitest'
import { SIGNATURE_MAX_BYTES } from '../primitives.ts'
import {
  type DelegateStatementMessage,
  type ProposalMessage,
  signedDelegateStatementSchema,
  signedProposalSchema,
  signedVoteSchema,
  type VoteMessage,
} from './messages.ts'
import { proposal, statement, vote } from './messages-test-helpers.ts'
import { GOVERNANCE_LIMITS } from './rules.ts'

/**
 * Every limit packages/core declares, at its boundary: the value at the limit passes the shared schema
 * and one step beyond is refused with a message naming the limit. Keyed by GOVERNANCE_LIMITS, so a new
 * limit without a case here does not compile.
 */
describe('limits (GOVERNANCE_LIMITS, one by one)', () => {
  const signature = `0x${'ab'.repeat(65)}`
  const proposalWith = (overrides: Partial<ProposalMessage> | Record<string, unknown>) =>
    signedProposalSchema.safeParse({ message: { ...proposal, ...overrides }, signature })
  const voteWith = (overrides: Partial<VoteMessage> | Record<string, unknown>) =>
    signedVoteSchema.safeParse({ message: { ...vote(), ...overrides }, signature })
  const statementWith = (overrides: Partial<DelegateStatementMessage> | Record<string, unknown>) =>
    signedDelegateStatementSchema.safeParse({ message: { ...statement(), ...overrides }, signature })
  const L = GOVERNANCE_LIMITS
  /** A version 2 proposal, for the limits of its actions and category. */
  const v2 = { version: 2, category: '', changesSafeSettings: false, actions: [] }
  const payment = { target: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '1', data: '0x' }
  const names = (n: number) => Array.from({ length: n }, (_, i) => `Choice ${i + 1}`)
  const ahead = (seconds: number) => ({
    start: proposal.timestamp + seconds,
    end: proposal.timestamp + seconds + L.periodMinSeconds,
  })
  type Check = (
    overrides: Record<string, unknown>,
  ) => ReturnType<typeof proposalWith | typeof voteWith | typeof statementWith>
  const cases: Record<
    keyof typeof GOVERNANCE_LIMITS,
    [check: Check, atLimit: Record<string, unknown>, beyond: Record<string, unknown>, message: string][]
  > = {
    titleMax: [
      [
        proposalWith,
        { title: 'x'.repeat(L.titleMax) },
        { title: 'x'.repeat(L.titleMax + 1) },
        'The title must be at most 200 characters',
      ],
    ],
    bodyMax: [
      [
        proposalWith,
        { body: 'x'.repeat(L.bodyMax) },
        { body: 'x'.repeat(L.bodyMax + 1) },
        'The body must be at most 20000 characters',
      ],
    ],
    choicesMin: [
      [
        proposalWith,
        { kind: 'single-choice', choices: names(L.choicesMin) },
        { kind: 'single-choice', choices: names(L.choicesMin - 1) },
        'A proposal needs at least 2 choices',
      ],
    ],
    choicesMax: [
      [
        proposalWith,
        { kind: 'approval', choices: names(L.choicesMax) },
        { kind: 'approval', choices: names(L.choicesMax + 1) },
        'A proposal has at most 20 choices',
      ],
      [
        voteWith,
        { choices: Array.from({ length: L.choicesMax }, (_, i) => i + 1) },
        { choices: Array.from({ length: L.choicesMax + 1 }, (_, i) => i + 1) },
        'No proposal has more than 20 choices',
      ],
      [
        voteWith,
        { choices: [L.choicesMax] },
        { choices: [L.choicesMax + 1] },
        'No proposal has more than 20 choices',
      ],
    ],
    choiceMax: [
      [
        proposalWith,
        { kind: 'single-choice', choices: ['A', 'x'.repeat(L.choiceMax)] },
        { kind: 'single-choice', choices: ['A', 'x'.repeat(L.choiceMax + 1)] },
        'A choice must be at most 80 characters',
      ],
    ],
    reasonMax: [
      [
        voteWith,
        { reason: 'x'.repeat(L.reasonMax) },
        { reason: 'x'.repeat(L.reasonMax + 1) },
        'The reason must be at most 1000 characters',
      ],
    ],
    statementMax: [
      [
        statementWith,
        { statement: 'x'.repeat(L.statementMax) },
        { statement: 'x'.repeat(L.statementMax + 1) },
        'The statement must be at most 10000 characters',
      ],
    ],
    statementMaxBytes: [
      // Within the characters, beyond the bytes: 2-byte letters up to the limit, then one 3-byte sign.
      [
        statementWith,
        { statement: 'é'.repeat(L.statementMaxBytes / 2) },
        { statement: `${'é'.repeat(L.statementMaxBytes / 2 - 1)}€` },
        'The statement must be at most 20000 bytes in UTF-8 (an accented letter takes 2, most other scripts 3, an emoji 4)',
      ],
    ],
    periodMinSeconds: [
      [
        proposalWith,
        { end: proposal.start + L.periodMinSeconds },
        { end: proposal.start + L.periodMinSeconds - 1 },
        'The voting period must last from 1 hour to 90 days',
      ],
    ],
    periodMaxSeconds: [
      [
        proposalWith,
        { end: proposal.start + L.periodMaxSeconds },
        { end: proposal.start + L.periodMaxSeconds + 1 },
        'The voting period must last from 1 hour to 90 days',
      ],
    ],
    startMaxAheadSeconds: [
      [
        proposalWith,
        ahead(L.startMaxAheadSeconds),
        ahead(L.startMaxAheadSeconds + 1),
        'A proposal may start at most 30 days after it is signed',
      ],
      [
        proposalWith,
        ahead(0),
        ahead(10 * 365 * 24 * 3600),
        'A proposal may start at most 30 days after it is signed',
      ],
    ],
    actionsMax: [
      [
        proposalWith,
        { ...v2, actions: Array.from({ length: L.actionsMax }, () => payment) },
        { ...v2, actions: Array.from({ length: L.actionsMax + 1 }, () => payment) },
        'A proposal carries at most 16 actions',
      ],
    ],
    actionDataMaxBytes: [
      [
        proposalWith,
        { ...v2, actions: [{ ...payment, data: `0x${'ab'.repeat(L.actionDataMaxBytes)}` }] },
        { ...v2, actions: [{ ...payment, data: `0x${'ab'.repeat(L.actionDataMaxBytes + 1)}` }] },
        'The data must be at most 4096 bytes',
      ],
    ],
    categoryMax: [
      [
        proposalWith,
        { ...v2, category: 'x'.repeat(L.categoryMax) },
        { ...v2, category: 'x'.repeat(L.categoryMax + 1) },
        'The category must be at most 40 characters',
      ],
    ],
    weightMax: [
      [
        voteWith,
        { version: 2, weights: [L.weightMax] },
        { version: 2, weights: [L.weightMax + 1] },
        'Each weight must be at most 1000000',
      ],
    ],
  }

  test.each(
    Object.entries(cases).flatMap(([name, list]) => list.map((c, i) => [`${name} #${i + 1}`, ...c] as const)),
  )(
    'boundary: %s — at the limit accepted, one beyond refused with its message',
    (_name, check, atLimit, beyond, message) => {
      const accepted = check(atLimit)
      expect(accepted.error?.issues).toBeUndefined()
      const refused = check(beyond)
      expect(refused.success).toBe(false)
      expect(refused.error?.issues.map((issue) => issue.message)).toContain(message)
    },
  )

  test('boundary: a signature of SIGNATURE_MAX_BYTES is taken, one byte more is refused', () => {
    const withSignature = (bytes: number) =>
      signedVoteSchema.safeParse({ message: vote(), signature: `0x${'ab'.repeat(bytes)}` })
    expect(withSignature(SIGNATURE_MAX_BYTES).success).toBe(true)
    expect(withSignature(SIGNATURE_MAX_BYTES + 1).error?.issues.map((issue) => issue.message)).toEqual([
      `must be at most ${SIGNATURE_MAX_BYTES} bytes`,
    ])
  })
})
