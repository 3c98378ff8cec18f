import { type DelegateStatementMessage, supersedingTimestamp } from '@guildhall/core'
import type { Address } from 'viem'

/**
 * The EIP-712 statement message for what the delegate wrote, verbatim (markdown: spacing can matter). An
 * edit must win over the statement it replaces: core's `supersedingTimestamp` dates it later.
 */
export function buildStatementMessage({
  delegate,
  statement,
  replaces,
  now,
}: {
  delegate: Address
  statement: string
  /** The delegate's current statement, if any. */
  replaces?: { timestamp: number } | undefined
  /** Milliseconds since the epoch (Date.now()). */
  now: number
}): DelegateStatementMessage {
  return {
    delegate,
    statement,
    timestamp: supersedingTimestamp(now, replaces),
  }
}

const utf8 = new TextEncoder()
/** What the limits count: characters as the textarea counts them, and UTF-8 bytes. */
export const statementSize = (statement: string) => ({
  characters: statement.length,
  bytes: utf8.encode(statement).length,
})
