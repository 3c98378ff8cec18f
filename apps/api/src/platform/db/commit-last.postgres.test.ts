// A transaction whose last query carries its COMMIT (commit-last.ts), on a real PostgreSQL server
// (`scripts/with-postgres.sh`): sessions ended by the server before and during that query.
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, test } from 'vitest'
import { slow, terminateWhenRunning, trackDatabases } from './client-test-helpers.ts'
import { transactionCommittedByLastQuery } from './commit-last.ts'
import { isDatabaseUnavailable, sqlState } from './errors.ts'
import { authNonces } from './schema.ts'
import { testDatabase, testDatabaseUrl } from './test-database.ts'

const track = trackDatabases()

const nonce = (name: string) =>
  sql`insert into auth_nonces (nonce, preauth_hash, expires_at) values (${name}, 'h', now() + interval '1 hour')`
const nonces = async (database: { db: import('./client.ts').Db }) =>
  (await database.db.select({ nonce: authNonces.nonce }).from(authNonces)).map((row) => row.nonce).sort()

if (testDatabaseUrl()) {
  describe('PostgreSQL: a transaction committed by its last query', slow, () => {
    test('behavior: the last query runs its statements and the commit in one message (values inlined, quotes escaped); what the body did before is committed with it', async () => {
      const database = track(await testDatabase())
      const sent: string[] = []
      const wrapped = new WeakSet<pg.PoolClient>()
      database.postgres?.pool.on('acquire', (client) => {
        if (wrapped.has(client)) return
        wrapped.add(client)
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
        client.query = ((...args: unknown[]) => {
          sent.push(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text))
          return query(...args)
        }) as typeof client.query
      })
      const result = await transactionCommittedByLastQuery(database, async (tx, last) => {
        await tx
          .insert(authNonces)
          .values({ nonce: 'before', preauthHash: 'h', expiresAt: new Date(Date.now() + 60_000) })
        const [, selected] = await last.commit(sql`${nonce("it's last")}; select ${'a'} || ${"'b"} as joined`)
        return selected?.rows
      })
      expect(result).toEqual([{ joined: "a'b" }])
      const during = [...sent]
      expect(await nonces(database)).toEqual(['before', "it's last"])
      expect(during[0]).toBe('begin')
      expect(during.at(-1)).toMatch(
        /^insert into auth_nonces .*'it''s last'.*;\s*select 'a' \|\| '''b' as joined;\s*commit$/s,
      )
      expect(during.filter((text) => /\bcommit\b/.test(text))).toHaveLength(1)
    })

    test('behavior: a statement given as `after` runs in the same message after the commit, outside the transaction; each statement answers in order', async () => {
      const database = track(await testDatabase())
      const results = await transactionCommittedByLastQuery(database, (_tx, last) =>
        last.commit(
          sql`${nonce('committed')}; select txid_current_if_assigned() is not null as in_transaction`,
          sql`select txid_current_if_assigned() is not null as in_transaction, count(*)::int as stored from auth_nonces`,
        ),
      )
      expect(results.map((result) => result.command)).toEqual(['INSERT', 'SELECT', 'COMMIT', 'SELECT'])
      expect(results[1]?.rows).toEqual([{ in_transaction: true }])
      // After the commit: no transaction of its own yet, and the insert already visible.
      expect(results[3]?.rows).toEqual([{ in_transaction: false, stored: 1 }])
    })

    test('behavior: the session ended before the last query was sent (COMMIT never sent) → the whole transaction runs again once and commits once', async () => {
      const database = track(await testDatabase())
      let runs = 0
      const ran = await transactionCommittedByLastQuery(database, async (tx, last) => {
        runs++
        await tx.execute(nonce(`first ${runs}`))
        if (runs === 1) {
          const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)
          const admin = new pg.Client({ connectionString: database.url as string })
          await admin.connect()
          await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid])
          await admin.end()
        }
        await last.commit(nonce(`last ${runs}`))
        return runs
      })
      expect(ran).toBe(2)
      expect(await nonces(database)).toEqual(['first 2', 'last 2'])
    })

    test('error: the session ended during the last query (its COMMIT sent, outcome unknown) → not run again, the database-unavailable error thrown, the connection not lent again', async () => {
      const database = track(await testDatabase())
      const pool = database.postgres?.pool as pg.Pool
      let runs = 0
      const failed = transactionCommittedByLastQuery(database, async (tx, last) => {
        runs++
        await tx.execute(nonce('first'))
        await last.commit(sql`select pg_sleep(0.5) /* last-cut */; ${nonce('last')}`)
      }).then(
        () => undefined,
        (error: unknown) => error,
      )
      await terminateWhenRunning(database.url as string, 'last-cut')
      const error = await failed
      expect(isDatabaseUnavailable(error)).toBe(true)
      expect(runs).toBe(1)
      expect(await nonces(database)).toEqual([])
      // Every connection left in the pool answers.
      expect(pool.totalCount).toBe(pool.idleCount)
      expect(await nonces(database)).toEqual([])
    })

    test('error: a statement of the last query refused (a unique violation) → the rest and the commit skipped, rolled back, thrown with its SQLSTATE; the connection goes back clean', async () => {
      const database = track(await testDatabase())
      await database.db.execute(nonce('taken'))
      const error = await transactionCommittedByLastQuery(database, async (tx, last) => {
        await tx.execute(nonce('before'))
        await last.commit(sql`${nonce('after')}; ${nonce('taken')}`)
      }).then(
        () => undefined,
        (failed: unknown) => failed,
      )
      expect(sqlState(error)).toBe('23505')
      expect(await nonces(database)).toEqual(['taken'])
      const pool = database.postgres?.pool as pg.Pool
      const client = await pool.connect()
      try {
        // An aborted transaction left open would refuse this.
        expect((await client.query('select 1 as ok')).rows).toEqual([{ ok: 1 }])
      } finally {
        client.release()
      }
    })

    test('error: a body that returns without its last query is a bug: thrown, and nothing it did is kept', async () => {
      const database = track(await testDatabase())
      await expect(
        transactionCommittedByLastQuery(database, async (tx) => {
          await tx.execute(nonce('forgotten'))
        }),
      ).rejects.toThrow('the transaction ended without its last query')
      expect(await nonces(database)).toEqual([])
    })
  })
}
