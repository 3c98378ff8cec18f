// A PostgreSQL transaction whose last query carries its COMMIT (ADR 073): the statements before it go through
// drizzle on a connection taken from the pool, then ONE simple-protocol query runs the last statements and
// `commit`, so what they lock is let go by the database itself, with no round trip to this process inside.
import { type SQL, sql } from 'drizzle-orm'
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres'
import { PgDialect } from 'drizzle-orm/pg-core'
import type pg from 'pg'
import type { Database, Tx } from './client.ts'
import { isDatabaseUnavailable, neverSent } from './errors.ts'
import { transactionRetryIsSafe } from './retry-once.ts'

const dialect = new PgDialect()

/**
 * `query` as one string, its values inlined by drizzle's escaping: with no parameters node-postgres sends it
 * over the simple protocol, which runs its `;`-separated statements one after another in one message.
 */
const inlineQuery = (query: SQL): string => dialect.sqlToQuery(query.inlineParams()).sql

/** What the body of `transactionCommittedByLastQuery` sends besides drizzle's statements. */
export type LastQuery = {
  /** `statements` (`;`-separated) as one query inside the transaction: each statement's result. */
  simple(statements: SQL): Promise<pg.QueryResult[]>
  /**
   * `statements` (none: the commit alone), `commit`, then `after` (outside the transaction, e.g. a read of the
   * database's clock), as one query: each statement's result. Once it is sent, a broken connection
   * leaves the outcome unknown. When a statement fails the rest (the commit too) is skipped and the
   * transaction waits, aborted, for a `rollback to savepoint` or its end.
   */
  commit(statements?: SQL, after?: SQL): Promise<pg.QueryResult[]>
}

/**
 * Runs `body` in a transaction on a connection of its own (PostgreSQL only) and resolves to its result once
 * `body` has committed through `last.commit`. A transaction cut by the database going away before the commit
 * was sent, or ended by the database (a deadlock), runs again once (transactionRetryIsSafe, ADRs 036 and
 * 091); any failure rolls back and is thrown. The connection goes back to the pool, or is destroyed when its
 * state is unknown.
 */
export async function transactionCommittedByLastQuery<T>(
  database: Database,
  body: (tx: Tx, last: LastQuery) => Promise<T>,
): Promise<T> {
  const pool = database.postgres?.pool
  if (!pool) throw new Error('transactionCommittedByLastQuery needs PostgreSQL')
  let committing = false
  const run = async () => {
    const client = await pool.connect()
    let committed = false
    const send = async (text: string) => {
      const result = (await client.query(text)) as pg.QueryResult | pg.QueryResult[]
      return Array.isArray(result) ? result : [result]
    }
    try {
      await client.query('begin')
      const result = await body(txOn(database, client), {
        simple: (statements) => send(inlineQuery(statements)),
        async commit(statements, after) {
          committing = true
          try {
            const text = [statements, sql.raw('commit'), after].flatMap((part) =>
              part ? [inlineQuery(part)] : [],
            )
            const results = await send(text.join(';\n'))
            committed = true
            return results
          } catch (error) {
            // Not sent (a connection known dead), or refused by the server (the commit skipped): the
            // outcome is known, nothing committed. Only a connection lost with it sent leaves it unknown.
            if (neverSent(error) || !isDatabaseUnavailable(error)) committing = false
            throw error
          }
        },
      })
      if (!committed) throw new Error('the transaction ended without its last query')
      client.release()
      return result
    } catch (error) {
      if (committed) {
        client.release()
        throw error
      }
      try {
        await client.query('rollback')
        client.release()
      } catch (rollbackError) {
        // The connection's state is unknown: it is not lent again.
        client.release(rollbackError as Error)
      }
      throw error
    }
  }
  try {
    return await run()
  } catch (error) {
    if (!transactionRetryIsSafe(committing, error)) throw error
    committing = false
    return run()
  }
}

/** A drizzle transaction over `client` (as drizzle's own `db.transaction` makes one over a pool's connection). */
function txOn(database: Database, client: pg.PoolClient): Tx {
  const { fullSchema, schema, tableNamesMap } = database.db._
  const config = { fullSchema, schema: schema ?? {}, tableNamesMap }
  return new NodePgTransaction(dialect, new NodePgSession(client, dialect, config), config) as unknown as Tx
}
