// Delegate statements (docs/security.md "Signed governance messages"): verify a signed statement against
// the domain this server rebuilds, as a vote is, and store it with its log entry in one transaction. Every
// version is kept; the latest (`supersedes`) is the delegate's statement.
import {
  type DelegateStatement,
  type DelegateStatementMessage,
  delegateStatementId,
  type SignedDelegateStatement,
  supersedes,
  timestampProblem,
  timestampProblemMessage,
} from '@guildhall/core'
import { asc, eq, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import { checkSignature, type GovernanceDeps, seconds } from '../governance/deps.ts'
import { appendLog } from '../governance/log.ts'
import type { Tx } from '../platform/db/client.ts'
import { delegateStatements, governanceLog } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'

/** The first key of pg_advisory_xact_lock(int, int) for one delegate's statements (the second is theirs). */
const STATEMENT_LOCK_KEY = 0x73746d74 // "stmt"

/**
 * Accepts a statement by `delegateFromUrl`. The message is checked as signed by that delegate: a statement
 * signed for another address fails the signature check (401) instead of being filed under it.
 */
export async function publishStatement(
  deps: GovernanceDeps,
  delegateFromUrl: Address,
  { message: sent, signature }: SignedDelegateStatement,
): Promise<{ id: Hex; created: boolean }> {
  const message: DelegateStatementMessage = { ...sent, delegate: delegateFromUrl }
  const id = delegateStatementId(deps.domain, message)
  const [replayed] = await deps.database.db
    .select({ id: delegateStatements.id })
    .from(delegateStatements)
    .where(eq(delegateStatements.id, id))
  if (replayed) return { id, created: false }

  const clock = timestampProblem(message.timestamp, seconds(deps.now()))
  if (clock) throw new ApiError(422, 'bad_timestamp', timestampProblemMessage('statement', clock))
  await checkSignature(deps, message.delegate, id, signature)

  return deps.database.db.transaction(async (tx) => {
    // One delegate's statements take turns from here to the commit: the latest read below stays the latest.
    await tx.execute(
      sql`select pg_advisory_xact_lock(${STATEMENT_LOCK_KEY}, hashtext(${message.delegate.toLowerCase()}))`,
    )
    // A replay that raced this one stored it first (and a later version may have followed it).
    const [stored] = await tx
      .select({ id: delegateStatements.id })
      .from(delegateStatements)
      .where(eq(delegateStatements.id, id))
    if (stored) return { id, created: false }
    const latest = await latestRow(tx, message.delegate)
    if (latest && !supersedes({ id, timestamp: message.timestamp }, latest)) {
      throw new ApiError(
        409,
        'superseded',
        'You have already published a later statement; this earlier one does not replace it. Sign it again to publish it now.',
      )
    }
    await tx.insert(delegateStatements).values({
      id,
      delegate: message.delegate,
      timestamp: message.timestamp,
      message,
      signature,
    })
    await appendLog(tx, { kind: 'statement', messageId: id, proposalId: null, signature }, deps.observer)
    return { id, created: true }
  })
}

/** `delegate`'s latest statement: the later timestamp, then the lower id (`supersedes`), read from the index. */
async function latestRow(db: Tx | GovernanceDeps['database']['db'], delegate: Address) {
  const [row] = await db
    .select()
    .from(delegateStatements)
    .where(eq(delegateStatements.delegate, delegate))
    // As the index is built (nulls last), so the first row is read from it, not sorted.
    .orderBy(sql`${delegateStatements.timestamp} desc nulls last`, asc(delegateStatements.id))
    .limit(1)
  return row
}

/** `delegate`'s latest statement as signed, with its log entry's seq; a 404 when they have published none. */
export async function latestStatement(deps: GovernanceDeps, delegate: Address): Promise<DelegateStatement> {
  const row = await latestRow(deps.database.db, delegate)
  if (!row) {
    throw new ApiError(404, 'no_statement', 'This delegate has not published a statement.')
  }
  const [entry] = await deps.database.db
    .select({ seq: governanceLog.seq })
    .from(governanceLog)
    .where(eq(governanceLog.messageId, row.id))
  if (!entry) throw new Error(`Statement ${row.id} has no log entry`)
  return { id: row.id as Hex, message: row.message, signature: row.signature as Hex, seq: entry.seq }
}
