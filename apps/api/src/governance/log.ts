// The hash-chained log of every accepted proposal, vote, delegate statement and discussion message: appending to it (inside the transaction that
// stores the message) and reading it back.
import { LOG_GENESIS_HASH, type LogEntry, logEntryHash } from '@guildhall/core'
import { and, asc, desc, eq, gt, lte, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import type { Tx } from '../platform/db/client.ts'
import { governanceLog } from '../platform/db/schema.ts'
import type { GovernanceDeps } from './deps.ts'

/** One key for pg_advisory_xact_lock: appends to the log happen one after another, so the chain is linear. */
export const LOG_LOCK_KEY = 0x6775696c64 // "guild"

/** Log entries a page holds at most. */
const LOG_PAGE_SIZE = 1000

/** The channel every log append notifies on commit (governance/live/live-events.ts listens). */
export const LOG_CHANNEL = 'guildhall_log'
/**
 * What a log append tells the listening servers; a statement belongs to no proposal. `threadId`: the thread a
 * discussion message (or a vote with a reason) shows in, for its live stream; not part of the hashed entry.
 */
export type LogNotice = { seq: number; kind: LogEntry['kind']; proposalId: Hex | null; threadId?: Hex }

/**
 * Appends an entry to the log inside `tx`; the advisory lock makes appends take turns. The notice goes out
 * when `tx` commits, and not at all if it rolls back.
 */
export async function appendLog(
  tx: Tx,
  entry: { kind: LogEntry['kind']; messageId: Hex; proposalId: Hex | null; signature: Hex; threadId?: Hex },
): Promise<LogEntry> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOG_LOCK_KEY})`)
  const [last] = await tx
    .select({ seq: governanceLog.seq, hash: governanceLog.hash })
    .from(governanceLog)
    .orderBy(desc(governanceLog.seq))
    .limit(1)
  const unhashed = {
    seq: (last?.seq ?? 0) + 1,
    kind: entry.kind,
    messageId: entry.messageId,
    signature: entry.signature,
    prevHash: (last?.hash as Hex | undefined) ?? LOG_GENESIS_HASH,
  }
  const logged = { ...unhashed, hash: logEntryHash(unhashed) }
  await tx.insert(governanceLog).values({ ...logged, proposalId: entry.proposalId })
  const notice: LogNotice = {
    seq: logged.seq,
    kind: logged.kind,
    proposalId: entry.proposalId,
    ...(entry.threadId ? { threadId: entry.threadId } : {}),
  }
  await tx.execute(sql`select pg_notify(${LOG_CHANNEL}, ${JSON.stringify(notice)})`)
  return logged
}

/** Rows a read of a proposal's entries takes at most. */
const PROPOSAL_PAGE_SIZE = 2000

/** A stored log row as the API answers it. */
export function logEntry(row: typeof governanceLog.$inferSelect): LogEntry {
  return {
    seq: row.seq,
    kind: row.kind,
    messageId: row.messageId as Hex,
    signature: row.signature as Hex,
    prevHash: row.prevHash as Hex,
    hash: row.hash as Hex,
  }
}

/** The entries of one proposal and its votes up to `lastSeq`, in log order, a page at a time (only `kind` ones when given). */
export async function* proposalLogPages(
  deps: GovernanceDeps,
  proposalId: string,
  lastSeq: number,
  kind?: LogEntry['kind'],
): AsyncGenerator<LogEntry[]> {
  let after = 0
  for (;;) {
    const rows = await deps.database.db
      .select()
      .from(governanceLog)
      .where(
        and(
          eq(governanceLog.proposalId, proposalId),
          gt(governanceLog.seq, after),
          lte(governanceLog.seq, lastSeq),
          kind === undefined ? undefined : eq(governanceLog.kind, kind),
        ),
      )
      .orderBy(asc(governanceLog.seq))
      .limit(PROPOSAL_PAGE_SIZE)
    if (rows.length > 0) yield rows.map(logEntry)
    const last = rows.at(-1)
    if (!last || rows.length < PROPOSAL_PAGE_SIZE) return
    after = last.seq
  }
}

/** The log from entry `after` + 1 on, one bounded page. */
export async function logPage(deps: GovernanceDeps, after: bigint) {
  const rows = await deps.database.db
    .select()
    .from(governanceLog)
    .where(sql`${governanceLog.seq} > ${String(after)}::bigint`)
    .orderBy(asc(governanceLog.seq))
    .limit(LOG_PAGE_SIZE)
  return rows.map(logEntry)
}
