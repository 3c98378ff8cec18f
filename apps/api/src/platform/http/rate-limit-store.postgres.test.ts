// The shared rate-limit store (rate-limit-store.ts, ADR 077) on a real PostgreSQL server
// (`scripts/with-postgres.sh`): a turn's counts in one statement, two instances counting one key, windows
// that end, expired rows pruned, a database that fails.
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { describe, expect, test, vi } from 'vitest'
import { openDatabase } from '../db/client.ts'
import { slow, trackDatabases } from '../db/client-test-helpers.ts'
import { rateLimits } from '../db/schema.ts'
import { testDatabase, testDatabaseUrl } from '../db/test-database.ts'
import { postgresRateLimitStore } from './rate-limit-store.ts'

const track = trackDatabases()

type Counted = { current: number; ttl: number }

type Pool = Parameters<typeof postgresRateLimitStore>[0]

/** A route's store, as @fastify/rate-limit makes one from the app's (`child` with the route's options). */
const routeStore = (app: FastifyRateLimitStore, url: string) =>
  app.child({ routeInfo: { method: 'POST', url } } as never)
/** The app's store on `pool`, and `url`'s. */
const appStore = (pool: Pool) => new (postgresRateLimitStore(pool))({} as never)

const count = (store: FastifyRateLimitStore, key: string, windowMs = 60_000) =>
  new Promise<Counted>((resolve, reject) =>
    store.incr(key, (error, result) => (error ? reject(error) : resolve(result as Counted)), windowMs, 10),
  )

/** The statements `pool` is sent from now on. */
function statementsSent(pool: Pool) {
  const sent: string[] = []
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
  pool.query = ((...args: unknown[]) => {
    sent.push(String(args[0]))
    return query(...args)
  }) as typeof pool.query
  return sent
}

if (testDatabaseUrl()) {
  describe('PostgreSQL: rate-limit counts shared by the instances', slow, () => {
    test('behavior: 50 requests of one turn from one client are counted in one statement, 1 to 50 in arrival order, each with the window left; another client and another route count apart', async () => {
      const database = track(await testDatabase())
      const pool = database.postgres?.pool as Pool
      const sent = statementsSent(pool)
      const app = appStore(pool)
      const votes = routeStore(app, '/api/proposals/:id/votes')
      const statements = routeStore(app, '/api/delegates/statements')
      const [mine, theirs, elsewhere] = await Promise.all([
        Promise.all(Array.from({ length: 50 }, () => count(votes, '10.0.0.1'))),
        Promise.all(Array.from({ length: 3 }, () => count(votes, '10.0.0.2'))),
        count(statements, '10.0.0.1'),
      ])
      expect(sent).toHaveLength(1)
      expect(mine.map((counted) => counted.current)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
      expect(theirs.map((counted) => counted.current)).toEqual([1, 2, 3])
      expect(elsewhere.current).toBe(1)
      for (const { ttl } of [...mine, ...theirs, elsewhere]) {
        expect(ttl).toBeGreaterThan(55_000)
        expect(ttl).toBeLessThanOrEqual(60_000)
      }
      // The next turn goes on from there, in the same window.
      expect((await count(votes, '10.0.0.1')).current).toBe(51)
      const rows = await database.db.select().from(rateLimits).orderBy(rateLimits.key)
      expect(rows.map(({ key, points }) => [key, points])).toEqual([
        ['POST /api/delegates/statements:10.0.0.1', 1],
        ['POST /api/proposals/:id/votes:10.0.0.1', 51],
        ['POST /api/proposals/:id/votes:10.0.0.2', 3],
      ])
    })

    test('behavior: one count in flight at a time: the requests of the turns that come while it runs are counted together in the next statement', async () => {
      const database = track(await testDatabase())
      const pool = database.postgres?.pool as Pool
      const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      pool.query = (async (...args: unknown[]) => {
        await held
        return query(...args)
      }) as typeof pool.query
      const sent = statementsSent(pool)
      const store = routeStore(appStore(pool), '/x')
      const first = Promise.all(Array.from({ length: 5 }, () => count(store, 'a')))
      const later: Promise<Counted>[] = []
      for (let turn = 0; turn < 5; turn++) {
        await new Promise((resolve) => setImmediate(resolve))
        later.push(count(store, 'a'), count(store, 'a'))
      }
      expect(sent).toHaveLength(1)
      release()
      expect((await first).map((counted) => counted.current)).toEqual([1, 2, 3, 4, 5])
      expect((await Promise.all(later)).map((counted) => counted.current)).toEqual([
        6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
      ])
      expect(sent).toHaveLength(2)
    })

    test('behavior: two instances (two pools) counting one client at once: every count from 1 to 400 is given exactly once, none lost', async () => {
      const database = track(await testDatabase())
      const other = track(await openDatabase({ databaseUrl: database.url as string }))
      const stores = [database, other].map((instance) =>
        routeStore(appStore(instance.postgres?.pool as Pool), '/api/votes'),
      )
      const counted: number[] = []
      // 20 turns on each instance, 10 requests a turn, the two interleaved.
      await Promise.all(
        stores.map(async (store) => {
          for (let turn = 0; turn < 20; turn++) {
            const answers = await Promise.all(Array.from({ length: 10 }, () => count(store, '10.0.0.9')))
            counted.push(...answers.map((answer) => answer.current))
          }
        }),
      )
      expect(counted.sort((a, b) => a - b)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1))
    })

    test('behavior: a window that has ended starts again from the requests that come after it', async () => {
      const database = track(await testDatabase())
      const store = routeStore(appStore(database.postgres?.pool as Pool), '/x')
      expect(
        (await Promise.all([count(store, 'a', 300), count(store, 'a', 300)])).map((c) => c.current),
      ).toEqual([1, 2])
      await new Promise((resolve) => setTimeout(resolve, 400))
      const [again] = await Promise.all([count(store, 'a', 300)])
      expect(again).toMatchObject({ current: 1 })
      expect(again?.ttl).toBeGreaterThan(200)
    })

    test('behavior: expired counts are deleted by the first count made five minutes after the last prune; live ones stay', async () => {
      const database = track(await testDatabase())
      const pool = database.postgres?.pool as Pool
      const now = Date.now()
      const clock = vi.spyOn(Date, 'now').mockReturnValue(now)
      try {
        const store = routeStore(appStore(pool), '/x')
        await count(store, 'expired', 1)
        await count(store, 'live')
        await new Promise((resolve) => setTimeout(resolve, 20))
        await count(store, 'live')
        // Not yet five minutes: the expired count stays.
        expect((await database.db.select().from(rateLimits)).length).toBe(2)
        clock.mockReturnValue(now + 5 * 60_000)
        const sent = statementsSent(pool)
        await count(store, 'live')
        await vi.waitFor(() => expect(sent).toHaveLength(2))
        await vi.waitFor(async () =>
          expect((await database.db.select().from(rateLimits)).map((row) => [row.key, row.points])).toEqual([
            ['POST /x:live', 3],
          ]),
        )
      } finally {
        clock.mockRestore()
      }
    })

    test('error: when the database cannot count, every request of the turn gets the error (the app answers 503), and the next turn counts again', async () => {
      const database = track(await testDatabase())
      const pool = database.postgres?.pool as Pool
      const store = routeStore(appStore(pool), '/x')
      const query = pool.query.bind(pool)
      pool.query = (() => Promise.reject(new Error('connection terminated'))) as unknown as typeof pool.query
      const failed = await Promise.allSettled([count(store, 'a'), count(store, 'b')])
      expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected'])
      pool.query = query
      expect((await count(store, 'a')).current).toBe(1)
    })
  })
}
