// The database behind the API (ADR 007): PGlite (PostgreSQL compiled to WebAssembly, in-process) by default,
// PostgreSQL through `pg` when a URL is configured. Both give the same drizzle query API over the same schema
// and the same committed migrations, so services are written once against `Db` / `Tx`.
//
// PGlite is one connection. Every statement waits for the one before it, and a transaction holds the
// connection until it ends, so concurrent transactions run one after another (never interleaved).
// Consequence for callers: inside `db.transaction(async (tx) => …)` use `tx` only. A query on `db` from
// inside the callback waits for the transaction that is waiting for it, and never finishes on PGlite
// (on PostgreSQL it would run on another connection, outside the transaction).
//
// Around it: errors.ts says what a database error means, retry-once.ts sends a statement or transaction cut
// by the database going away again once when that is safe (ADR 036), listen.ts keeps PostgreSQL's LISTEN.
import { mkdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import type { Assume } from 'drizzle-orm'
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { listenPostgres } from './listen.ts'
import { retryStatementsOnce, retryTransactionsOnce } from './retry-once.ts'
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
   * PGlite only: a copy of its data folder (a gzipped tar, for `loadDataDir`), taken between two transactions
   * so it holds every transaction committed before it and nothing of one after (ADR 067).
   */
  dump?: () => Promise<Blob>
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

const gzipAsync = promisify(gzip)

/**
 * The committed migrations, found relative to this module (not the working directory): apps/api/drizzle from
 * the TypeScript sources (tsx, Vitest), the copy beside the bundle once built (`npm run build`, ADR 066).
 */
export const migrationsFolder = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../../../drizzle' : './drizzle', import.meta.url),
)

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
    // Every transaction holds PGlite's transaction lock, and so does every statement outside one: inside it the
    // files (tables and write-ahead log) hold every commit so far and no transaction half done, a copy
    // PostgreSQL opens as after a crash. The dump itself takes only the query lock. Compressed after the lock
    // is let go (on libuv's threads), so writes wait for the copy of the files only; in large chunks, since
    // each chunk waits for a turn of an event loop busy with requests (16 KiB ones: 46 s under vote load).
    async dump() {
      const tar = await client._runExclusiveTransaction(() => client.dumpDataDir('none'))
      const zipped = await gzipAsync(new Uint8Array(await tar.arrayBuffer()), { chunkSize: 2 ** 20 })
      return new Blob([new Uint8Array(zipped)], { type: 'application/x-gzip' })
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
      listenPostgres(
        { databaseUrl, connectionTimeoutMillis: poolSettings.connectionTimeoutMillis },
        channel,
        { onNotify, onReconnect, onError: onPoolError },
      ),
  }
}
