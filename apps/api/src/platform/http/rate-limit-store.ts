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

type Done = Parameters<FastifyRateLimitStore['incr']>[1]
/**
 * What the plugin hands a store: its options, merged with a route's limit and, under `routeInfo`, the route
 * (its typings name the route options themselves).
 */
type RouteLimit = { routeInfo?: { method?: string | string[]; url?: string } }

/** Expired counts are deleted this often, by whichever instance counts first after the time has passed. */
const PRUNE_EVERY_MS = 5 * 60_000

/** One key's requests of a turn: its window and each request's callback, in arrival order. */
type KeyCounts = { windowMs: number; waiting: Done[] }

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

/** The counts of one database's instance: the requests of a turn are counted together (see above). */
class TurnCounter {
  readonly #pool: pg.Pool
  #pending = new Map<string, KeyCounts>()
  #scheduled = false
  #counting = false
  #prunedAt = Date.now()

  constructor(pool: pg.Pool) {
    this.#pool = pool
  }

  count(key: string, windowMs: number, done: Done) {
    const counts = this.#pending.get(key)
    if (counts) counts.waiting.push(done)
    else this.#pending.set(key, { windowMs, waiting: [done] })
    this.#schedule()
  }

  /**
   * After the turn's I/O callbacks, so the requests read in this turn are counted together; while a count is
   * in flight, after it: one statement at a time, the requests that came meanwhile counted in the next.
   */
  #schedule() {
    if (this.#scheduled || this.#counting) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#counting = true
      this.#flush().finally(() => {
        this.#counting = false
        if (this.#pending.size > 0) this.#schedule()
      })
    })
  }

  async #flush() {
    const pending = this.#pending
    this.#pending = new Map()
    const rows = [...pending].map(([key, { windowMs, waiting }]) => ({
      key,
      points: waiting.length,
      window_ms: windowMs,
    }))
    let counted: { key: string; points: number; ttl: string }[]
    try {
      counted = (await this.#pool.query(COUNT_STATEMENT, [JSON.stringify(rows)])).rows
    } catch (error) {
      for (const { waiting } of pending.values()) for (const done of waiting) done(error as Error)
      return
    }
    for (const { key, points, ttl } of counted) {
      const { waiting } = pending.get(key) as KeyCounts
      // The turn's requests of this key took the last `waiting.length` points, in arrival order.
      const first = points - waiting.length + 1
      for (const [index, done] of waiting.entries()) done(null, { current: first + index, ttl: Number(ttl) })
    }
    if (Date.now() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = Date.now()
      // Not waited for: the next count need not queue behind it. What fails now is pruned next time.
      this.#pool.query(PRUNE_STATEMENT).catch(() => undefined)
    }
  }
}

/** A store class for @fastify/rate-limit's `store` option; each route counts apart, as with its own store. */
export function postgresRateLimitStore(pool: pg.Pool): FastifyRateLimitStoreCtor {
  const counter = new TurnCounter(pool)
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string

    constructor(options: object) {
      const { method = '', url = '' } = (options as RouteLimit).routeInfo ?? {}
      this.#route = `${[method].flat().join(',')} ${url}`
    }

    incr(key: string, done: Done, timeWindow: number): void {
      // Counted even past the limit, as the in-memory store does.
      counter.count(`${this.#route}:${key}`, timeWindow, done)
    }

    child(routeLimit: object): PostgresRateLimitStore {
      return new PostgresRateLimitStore(routeLimit)
    }
  }
}
