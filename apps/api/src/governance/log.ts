// The hash-chained log of every accepted proposal, vote, delegate statement and discussion message: appending to it (inside the transaction that
// stores the message) and reading it back.
import { LOG_GENESIS_HASH, type LogEntry, logEntryHash } from '@guildhall/core'
import { and, asc, eq, gt, lte, type SQL, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import type { Database, Tx } from '../platform/db/client.ts'
import { governanceLog } from '../platform/db/schema.ts'
import type { Observer } from '../platform/observer.ts'

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

/** A message to append: its entry's fields besides the chain's, and where it belongs (`LogNotice`). */
export type LogAppend = {
  kind: LogEntry['kind']
  messageId: Hex
  proposalId: Hex | null
  signature: Hex
  threadId?: Hex
}

/** What an append took: the log's lock waited for (ms, on the database's clock) and when it was asked for. */
export type LogLockTimes = { waitMs: number; requestedAt: number }

/**
 * Appends `appends` in order inside `tx`, after taking the log's lock: the advisory lock makes appends take
 * turns, so the chain stays linear with every writer's entries. The lock and the head read after it are one
 * call of migration 0020's function (a plain statement's snapshot would predate the wait), the entries are hashed here, and one statement
 * inserts them, notifies, and runs `also`'s CTEs (`name as (…)`, given the chained entries), so the lock is
 * held for two round trips and the commit whatever the number of entries. The notices go out when `tx`
 * commits, and not at all if it rolls back.
 */
export async function appendToLog(
  tx: Tx,
  appends: readonly LogAppend[],
  also: (entries: readonly LogEntry[]) => SQL[] = () => [],
): Promise<{ entries: LogEntry[]; lock: LogLockTimes }> {
  const requestedAt = performance.now()
  // The lock, then the head read after it (migration 0020's function): one round trip.
  const locked = await tx.execute<{ seq: number | string | null; hash: string | null; waited_ms: number }>(
    sql`select seq, hash, waited_ms from guildhall_log_head(${LOG_LOCK_KEY})`,
  )
  const head = locked.rows[0]
  let before = {
    seq: head?.seq == null ? 0 : Number(head.seq),
    hash: (head?.hash as Hex | null | undefined) ?? LOG_GENESIS_HASH,
  }
  const entries = appends.map((append) => {
    const unhashed = {
      seq: before.seq + 1,
      kind: append.kind,
      messageId: append.messageId,
      signature: append.signature,
      prevHash: before.hash,
    }
    const entry = { ...unhashed, hash: logEntryHash(unhashed) }
    before = entry
    return entry
  })
  const rows = entries.map((entry, index) => ({
    seq: entry.seq,
    kind: entry.kind,
    message_id: entry.messageId,
    proposal_id: appends[index]?.proposalId ?? null,
    signature: entry.signature,
    prev_hash: entry.prevHash,
    hash: entry.hash,
  }))
  const notices = entries.map((entry, index) => {
    const { proposalId = null, threadId } = appends[index] ?? {}
    const notice: LogNotice = {
      seq: entry.seq,
      kind: entry.kind,
      proposalId,
      ...(threadId ? { threadId } : {}),
    }
    return JSON.stringify(notice)
  })
  const ctes = [
    sql`logged as (insert into ${governanceLog} (seq, kind, message_id, proposal_id, signature, prev_hash, hash)
      select seq, kind, message_id, proposal_id, signature, prev_hash, hash from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as e(seq bigint, kind text, message_id text, proposal_id text, signature text, prev_hash text, hash text))`,
    ...also(entries),
  ]
  await tx.execute(
    sql`with ${sql.join(ctes, sql`, `)} select pg_notify(${LOG_CHANNEL}, n)::text from jsonb_array_elements_text(${JSON.stringify(notices)}::jsonb) as n`,
  )
  return { entries, lock: { waitMs: Number(head?.waited_ms ?? 0), requestedAt } }
}

/**
 * The one-message append of the writers that store one message per transaction (proposals, statements,
 * discussion, Safe signatures). Given an observer, it reports the append with the lock held until the append
 * returned: their commit follows at once, and what they do under the lock after it is theirs to keep short.
 */
export async function appendLog(tx: Tx, entry: LogAppend, observer?: Observer): Promise<LogEntry> {
  const { entries, lock } = await appendToLog(tx, [entry])
  observer?.logAppended(1, lock.waitMs, logLockHeldMs(lock))
  return entries[0] as LogEntry
}

/**
 * How long a transaction held the log's lock, in ms: from the lock granted (asked for at `requestedAt`, waited
 * `waitMs` on the database) until now, its commit returned. It includes the event loop's delays in reading the
 * answers of the statements under the lock, which hold the lock as much as the statements do.
 */
export const logLockHeldMs = (lock: LogLockTimes) => performance.now() - lock.requestedAt - lock.waitMs

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
  deps: { database: Database },
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
export async function logPage(deps: { database: Database }, after: bigint) {
  const rows = await deps.database.db
    .select()
    .from(governanceLog)
    .where(sql`${governanceLog.seq} > ${String(after)}::bigint`)
    .orderBy(asc(governanceLog.seq))
    .limit(LOG_PAGE_SIZE)
  return rows.map(logEntry)
}
