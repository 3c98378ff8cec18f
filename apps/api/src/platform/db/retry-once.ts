// A statement or transaction cut by the database going away (a restart, failover, pooler, ended session)
// is sent again once, on another connection, when that cannot apply it twice (ADR 036); one the database
// itself ended whole (a deadlock it broke, a serialization failure) always runs again once (ADR 091).
import type { PgTransactionConfig } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import { endedByTheDatabase, isConnectTimeout, isDatabaseUnavailable, neverSent } from './errors.ts'

/** A single SELECT: read-only as our code writes them (no writing function is called from a bare select). */
const READ_ONLY_STATEMENT = /^\s*select\b/i

/**
 * May a single statement run outside a transaction (drizzle's `db.select()…`, `db.insert()…`, as
 * `pool.query`) that failed with `error` be sent again once? When the database ended it whole (a deadlock, a
 * serialization failure: nothing of it applied); or when the database was unavailable but not slow to
 * connect, and either the statement never reached the server, or it only reads: a write whose connection
 * broke may have committed before the answer was lost, and is not sent twice.
 */
export const statementRetryIsSafe = (statement: string, error: unknown): boolean =>
  endedByTheDatabase(error) ||
  (isDatabaseUnavailable(error) &&
    !isConnectTimeout(error) &&
    (neverSent(error) || READ_ONLY_STATEMENT.test(statement)))

/**
 * May a transaction that failed with `error` run again once? When the database ended it (a deadlock, a
 * serialization failure, even at COMMIT: the error itself says it was rolled back); or when the database
 * was unavailable but not slow to connect, and COMMIT was never sent (`committing` false: the failure came
 * at connect, BEGIN or a statement of the callback), so the server rolled it back when the session ended.
 * Once COMMIT was sent, a lost connection leaves its outcome unknown, and it is not run again.
 */
export const transactionRetryIsSafe = (committing: boolean, error: unknown): boolean =>
  endedByTheDatabase(error) || (!committing && isDatabaseUnavailable(error) && !isConnectTimeout(error))

/**
 * Statements outside a transaction (drizzle hands them to `pool.query`) are sent again once, on another
 * connection, when that is safe (statementRetryIsSafe): a connection cut by a restart, failover or pooler
 * then costs a request nothing. Callback calls (none of ours) pass through.
 */
export function retryStatementsOnce(pool: pg.Pool) {
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

/** What retryTransactionsOnce wraps: drizzle's `db.transaction`, whichever backend's transaction `Tx` is. */
type Transactional<Tx> = {
  transaction<T>(callback: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T>
}

/** Transactions run again once when they failed before COMMIT was sent (transactionRetryIsSafe). */
export function retryTransactionsOnce<Tx>(db: Transactional<Tx>) {
  const transaction = db.transaction.bind(db)
  // Callers' callbacks touch nothing but `tx` (see the top of client.ts), so running one again is safe.
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
