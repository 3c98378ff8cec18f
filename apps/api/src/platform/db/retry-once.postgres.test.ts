// A statement or transaction cut by the database going away is sent again once when that is safe
// (retry-once.ts): sessions ended by a real PostgreSQL server (`scripts/with-postgres.sh`).
import { once } from 'node:events'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, test } from 'vitest'
import { poolSettings } from './client.ts'
import { minutes, slow, terminateWhenRunning, trackDatabases } from './client-test-helpers.ts'
import { isDatabaseUnavailable, sqlState } from './errors.ts'
import { authNonces } from './schema.ts'
import { testDatabase, testDatabaseUrl } from './test-database.ts'

const track = trackDatabases()

const serverUrl = testDatabaseUrl()
if (serverUrl) {
  describe('PostgreSQL (TEST_DATABASE_URL)', slow, () => {
    const nonceRow = (nonce: string) => ({ nonce, preauthHash: 'h', expiresAt: minutes(10) })

    describe('a session ended by the server (restart, failover, pooler: pg_terminate_backend)', () => {
      test('behavior: a SELECT cut mid-statement is sent again once and answers; an INSERT cut the same way is not (its outcome is unknown): database-unavailable, nothing written', async () => {
        const database = track(await testDatabase())
        // A drizzle query runs when `then` is called: both are started here, then their sessions ended.
        const read = database.db
          .execute<{ n: number }>(sql`select 1 as n /* read-cut */ from pg_sleep(0.5)`)
          .then((result) => result.rows)
        await terminateWhenRunning(database.url as string, 'read-cut')
        expect(await read).toEqual([{ n: 1 }])

        const write = database.db
          .execute(
            sql`insert into auth_nonces (nonce, preauth_hash, expires_at)
                select 'cut', 'h', now() + interval '1 hour' /* write-cut */ from pg_sleep(0.5)`,
          )
          .then(
            () => undefined,
            (failed: unknown) => failed,
          )
        await terminateWhenRunning(database.url as string, 'write-cut')
        const error = await write
        expect(isDatabaseUnavailable(error)).toBe(true)
        expect(await database.db.$count(authNonces)).toBe(0)
      })

      test('behavior: a transaction whose lent-out connection is ended between two statements runs again once (COMMIT never sent) and commits once; the process does not crash on the ended session', async () => {
        const database = track(await testDatabase())
        const pool = database.postgres?.pool as pg.Pool
        let lent: pg.PoolClient | undefined
        pool.on('acquire', (client) => {
          lent = client
        })
        let runs = 0
        const ran = await database.db.transaction(async (tx) => {
          runs++
          await tx.insert(authNonces).values(nonceRow('once'))
          if (runs === 1) {
            const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)
            // The connection sits idle in the transaction, lent out, when its session is ended.
            const heard = once(lent as pg.PoolClient, 'error')
            const admin = new pg.Client({ connectionString: database.url as string })
            await admin.connect()
            await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid])
            await admin.end()
            await heard
          }
          await tx.insert(authNonces).values(nonceRow('twice'))
          return runs
        })
        expect(ran).toBe(2)
        expect(
          (await database.db.select({ nonce: authNonces.nonce }).from(authNonces)).map((r) => r.nonce).sort(),
        ).toEqual(['once', 'twice'])
      })

      test('error: a BEGIN that fails gives its connection back to the pool (patched drizzle), so failures cannot drain the pool', async () => {
        const database = track(await testDatabase())
        const pool = database.postgres?.pool as pg.Pool
        const badConfig = { isolationLevel: 'no such level' as 'serializable' }
        for (let n = 0; n < poolSettings.max + 2; n++) {
          const failed = await database.db
            .transaction(async () => 'ran', badConfig)
            .then(
              () => undefined,
              (error: unknown) => sqlState(error),
            )
          expect(failed).toBe('42601')
        }
        expect({ total: pool.totalCount, idle: pool.idleCount }).toEqual({
          total: pool.totalCount,
          idle: pool.totalCount,
        })
        expect(
          await database.db.transaction(async (tx) => (await tx.execute(sql`select 1 as n`)).rows),
        ).toEqual([{ n: 1 }])
      })
    })

    describe('a statement or transaction the database ends to break a deadlock (ADR 091)', () => {
      /**
       * Two unspent nonces, in key order, and a transaction of another session holding the second. `closeCycle`
       * waits until a statement marked `marker` holds the first and waits for the second, then asks for the
       * first: a cycle. The statement began waiting first, so its deadlock check runs first and PostgreSQL ends
       * it (were it `other`, `closeCycle` would throw); then `other` rolls back, so a try again goes through.
       */
      async function lockedNonces(database: Awaited<ReturnType<typeof testDatabase>>) {
        const pool = database.postgres?.pool as pg.Pool
        const [first, second] = ['nonce-a', 'nonce-b']
        await database.db.insert(authNonces).values([nonceRow(first), nonceRow(second)])
        const other = await pool.connect()
        await other.query('begin')
        await other.query('update auth_nonces set consumed_at = null where nonce = $1', [second])
        const closeCycle = async (marker: string) => {
          const waiting = async () => {
            // Inside a transaction the activity view is read once and kept, unless the snapshot is cleared.
            await other.query('select pg_stat_clear_snapshot()')
            const { rows } = await other.query(
              `select count(*)::int as n from pg_stat_activity where datname = current_database()
               and wait_event_type = 'Lock' and query like $1 and pid <> pg_backend_pid()`,
              [`%${marker}%`],
            )
            return rows[0].n
          }
          await expect.poll(waiting, { timeout: 5_000 }).toBe(1)
          await other.query('update auth_nonces set consumed_at = null where nonce = $1', [first])
          await other.query('rollback')
          other.release()
        }
        return { first, second, closeCycle }
      }
      const consumed = async (database: Awaited<ReturnType<typeof testDatabase>>) =>
        (await database.db.select().from(authNonces))
          .filter((row) => row.consumedAt !== null)
          .map((row) => row.nonce)
          .sort()

      test('behavior: a write outside a transaction ended by the deadlock runs again once and answers; it applied once', async () => {
        const database = track(await testDatabase())
        const { first, second, closeCycle } = await lockedNonces(database)
        // In key order: the statement meets `first` before `second` in any plan. A drizzle query runs when
        // `then` is called: started here.
        const write = database.db
          .execute(
            sql`update auth_nonces set consumed_at = now() /* deadlock-statement */ where nonce in (${first}, ${second}) returning nonce`,
          )
          .then((result) => result.rows)
        await closeCycle('deadlock-statement')
        expect(await write).toHaveLength(2)
        expect(await consumed(database)).toEqual([first, second])
      })

      test('behavior: a transaction ended by the deadlock runs again once, whole, and commits once', async () => {
        const database = track(await testDatabase())
        const { first, second, closeCycle } = await lockedNonces(database)
        let runs = 0
        const ran = database.db.transaction(async (tx) => {
          runs++
          await tx.execute(sql`update auth_nonces set consumed_at = now() where nonce = ${first}`)
          await tx.execute(
            sql`update auth_nonces set consumed_at = now() /* deadlock-transaction */ where nonce = ${second}`,
          )
          return runs
        })
        await closeCycle('deadlock-transaction')
        expect(await ran).toBe(2)
        expect(await consumed(database)).toEqual([first, second])
      })
    })
  })
}
