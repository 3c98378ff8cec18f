// A statement or transaction cut by the database going away (a restart, failover, pooler, ended session)
// is sent again once, on another connection, when that cannot apply it twice (ADR 036).
import type { PgTransactionConfig } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import { isConnectTimeout, isDatabaseUnavailable, neverSent, sqlState } from './errors.ts'

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

/**
 * SQLSTATEs of a statement or transaction the database itself ended, applying none of it, and that is safe to
 * run again whole: a deadlock it broke, a serialization failure.
 */
const ENDED_BY_THE_DATABASE = new Set(['40P01', '40001'])

/** Runs `run` (a statement or a whole transaction), and once more if the database ended it (ENDED_BY_THE_DATABASE). */
export async function runAgainOnceIfEnded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (!ENDED_BY_THE_DATABASE.has(sqlState(error) ?? '')) throw error
    return run()
  }
}
