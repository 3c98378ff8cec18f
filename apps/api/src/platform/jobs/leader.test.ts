// Token index leadership: one process leads at a time, and another takes over within seconds when the
// leader stops or its database session dies (PostgreSQL, under scripts/with-postgres.sh); on PGlite the one
// process always leads.
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../db/test-database.ts'
import { type LeaderRole, Leadership, TOKEN_INDEX_LEADER_LOCK_KEY } from './leader.ts'

const RETRY_MS = 100
/** A takeover must happen within a few retries. */
const TAKEOVER_MS = 3_000

const started: Leadership[] = []
const databases: TestDatabase[] = []
afterEach(async () => {
  for (const leadership of started.splice(0)) await leadership.stop()
  for (const database of databases.splice(0)) await database.close()
})

/** A leadership whose transitions are recorded in `events`. */
function contender(connect: ConstructorParameters<typeof Leadership>[0]['connect']) {
  const events: LeaderRole[] = []
  const leadership = new Leadership({
    connect,
    retryMs: RETRY_MS,
    onLead: () => {
      events.push('leader')
    },
    onStandby: () => {
      events.push('standby')
    },
  })
  started.push(leadership)
  return { leadership, events }
}

async function waitFor(check: () => boolean, timeoutMs = TAKEOVER_MS): Promise<number> {
  const from = Date.now()
  while (!check()) {
    if (Date.now() - from > timeoutMs) throw new Error(`not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return Date.now() - from
}

test('behavior: without a PostgreSQL connection (PGlite, one process) the instance leads at once, and stands by on stop()', async () => {
  const { leadership, events } = contender(undefined)
  expect(leadership.role).toBe('standby')
  leadership.start()
  await waitFor(() => leadership.role === 'leader', 1_000)
  expect(events).toEqual(['leader'])
  await leadership.stop()
  expect(leadership.role).toBe('standby')
  expect(events).toEqual(['leader', 'standby'])
})

const serverUrl = testDatabaseUrl()
if (serverUrl) {
  describe('PostgreSQL (TEST_DATABASE_URL): two instances on one database', () => {
    test('behavior: exactly one leads; when it stops, or its session is killed, the other leads within seconds and the old one stands by', async () => {
      const database = await testDatabase()
      databases.push(database)
      const connect = database.postgres?.newClient
      expect(connect).toBeDefined()
      const a = contender(connect)
      const b = contender(connect)
      a.leadership.start()
      await waitFor(() => a.leadership.role === 'leader')
      b.leadership.start()
      // Several of b's tries later, a still leads alone.
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 5))
      expect([a.leadership.role, b.leadership.role]).toEqual(['leader', 'standby'])
      expect(b.events).toEqual([])

      // A clean stop releases the lock: b takes over.
      await a.leadership.stop()
      await waitFor(() => b.leadership.role === 'leader')
      expect(a.events).toEqual(['leader', 'standby'])

      // a stands by again; b's session dies as a killed process's would (PostgreSQL ends it, the lock goes).
      a.leadership.start()
      const holder = await database.db.execute<{ pid: number }>(
        sql`select pid from pg_locks where locktype = 'advisory' and objid = ${TOKEN_INDEX_LEADER_LOCK_KEY} and granted`,
      )
      expect(holder.rows).toHaveLength(1)
      await database.db.execute(sql`select pg_terminate_backend(${holder.rows[0]?.pid})`)
      const tookOver = await waitFor(() => a.leadership.role === 'leader')
      // b notices on its next check and stops its index: never two leaders for long.
      await waitFor(() => b.leadership.role === 'standby')
      expect(b.events).toEqual(['leader', 'standby'])
      expect(a.events).toEqual(['leader', 'standby', 'leader'])
      console.log(`leader failover after the session died: ${tookOver} ms`)
    })
  })
}
