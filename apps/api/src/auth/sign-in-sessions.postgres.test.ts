// A turn's sign-in sessions in one statement (ADR 089) on a real PostgreSQL server (`scripts/with-postgres.sh`):
// the statement can deadlock with another instance's holding one of its nonces, and then runs once more, as any
// statement the database ends does (ADR 091).
import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { slow, trackDatabases } from '../platform/db/client-test-helpers.ts'
import { authNonces } from '../platform/db/schema.ts'
import { testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'
import { createSessions } from './sign-in.ts'
import { verifyToStore } from './sign-in-test-helpers.ts'

const track = trackDatabases()

if (testDatabaseUrl()) {
  describe('PostgreSQL: a turn’s sign-in sessions', slow, () => {
    test('behavior: a deadlock with another transaction (it holds one of the turn’s nonces and asks for another) ends the statement, which runs again and stores every session', async () => {
      const database = track(await testDatabase())
      const pool = database.postgres?.pool
      if (!pool) throw new Error('not PostgreSQL')
      const now = new Date()
      // Stored in nonce order, so the statement meets `first` before `second` in any plan.
      const [first, second] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')].sort() as [
        string,
        string,
      ]
      await database.db.insert(authNonces).values(
        [first, second].map((nonce) => ({
          nonce,
          preauthHash: 'cookie',
          createdAt: now,
          expiresAt: new Date(now.getTime() + 600_000),
        })),
      )
      const verify = (nonce: string) => verifyToStore(nonce, 'cookie', now)
      // Another instance's transaction holds `second`.
      const other = await pool.connect()
      try {
        await other.query('begin')
        await other.query('update auth_nonces set consumed_at = null where nonce = $1', [second])
        const stored = createSessions(database.db, [verify(second), verify(first)])
        // The statement consumes `first`, then waits for `second`'s row.
        const waiting = async () => {
          // Inside a transaction the activity view is read once and kept, unless the snapshot is cleared.
          await other.query('select pg_stat_clear_snapshot()')
          const { rows } = await other.query(
            `select count(*)::int as n from pg_stat_activity where datname = current_database()
             and wait_event_type = 'Lock' and query like '%with picked as%' and pid <> pg_backend_pid()`,
          )
          return rows[0].n
        }
        await expect.poll(waiting, { timeout: 5_000 }).toBe(1)
        // Asking for `first` closes the cycle. The statement began waiting first, so its deadlock check runs
        // first and PostgreSQL ends it; this update then goes through.
        // Were this transaction the one ended, this update would throw: the statement was, and without its one
        // more try (retry-once.ts, ADR 091) `stored` would reject with 40P01.
        await other.query('update auth_nonces set consumed_at = null where nonce = $1', [first])
        await other.query('rollback')
        expect(await stored).toEqual([true, true])
      } finally {
        other.release()
      }
    })
  })
}
