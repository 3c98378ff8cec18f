// @fastify/rate-limit's counts in PostgreSQL (ADR 022), so every API instance on one database counts the
// same requests: a store over rate-limiter-flexible's RateLimiterPostgres and the `rate_limits` table
// (created by the migrations). The plugin keeps doing the rest: counting in onRequest, 429 with Retry-After.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { getTableName } from 'drizzle-orm'
import type pg from 'pg'
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import { rateLimits } from '../db/schema.ts'

type Done = Parameters<FastifyRateLimitStore['incr']>[1]
/**
 * What the plugin hands a store: its options, merged with a route's limit and, under `routeInfo`, the route
 * (its typings name the route options themselves).
 */
type RouteLimit = { routeInfo?: { method?: string | string[]; url?: string } }

/** A store class for @fastify/rate-limit's `store` option; each route counts apart, as with its own store. */
export function postgresRateLimitStore(pool: pg.Pool): FastifyRateLimitStoreCtor {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string
    readonly #limiters = new Map<string, RateLimiterPostgres>()

    constructor(options: object) {
      const { method = '', url = '' } = (options as RouteLimit).routeInfo ?? {}
      this.#route = `${[method].flat().join(',')} ${url}`
    }

    incr(key: string, done: Done, timeWindow: number, max: number): void {
      // Counted even past the limit, as the in-memory store does; consume() rejects then with the count.
      const count = (res: RateLimiterRes) =>
        done(null, { current: res.consumedPoints, ttl: res.msBeforeNext })
      this.#limiter(timeWindow, max)
        .consume(key)
        .then(count, (error: unknown) =>
          error instanceof RateLimiterRes ? count(error) : done(error as Error),
        )
    }

    child(routeLimit: object): PostgresRateLimitStore {
      return new PostgresRateLimitStore(routeLimit)
    }

    #limiter(timeWindow: number, max: number): RateLimiterPostgres {
      const id = `${timeWindow}/${max}`
      let limiter = this.#limiters.get(id)
      if (!limiter) {
        limiter = new RateLimiterPostgres({
          storeClient: pool,
          storeType: 'pool',
          tableName: getTableName(rateLimits),
          tableCreated: true,
          keyPrefix: this.#route,
          points: max,
          duration: Math.max(1, Math.ceil(timeWindow / 1000)),
        })
        this.#limiters.set(id, limiter)
      }
      return limiter
    }
  }
}
