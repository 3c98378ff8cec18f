import { delegateStatementMessageSchema, GOVERNANCE_LIMITS } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { buildStatementMessage, statementSize } from './statement-message.ts'

const delegate = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('buildStatementMessage', () => {
  test('behavior: a first statement is dated now, in whole seconds, its text kept verbatim and valid for the schema', () => {
    const message = buildStatementMessage({ delegate, statement: '  ## Me\n\n', now: 1_800_000_000_900 })
    expect(message).toEqual({ delegate, statement: '  ## Me\n\n', timestamp: 1_800_000_000 })
    expect(delegateStatementMessageSchema.safeParse(message).success).toBe(true)
  })

  test('behavior: an edit within the same second as (or on a clock behind) the statement it replaces is dated one second later', () => {
    const replaces = { timestamp: 1_800_000_000 }
    expect(
      buildStatementMessage({ delegate, statement: 'b', replaces, now: 1_800_000_000_500 }).timestamp,
    ).toBe(1_800_000_001)
    expect(
      buildStatementMessage({ delegate, statement: 'b', replaces, now: 1_799_999_000_000 }).timestamp,
    ).toBe(1_800_000_001)
    expect(
      buildStatementMessage({ delegate, statement: 'b', replaces, now: 1_800_000_100_000 }).timestamp,
    ).toBe(1_800_000_100)
  })
})

test('boundary: statementSize counts what the limits count: UTF-16 characters and UTF-8 bytes', () => {
  expect(statementSize('aé€🏠')).toEqual({ characters: 5, bytes: 1 + 2 + 3 + 4 })
  const atLimit = 'é'.repeat(GOVERNANCE_LIMITS.statementMaxBytes / 2)
  expect(statementSize(atLimit)).toEqual({ characters: 10_000, bytes: 20_000 })
})
