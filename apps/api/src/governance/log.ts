// The hash-chained log of every accepted proposal, vote, delegate statement and discussion message: appending to it (inside the transaction that
// stores the message) and reading it back.
import { LOG_GENESIS_HASH, type LogEntry, logEntryHash } from '@guildhall/core'
import { and, asc, eq, gt, lte, type SQL, sql } from 'drizzle-orm'
import type pg from 'pg'
import type { Hex } from 'viem'
import type { Database, Tx } from '../platform/db/client.ts'
import type { LastQuery } from '../platform/db/commit-last.ts'
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

/** The log's last entry: seq 0 and the genesis hash when it is empty. */
type LogHead = { seq: number; hash: Hex }

const EMPTY_LOG: LogHead = { seq: 0, hash: LOG_GENESIS_HASH }

/** The stored head as a `LogHead` (an empty log has no row: seq and hash null). */
const logHead = (row: { seq?: number | string | null; hash?: string | null } | undefined): LogHead =>
  row?.seq == null ? EMPTY_LOG : { seq: Number(row.seq), hash: row.hash as Hex }

/** `appends` chained after `head`: each entry's seq, previous hash and hash. */
function chainAfter(head: LogHead, appends: readonly LogAppend[]): LogEntry[] {
  let before = head
  return appends.map((append) => {
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
}

/** One statement that inserts the chained `entries`, runs `also`'s CTEs (`name as (…)`) and notifies of each entry. */
function appendStatement(
  appends: readonly LogAppend[],
  entries: readonly LogEntry[],
  also: (entries: readonly LogEntry[]) => SQL[],
): SQL {
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
  return sql`with ${sql.join(ctes, sql`, `)} select pg_notify(${LOG_CHANNEL}, n)::text from jsonb_array_elements_text(${JSON.stringify(notices)}::jsonb) as n`
}

/** The head as read once the log's lock is held, and how long the lock took. */
type LockedHead = { seq: number | string | null; hash: string | null; waited_ms: number }
/** The lock, then the head read after it (migration 0020's function): one round trip. */
const lockThenReadHead = () => sql`select seq, hash, waited_ms from guildhall_log_head(${LOG_LOCK_KEY})`

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
  const locked = await tx.execute<LockedHead>(lockThenReadHead())
  const head = locked.rows[0]
  const entries = chainAfter(logHead(head), appends)
  await tx.execute(appendStatement(appends, entries, also))
  return { entries, lock: { waitMs: Number(head?.waited_ms ?? 0), requestedAt } }
}

/**
 * The head each process last saw of each PostgreSQL database (keyed by its pool: two handles on one database
 * in one process are two instances): after each of its optimistic appends, and from each refusal. Other
 * writers' appends leave it stale, which costs the next optimistic append one refused attempt. `moved`: the
 * last append found it stale (refused, or the head read first had moved: another instance appends too), so
 * the next reads the head first; it stays so while the head keeps moving between this process's appends.
 */
const rememberedHeads = new WeakMap<object, { head: LogHead; moved: boolean }>()

/** Optimistic attempts refused (the head had moved) before an append takes the lock first and reads the head. */
const MAX_REFUSED = 2

/** The savepoint an optimistic append goes back to when refused. */
const SAVEPOINT = 'guildhall_log_append'

/** SQLSTATE of migration 0021's guildhall_log_expect_head when the head is not the expected one. */
export const LOG_HEAD_MOVED = 'GHL01'

/** The head and the lock wait a refusal of guildhall_log_expect_head names (its DETAIL), or undefined for any other error. */
function refusal(error: unknown): { head: LogHead; waitedMs: number } | undefined {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown }
  if (code !== LOG_HEAD_MOVED || typeof detail !== 'string') return undefined
  const named = JSON.parse(detail) as { seq: number; hash: string | null; waited_ms: number }
  return { head: logHead(named), waitedMs: Number(named.waited_ms) }
}

/**
 * Appends `appends` as the last query of a transaction and commits it (PostgreSQL, `transactionCommittedByLastQuery`,
 * ADR 073): the entries are hashed from the head this process remembers (read first, without the lock, when
 * its last append found it stale), and ONE query takes a savepoint, takes
 * the log's lock and checks the head (migration 0021's function), inserts, runs `also`'s CTEs, notifies and
 * commits, so the lock is held inside the database only. When another writer has moved the head, the function
 * refuses naming the head (the error ends the savepoint's subtransaction, which lets the lock go at once):
 * back to the savepoint and again from that head; after
 * MAX_REFUSED refusals, the lock and head first (0020's function), then the insert and the commit in one query.
 * `heldMs` is the lock's hold by the database's clock: from just before asking for it, less the wait, to
 * just after the commit, read in the same query (a refused attempt lets the lock go with its error, after
 * one read of the head, and is not counted). Timed from this process it would also count the network and
 * this event loop's delay in reading the answer, which hold nothing.
 */
export async function appendToLogAndCommit(
  database: Database,
  last: LastQuery,
  appends: readonly LogAppend[],
  also: (entries: readonly LogEntry[]) => SQL[] = () => [],
): Promise<{ entries: LogEntry[]; waitMs: number; heldMs: number }> {
  const key = database.postgres?.pool ?? database
  const remembered = rememberedHeads.get(key)
  let head = remembered?.head ?? EMPTY_LOG
  let moved = false
  if (!remembered || remembered.moved) {
    // Without the lock, one round trip before it: while other instances append, far likelier to be the
    // head the lock will find than this instance's last append.
    const [read] = await last.simple(sql`select seq, hash from ${governanceLog} order by seq desc limit 1`)
    head = logHead(read?.rows[0] as { seq: string; hash: string } | undefined)
    // Moved again since this process's last append: others still append, so the next batch reads first too;
    // not moved: this process appends alone for now, and the next trusts its own last append.
    moved = remembered !== undefined && head.seq !== remembered.head.seq
  }
  let waitMs = 0
  const appended = (
    entries: LogEntry[],
    before: pg.QueryResult | undefined,
    waited: number,
    after: pg.QueryResult | undefined,
  ) => {
    waitMs += waited
    const heldMs = Math.max(0, clockMs(after) - clockMs(before) - waited)
    const newest = entries.at(-1)
    rememberedHeads.set(key, { head: newest ? { seq: newest.seq, hash: newest.hash } : head, moved })
    return { entries, waitMs, heldMs }
  }
  for (let attempt = 0; attempt < MAX_REFUSED; attempt++) {
    const entries = chainAfter(head, appends)
    try {
      const [, before, expected, , , after] = await last.commit(
        sql`savepoint ${sql.raw(SAVEPOINT)}; ${DATABASE_CLOCK}; select guildhall_log_expect_head(${LOG_LOCK_KEY}, ${head.seq}, ${head.hash}) as waited_ms; ${appendStatement(appends, entries, also)}`,
        DATABASE_CLOCK,
      )
      return appended(entries, before, Number(expected?.rows[0]?.waited_ms ?? 0), after)
    } catch (error) {
      const refused = refusal(error)
      if (!refused) throw error
      waitMs += refused.waitedMs
      head = refused.head
      moved = true
      rememberedHeads.set(key, { head, moved })
      await last.simple(sql`rollback to savepoint ${sql.raw(SAVEPOINT)}`)
    }
  }
  const [before, locked] = await last.simple(sql`${DATABASE_CLOCK}; ${lockThenReadHead()}`)
  const row = locked?.rows[0] as LockedHead | undefined
  head = logHead(row)
  const entries = chainAfter(head, appends)
  const [, , after] = await last.commit(appendStatement(appends, entries, also), DATABASE_CLOCK)
  return appended(entries, before, Number(row?.waited_ms ?? 0), after)
}

/** The database's clock, in ms since the epoch: read before the lock and after the commit, it times the hold. */
const DATABASE_CLOCK = sql`select extract(epoch from clock_timestamp()) * 1000 as at_ms`
const clockMs = (result: pg.QueryResult | undefined) => Number(result?.rows[0]?.at_ms)

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
