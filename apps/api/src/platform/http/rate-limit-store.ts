// @fastify/rate-limit's counts in PostgreSQL (ADR 022, ADR 077), so every API instance on one database
// counts the same requests. The plugin keeps doing the rest: counting in onRequest, 429 with Retry-After.
// The counts an instance takes in one event-loop turn go to the database together: one upsert for all of
// them, one row per key moved by its number of requests. A closing hour's votes come in bursts, many from
// one address (a mobile carrier's or an office's NAT), and one upsert per request had them queue on that
// key's row lock and cost a round trip each.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { getTableName } from 'drizzle-orm'
import type pg from 'pg'
import { rateLimits } from '../db/schema.ts'
import { TurnBatches } from '../db/turn-batches.ts'

type Done = Parameters<FastifyRateLimitStore['incr']>[1]
/**
 * What the plugin hands a store: its options, merged with a route's limit and, under `routeInfo`, the route
 * (its typings name the route options themselves).
 */
type RouteLimit = { routeInfo?: { method?: string | string[]; url?: string } }

/** Expired counts are deleted this often, by whichever instance counts first after the time has passed. */
const PRUNE_EVERY_MS = 5 * 60_000

/** Now in milliseconds on the database's clock (the instances' may differ), the same all through a statement. */
const NOW_MS = '(extract(epoch from statement_timestamp()) * 1000)::bigint'
const TABLE = getTableName(rateLimits)

/**
 * Moves every key of `$1` by its number of requests in one statement, in key order (two instances moving
 * the same keys lock their rows in the same order). A key whose window has ended starts again from its
 * requests. Answers each key's points and the milliseconds left in its window.
 */
const COUNT_STATEMENT = `
  insert into ${TABLE} as r (key, points, expire)
  select x.key, x.points, ${NOW_MS} + x.window_ms
  from jsonb_to_recordset($1::jsonb) as x(key text, points integer, window_ms bigint)
  order by x.key
  on conflict (key) do update set
    points = case when r.expire is null or r.expire <= ${NOW_MS} then excluded.points else r.points + excluded.points end,
    expire = case when r.expire is null or r.expire <= ${NOW_MS} then excluded.expire else r.expire end
  returning key, points, expire - ${NOW_MS} as ttl`
const PRUNE_STATEMENT = `delete from ${TABLE} where expire <= ${NOW_MS}`

type Count = { key: string; windowMs: number }
type Counted = { current: number; ttl: number }

/**
 * The counts of one database's instance, a turn's in one statement (db/turn-batches.ts): each key moved by
 * its number of requests, each request answered with its own count.
 */
function turnCounter(pool: pg.Pool) {
  let prunedAt = Date.now()
  return new TurnBatches<Count, Counted>(async (counts) => {
    const byKey = new Map<string, { windowMs: number; requests: number }>()
    for (const { key, windowMs } of counts) {
      const known = byKey.get(key)
      if (known) known.requests++
      else byKey.set(key, { windowMs, requests: 1 })
    }
    const rows = [...byKey].map(([key, { windowMs, requests }]) => ({
      key,
      points: requests,
      window_ms: windowMs,
    }))
    // Named: planned once per connection.
    const { rows: counted } = await pool.query<{ key: string; points: number; ttl: string }>({
      name: 'rate_limit_count',
      text: COUNT_STATEMENT,
      values: [JSON.stringify(rows)],
    })
    // The turn's requests of a key took its last points, in arrival order.
    const next = new Map(
      counted.map(({ key, points, ttl }) => [
        key,
        { current: points - (byKey.get(key)?.requests ?? 0) + 1, ttl: Number(ttl) },
      ]),
    )
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now()
      // Not waited for: the next count need not queue behind it. What fails now is pruned next time.
      pool.query(PRUNE_STATEMENT).catch(() => undefined)
    }
    return counts.map(({ key }) => {
      const answer = next.get(key) as Counted
      next.set(key, { ...answer, current: answer.current + 1 })
      return answer
    })
  })
}

/** A store class for @fastify/rate-limit's `store` option; each route counts apart, as with its own store. */
export function postgresRateLimitStore(pool: pg.Pool): FastifyRateLimitStoreCtor {
  const counter = turnCounter(pool)
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string

    constructor(options: object) {
      const { method = '', url = '' } = (options as RouteLimit).routeInfo ?? {}
      this.#route = `${[method].flat().join(',')} ${url}`
    }

    incr(key: string, done: Done, timeWindow: number): void {
      // Counted even past the limit, as the in-memory store does.
      counter.add({ key: `${this.#route}:${key}`, windowMs: timeWindow }).then(
        (counted) => done(null, counted),
        (error: unknown) => done(error as Error),
      )
    }

    child(routeLimit: object): PostgresRateLimitStore {
      return new PostgresRateLimitStore(routeLimit)
    }
  }
}
