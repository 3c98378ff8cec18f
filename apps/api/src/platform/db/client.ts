// The database behind the API (ADR 007): PGlite (PostgreSQL compiled to WebAssembly, in-process) by default,
// PostgreSQL through `pg` when a URL is configured. Both give the same drizzle query API over the same schema
// and the same committed migrations, so services are written once against `Db` / `Tx`.
//
// PGlite is one connection. Every statement waits for the one before it, and a transaction holds the
// connection until it ends, so concurrent transactions run one after another (never interleaved).
// Consequence for callers: inside `db.transaction(async (tx) => …)` use `tx` only. A query on `db` from
// inside the callback waits for the transaction that is waiting for it, and never finishes on PGlite
// (on PostgreSQL it would run on another connection, outside the transaction).
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import type { Assume } from 'drizzle-orm'
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT, PgTransaction, PgTransactionConfig } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { type Schema, schema } from './schema.ts'

/**
 * What both drivers return from `db.execute(sql…)` and from update/delete/insert without `.returning()`:
 * `rows` only (pg has `rowCount`, PGlite `affectedRows`; use `.returning()` to learn what was changed).
 */
interface QueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<Assume<this['row'], Record<string, unknown>>>
}
type QueryRows<Row> = { rows: Row[] }
/** The drizzle database, whichever backend is behind it. */
export type Db = PgDatabase<QueryResultHKT, Schema>
/** The `tx` handed to `db.transaction(async (tx) => …)`. */
export type Tx = PgTransaction<QueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>

type DatabaseKind = 'pglite' | 'postgres'

export type Database = {
  db: Db
  kind: DatabaseKind
  /** Applies the committed migrations (apps/api/drizzle) that are not applied yet. */
  migrate(): Promise<void>
  /** Closes the connection(s); idempotent. */
  close(): Promise<void>
  /** True when a trivial query succeeds now. Never throws. */
  ping(): Promise<boolean>
  /**
   * PostgreSQL only: the pool (for libraries that take a pg pool, e.g. the shared rate-limit store) and a
   * new connection outside it (for a session-level advisory lock held for a long time, e.g. leadership).
   */
  postgres?: { pool: pg.Pool; newClient(): pg.Client }
  /**
   * Calls `onNotify` with each payload sent by `pg_notify(channel, …)` once its transaction commits, from
   * any server on this database. PostgreSQL: on a connection of its own, opened again when it drops; what
   * was sent meanwhile is lost, so `onReconnect` follows each reopening. Resolves to a function that stops.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect: () => void,
  ): Promise<() => Promise<void>>
}

export type DatabaseOptions = {
  /** PostgreSQL connection string; when set, PostgreSQL is used and `dataDir` is ignored. */
  databaseUrl?: string | undefined
  /** PGlite data folder (created if missing); in memory when undefined. */
  dataDir?: string | undefined
  /** PGlite only: start from this dump of a data dir (`dumpDataDir()`), e.g. a migrated template in tests. */
  loadDataDir?: Blob | undefined
  /** Errors of idle PostgreSQL connections (server restart, network): logged, never thrown. */
  onPoolError?: ((error: Error) => void) | undefined
}

/** The committed migrations, found relative to this file (not the working directory). */
export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url))

/** How long a dropped LISTEN connection waits before it is opened again. */
const LISTEN_RETRY_MS = 1_000

/** PostgreSQL pool settings (per process). */
export const poolSettings = {
  max: 10,
  connectionTimeoutMillis: 5_000,
  idleTimeoutMillis: 30_000,
  /** Server-side limit for one statement. */
  statementTimeoutMillis: 10_000,
  /** A transaction left open by a bug must not hold locks (and a connection) for ever. */
  idleInTransactionTimeoutMillis: 30_000,
} as const

// A fixed key for pg_advisory_lock: two servers starting at once against one database migrate in turn.
const MIGRATION_LOCK_KEY = 7_007_001

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.onPoolError)
    : openPglite(options.dataDir, options.loadDataDir)
}

async function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
  const client = await PGlite.create({
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(loadDataDir === undefined ? {} : { loadDataDir }),
  })
  yieldBeforeEachQuery(client)
  const db = drizzlePglite({ client, schema })
  let closed = false
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    async close() {
      if (closed) return
      closed = true
      await client.close()
    },
    async ping() {
      if (closed || client.closed) return false
      try {
        await client.query('select 1')
        return true
      } catch {
        return false
      }
    },
    async listen(channel, onNotify) {
      // One process, one connection: nothing to reopen.
      const unlisten = await client.listen(channel, onNotify)
      return async () => {
        if (!closed) await unlisten()
      }
    },
  }
}

/**
 * PGlite runs a query on this thread and answers it as a promise, and its lock hands the connection to the
 * next waiter the same way, so while queries are queued the process never leaves the microtask queue: no
 * timer fires and no socket is read until every queued query has run (50 votes in flight: not one 10 ms
 * timer tick in 18 s). Requests then get in only in bursts, each waiting for the whole burst before it,
 * which made PGlite's vote p99 several times its median. One event-loop turn before each query and each
 * transaction lets the server read sockets and run timers between them (statements inside a transaction
 * run on: it holds the only connection).
 */
function yieldBeforeEachQuery(client: PGlite) {
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  const query = client.query.bind(client)
  const transaction = client.transaction.bind(client)
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    await turn()
    return query(...args)
  }) as PGlite['query']
  client.transaction = (async (...args: Parameters<PGlite['transaction']>) => {
    await turn()
    return transaction(...args)
  }) as PGlite['transaction']
}

async function openPostgres(databaseUrl: string, onPoolError?: (error: Error) => void): Promise<Database> {
  const connection = {
    connectionString: databaseUrl,
    connectionTimeoutMillis: poolSettings.connectionTimeoutMillis,
    statement_timeout: poolSettings.statementTimeoutMillis,
    idle_in_transaction_session_timeout: poolSettings.idleInTransactionTimeoutMillis,
    application_name: 'guildhall',
  }
  const pool = new pg.Pool({
    ...connection,
    max: poolSettings.max,
    idleTimeoutMillis: poolSettings.idleTimeoutMillis,
  })
  // Without a listener, an idle client's error (e.g. the server restarting) would crash the process.
  pool.on('error', (error) => onPoolError?.(error))
  // The pool listens to its idle clients only: a lent-out client whose session the server ends between two
  // statements (inside a transaction) or after its statement failed would crash the process with an
  // unheard 'error'. The statement given to it fails instead ("not queryable"), and the pool drops it.
  pool.on('connect', (client) => client.on('error', () => undefined))
  retryStatementsOnce(pool)
  const db = drizzleNodePg({ client: pool, schema })
  retryTransactionsOnce(db)
  let closed = false
  return {
    db,
    kind: 'postgres',
    // A connection held for long (a lock) notices a vanished peer (network cut) in minutes, not hours.
    postgres: { pool, newClient: () => new pg.Client({ ...connection, keepAlive: true }) },
    async migrate() {
      // One dedicated connection holds the advisory lock for the whole migration.
      const client = await pool.connect()
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
        try {
          await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder })
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
        }
      } finally {
        client.release()
      }
    },
    async close() {
      if (closed) return
      closed = true
      await pool.end()
    },
    async ping() {
      if (closed) return false
      try {
        await db.execute(sql`select 1`)
        return true
      } catch {
        return false
      }
    },
    listen: (channel, onNotify, onReconnect) =>
      listenPostgres(databaseUrl, channel, { onNotify, onReconnect, onError: onPoolError }),
  }
}

/**
 * Statements outside a transaction (drizzle hands them to `pool.query`) are sent again once, on another
 * connection, when that is safe (statementRetryIsSafe): a connection cut by a restart, failover or pooler
 * then costs a request nothing. Callback calls (none of ours) pass through.
 */
function retryStatementsOnce(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
  pool.query = ((...args: unknown[]) => {
    if (args.some((arg) => typeof arg === 'function')) return query(...args)
    const [config] = args
    const statement = typeof config === 'string' ? config : ((config as { text?: string })?.text ?? '')
    return query(...args).catch((error: unknown) => {
      if (!statementRetryIsSafe(statement, error)) throw error
      return query(...args)
    })
  }) as typeof pool.query
}

/** Transactions run again once when they failed before COMMIT was sent (transactionRetryIsSafe). */
function retryTransactionsOnce(db: Db) {
  const transaction = db.transaction.bind(db)
  // Callers' callbacks touch nothing but `tx` (see the top of this file), so running one again is safe.
  db.transaction = async <T>(callback: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    let committing = false
    const run = () =>
      transaction(async (tx) => {
        const result = await callback(tx)
        // drizzle sends COMMIT next: from here the outcome of a broken connection is unknown.
        committing = true
        return result
      }, config)
    try {
      return await run()
    } catch (error) {
      if (!transactionRetryIsSafe(committing, error)) throw error
      return run()
    }
  }
}

/** LISTEN on a connection outside the pool (a pooled one would be handed to queries), reopened when it drops. */
async function listenPostgres(
  databaseUrl: string,
  channel: string,
  handlers: {
    onNotify(payload: string): void
    onReconnect(): void
    onError?: ((error: Error) => void) | undefined
  },
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  const open = async () => {
    const client = new pg.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: poolSettings.connectionTimeoutMillis,
      keepAlive: true,
      application_name: 'guildhall-listen',
    })
    const dropped = (error?: Error) => {
      if (current !== client) return
      current = undefined
      if (error) handlers.onError?.(error)
      client.end().catch(() => {})
      reopenLater()
    }
    client.on('error', dropped)
    client.on('end', () => dropped())
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onNotify(message.payload)
    })
    try {
      await client.connect()
      await client.query(`listen ${client.escapeIdentifier(channel)}`)
    } catch (error) {
      await client.end().catch(() => {})
      throw error
    }
    if (stopped) await client.end()
    else current = client
  }
  const reopenLater = () => {
    if (stopped || retry) return
    retry = setTimeout(async () => {
      retry = undefined
      if (stopped) return
      try {
        await open()
        handlers.onReconnect()
      } catch (error) {
        handlers.onError?.(error as Error)
        reopenLater()
      }
    }, LISTEN_RETRY_MS)
  }
  // A server starting while the database is away still starts (its reads answer 503 until it is back).
  await open().catch((error: Error) => {
    handlers.onError?.(error)
    reopenLater()
  })
  return async () => {
    stopped = true
    clearTimeout(retry)
    const client = current
    current = undefined
    await client?.end()
  }
}

/** The error and its causes (drizzle's DrizzleQueryError wraps the driver's error as `cause`), outermost first. */
const errorChain = (error: unknown): { code?: unknown; message?: unknown }[] => {
  const chain = []
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    chain.push(e as { code?: unknown; message?: unknown })
    e = (e as { cause?: unknown }).cause
  }
  return chain
}

/** The first code of the error or its causes: a SQLSTATE from either backend, or a socket error's. */
const errorCode = (error: unknown): string | undefined => {
  const code = errorChain(error).find((e) => typeof e.code === 'string')?.code
  return code as string | undefined
}

/**
 * SQLSTATEs of the database failing rather than the statement: class 08 connection exceptions (08007: the
 * connection broke during COMMIT), the server shutting down, crashing or still starting (57P01, 57P02,
 * 57P03), and no connection slot left (53300).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])
/** Node's socket errors while connecting to, or talking with, the database server. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** node-postgres' own errors for a connection that could not be made in time (the pool's, a client's). */
const CONNECT_TIMEOUT_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'timeout expired',
])
/** node-postgres' errors for a statement given to a connection already known dead: it was never sent. */
const NOT_SENT_MESSAGES = new Set([
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
])
/**
 * The rest of node-postgres' and PGlite's errors for a connection (or database) that is gone: the socket
 * closed under a statement, the pool or the embedded database closed (while the server shuts down).
 */
const GONE_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
  'PGlite is closing',
])

const inChain = (error: unknown, test: (e: { code?: unknown; message?: unknown }) => boolean) =>
  errorChain(error).some(test)
const hasMessage = (messages: Set<string>) => (e: { message?: unknown }) =>
  typeof e.message === 'string' && messages.has(e.message)

/**
 * True when `error` says the database could not be reached or dropped the connection (a restart, failover,
 * a pooler or an operator ending sessions, no slot left), not that a statement was wrong: the request may
 * succeed if tried again shortly, so the API answers 503 with Retry-After (platform/http/error-handler.ts). Judged by
 * the error alone: by the time anyone asks the database, the pool may have reconnected.
 */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  inChain(
    error,
    (e) =>
      (typeof e.code === 'string' &&
        (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_SOCKET_CODES.has(e.code))) ||
      hasMessage(CONNECT_TIMEOUT_MESSAGES)(e) ||
      hasMessage(NOT_SENT_MESSAGES)(e) ||
      hasMessage(GONE_MESSAGES)(e),
  )

/** The database refused or could not take a new connection, so nothing was sent on it. */
const neverConnected = (e: { code?: unknown }) =>
  e.code === 'ECONNREFUSED' || e.code === '57P03' || e.code === '53300'

/** A connect timeout: trying again at once would only wait as long again, on a server already slow. */
const isConnectTimeout = (error: unknown) => inChain(error, hasMessage(CONNECT_TIMEOUT_MESSAGES))

/** The database-unavailable error happened before the statement reached the server. */
const neverSent = (error: unknown) =>
  inChain(error, (e) => hasMessage(NOT_SENT_MESSAGES)(e) || neverConnected(e))

/** A single SELECT: read-only as our code writes them (no writing function is called from a bare select). */
const READ_ONLY_STATEMENT = /^\s*select\b/i

/**
 * May a single statement run outside a transaction (drizzle's `db.select()…`, `db.insert()…`, as
 * `pool.query`) that failed with `error` be sent again once? Only when the database was unavailable but
 * not slow to connect, and either the statement never reached the server, or it only reads: a write whose
 * connection broke may have committed before the answer was lost, and is not sent twice.
 */
export const statementRetryIsSafe = (statement: string, error: unknown): boolean =>
  isDatabaseUnavailable(error) &&
  !isConnectTimeout(error) &&
  (neverSent(error) || READ_ONLY_STATEMENT.test(statement))

/**
 * May a transaction that failed with `error` run again once? Only when the database was unavailable but
 * not slow to connect, and COMMIT was never sent (`committing` false: the failure came at connect, BEGIN or
 * a statement of the callback), so the server rolled it back when the session ended. Once COMMIT was sent
 * its outcome is unknown, and it is not run again.
 */
export const transactionRetryIsSafe = (committing: boolean, error: unknown): boolean =>
  !committing && isDatabaseUnavailable(error) && !isConnectTimeout(error)

/** PostgreSQL's unique_violation (SQLSTATE 23505), from either backend, wrapped by drizzle or not. */
export const isUniqueViolation = (error: unknown): boolean => errorCode(error) === '23505'

/** The SQLSTATE of a database error (either backend), if any. */
export const sqlState = errorCode
