import fc from 'fast-check'
import { hashTypedData } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  proposalMessageSchema,
  signedDelegateStatementSchema,
  signedVoteSchema,
  voteTypedData,
} from './messages.ts'
import { author, domain, proposal, statement, vote } from './messages-test-helpers.ts'
import { GOVERNANCE_LIMITS } from './rules.ts'

describe('message schemas (adversarial vote cases)', () => {
  const signed = (message: unknown) => ({ message, signature: `0x${'ab'.repeat(65)}` })

  test.each([
    ['choice 0', [0]],
    ['a negative choice', [-1]],
    ['a fractional choice', [1.5]],
    ['a string choice', ['1']],
    ['a huge choice', [2 ** 40]],
    ['duplicated choices', [1, 1]],
    ['no choice', []],
    ['choices as a string', '1'],
    ['too many choices', Array.from({ length: 21 }, (_, i) => i + 1)],
  ])('parameters: a vote with %s → refused', (_name, choices) => {
    expect(signedVoteSchema.safeParse(signed({ ...vote(), choices })).success).toBe(false)
  })

  test.each([
    ['an unknown field', { ...vote(), weight: '1000' }],
    [
      'a prototype-pollution key',
      JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(vote()).slice(1)}`),
    ],
    ['a constructor key', { ...vote(), constructor: { prototype: {} } }],
    ['a NUL byte in the reason', { ...vote(), reason: 'ok\u0000hidden' }],
    ['a lone high surrogate in the reason', { ...vote(), reason: 'ok\ud83d' }],
    ['a lone low surrogate in the reason', { ...vote(), reason: '\ude00ok' }],
    ['a surrogate pair in the wrong order', { ...vote(), reason: '\ude00\ud83d' }],
    ['an oversized reason', { ...vote(), reason: 'x'.repeat(GOVERNANCE_LIMITS.reasonMax + 1) }],
    ['a lower-case voter', { ...vote(), voter: author.address.toLowerCase() }],
    ['an upper-case proposal id', { ...vote(), proposal: vote().proposal.toUpperCase().replace('0X', '0x') }],
    ['a fractional timestamp', { ...vote(), timestamp: 1.5 }],
    ['a missing timestamp', { ...vote(), timestamp: undefined }],
  ])('parameters: a vote with %s → refused', (_name, message) => {
    expect(signedVoteSchema.safeParse(signed(message)).success).toBe(false)
  })

  test('behavior: SQL and HTML in text are valid text, kept verbatim', () => {
    const reason = `'); DROP TABLE votes; -- <script>alert(1)</script>`
    expect(signedVoteSchema.parse(signed({ ...vote(), reason })).message.reason).toBe(reason)
  })

  test('behavior: texts differing only in a lone surrogate share one digest, so they are refused; pairs are fine', () => {
    // Why the schema refuses them: EIP-712 hashes UTF-8, where each lone surrogate becomes U+FFFD.
    const digests = ['ok\ufffd', 'ok\ud83d', 'ok\ude00'].map((reason) =>
      hashTypedData(voteTypedData(domain, vote({ reason }))),
    )
    expect(new Set(digests).size).toBe(1)
    expect(signedVoteSchema.safeParse(signed(vote({ reason: 'ok\ufffd' }))).success).toBe(true)
    const emoji = 'Roofs 🏠 matter 👍🏽'
    expect(signedVoteSchema.parse(signed(vote({ reason: emoji }))).message.reason).toBe(emoji)
  })

  test('property: any JSON value is refused without throwing unless it is a whole valid vote', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (message) => {
        expect(signedVoteSchema.safeParse(signed(message)).success).toBe(false)
        expect(signedVoteSchema.safeParse(message).success).toBe(false)
        expect(proposalMessageSchema.safeParse(message).success).toBe(false)
      }),
    )
  })

  test('property: a valid vote with any field missing, or any extra field, is refused', () => {
    const valid = vote()
    const fields = Object.keys(valid)
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        // `version` is a field of every vote too (absent or 1 for version 1).
        fc.string({ minLength: 1 }).filter((key) => !fields.includes(key) && key !== 'version'),
        fc.jsonValue(),
        (missing, extraKey, extraValue) => {
          const without = Object.fromEntries(Object.entries(valid).filter(([key]) => key !== missing))
          expect(signedVoteSchema.safeParse(signed(without)).success).toBe(false)
          const extra = JSON.parse(JSON.stringify({ ...valid, [extraKey]: extraValue }))
          expect(signedVoteSchema.safeParse(signed(extra)).success).toBe(false)
        },
      ),
    )
  })

  test.each([
    ['an empty title', { title: '  ' }],
    ['a title over the limit', { title: 'x'.repeat(GOVERNANCE_LIMITS.titleMax + 1) }],
    ['a body over the limit', { body: 'x'.repeat(GOVERNANCE_LIMITS.bodyMax + 1) }],
    ['a basic proposal with other choices', { choices: ['Yes', 'No'] }],
    ['one choice', { kind: 'single-choice', choices: ['Only'] }],
    ['21 choices', { kind: 'approval', choices: Array.from({ length: 21 }, (_, i) => `C${i}`) }],
    ['a duplicated choice', { kind: 'single-choice', choices: ['A', 'A'] }],
    ['an empty choice', { kind: 'single-choice', choices: ['A', ' '] }],
    [
      'a choice over the limit',
      { kind: 'approval', choices: ['A', 'x'.repeat(GOVERNANCE_LIMITS.choiceMax + 1)] },
    ],
    ['a NUL byte in the body', { body: 'a\u0000b' }],
    ['a lone surrogate in the title', { title: 'Roof \ud83d' }],
    ['a lone surrogate in a choice', { kind: 'single-choice', choices: ['A', '\ude00'] }],
    ['a basic proposal with its choices reordered', { choices: ['Against', 'For', 'Abstain'] }],
    ['a period over 90 days', { end: proposal.start + GOVERNANCE_LIMITS.periodMaxSeconds + 1 }],
    ['a fractional start', { start: proposal.start + 0.5 }],
    ['a negative snapshot', { snapshot: -1 }],
    ['a quorum with a leading zero', { quorum: '01' }],
    ['abstain counting as a string', { abstainCountsToQuorum: 'true' }],
    ['an unknown field', { weight: 1 }],
    ['a period under an hour', { end: proposal.start + 3599 }],
    ['an end before the start', { end: proposal.start - 1 }],
    ['a quorum as a number', { quorum: 1000 }],
    ['a negative quorum', { quorum: '-1' }],
    ['a quorum in words', { quorum: 'a thousand' }],
    ['a fractional threshold', { threshold: '1.5' }],
    ['a threshold over uint256', { threshold: (2n ** 256n).toString() }],
    ['an unknown kind', { kind: 'ranked' }],
  ])('parameters: a proposal with %s → refused with a message', (_name, overrides) => {
    const result = proposalMessageSchema.safeParse({ ...proposal, ...overrides })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toMatch(/\w+ \w+/)
  })

  test('parameters: single-choice and approval proposals take their own choices', () => {
    for (const kind of ['single-choice', 'approval'] as const) {
      expect(
        proposalMessageSchema.safeParse({ ...proposal, kind, choices: ['Oak', 'Pine', 'Elm'] }).success,
      ).toBe(true)
    }
  })
})

describe('delegate statement schema (the vote cases, for statements)', () => {
  const signed = (message: unknown) => ({ message, signature: `0x${'ab'.repeat(65)}` })

  test.each([
    ['an unknown field', { ...statement(), version: 2 }],
    [
      'a prototype-pollution key',
      JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(statement()).slice(1)}`),
    ],
    ['a NUL byte', { ...statement(), statement: 'ok\u0000hidden' }],
    ['a lone high surrogate', { ...statement(), statement: 'ok\ud83d' }],
    ['a lone low surrogate', { ...statement(), statement: '\ude00ok' }],
    ['a lower-case delegate', { ...statement(), delegate: author.address.toLowerCase() }],
    ['a fractional timestamp', { ...statement(), timestamp: 1.5 }],
    ['a negative timestamp', { ...statement(), timestamp: -1 }],
    ['a statement that is not text', { ...statement(), statement: 42 }],
  ])('parameters: a statement with %s → refused', (_name, message) => {
    expect(signedDelegateStatementSchema.safeParse(signed(message)).success).toBe(false)
  })

  test('behavior: markdown with HTML, scripts and links is kept verbatim (it is signed; the page sanitises it), and so is an empty statement (a withdrawal)', () => {
    for (const text of [
      `<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1)) 🏠`,
      '',
    ]) {
      expect(
        signedDelegateStatementSchema.parse(signed(statement({ statement: text }))).message.statement,
      ).toBe(text)
    }
  })
})
