// Which API process runs the token index when several share one PostgreSQL database (docs/deploy.md):
// the one holding a session-level advisory lock, taken on a connection of its own (outside the pool, whose
// connections come and go). When that process dies, PostgreSQL ends its session and the lock with it; the
// others try every `retryMs` and one takes over. On PGlite there is one process, always the leader.
//
// Leadership saves work; it is not what keeps the index right: every range is applied under the cursor
// check (token-index.ts), so two indexers running at once (say, while a dead leader's session lingers)
// never apply a range twice.
import type pg from 'pg'
import type { Database } from '../db/client.ts'
import { BackgroundLoop } from './background-loop.ts'

/** A fixed key for pg_try_advisory_lock, distinct from the migration lock's (platform/db/client.ts). */
export const TOKEN_INDEX_LEADER_LOCK_KEY = 7_007_002
/** How often a standby tries the lock, and the leader checks its connection is alive. */
const DEFAULT_LEADER_RETRY_MS = 2_000

export type LeaderRole = 'leader' | 'standby'

export type LeadershipOptions = {
  /** A new connection outside the pool (PostgreSQL); undefined on PGlite, where this process always leads. */
  connect: (() => pg.Client) | undefined
  /** Called when this process becomes the leader; may be called again after it lost and regained the lock. */
  onLead: () => void | Promise<void>
  /** Called when this process stops leading (its connection died, or `stop()`). */
  onStandby: () => void | Promise<void>
  retryMs?: number
  logger?: { warn(details: object, message: string): void; info(message: string): void }
}

export class Leadership {
  readonly #options: LeadershipOptions
  readonly #retryMs: number
  #role: LeaderRole = 'standby'
  #client: pg.Client | undefined
  /** PostgreSQL: a try every `retryMs`. */
  readonly #loop: BackgroundLoop
  /** PGlite: leading from `start()` on. */
  #leading: Promise<void> | undefined

  constructor(options: LeadershipOptions) {
    this.#options = options
    this.#retryMs = options.retryMs ?? DEFAULT_LEADER_RETRY_MS
    this.#loop = new BackgroundLoop({
      pass: async () => {
        await this.#try()
        return 'idle'
      },
      pollMs: this.#retryMs,
      // A try handles its own failures (it stands by); nothing reaches here.
      backoffMs: () => this.#retryMs,
      onFailure: () => undefined,
    })
  }

  get role(): LeaderRole {
    return this.#role
  }

  /** Starts trying to lead (at once on PGlite) and keeps trying until `stop()`. */
  start(): void {
    if (this.#options.connect) this.#loop.start()
    else this.#leading ??= this.#lead()
  }

  /** Stops leading (onStandby first, then the lock is released with its connection). */
  async stop(): Promise<void> {
    await this.#loop.stop()
    await this.#leading
    this.#leading = undefined
    await this.#standBy()
    await this.#disconnect()
  }

  /** Checks the lock is still held, or tries to take it; a failure stands by. */
  async #try(): Promise<void> {
    try {
      const client = await this.#connection()
      if (this.#role === 'leader') {
        // The lock lives as long as this session: a query that answers proves both are still there.
        await client.query('select 1')
      } else {
        const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1) as held', [
          TOKEN_INDEX_LEADER_LOCK_KEY,
        ])
        if (rows[0]?.held && !this.#loop.stopping) await this.#lead()
      }
    } catch (error) {
      if (this.#role === 'leader')
        this.#options.logger?.warn({ err: error }, 'token index leadership lost: its connection failed')
      await this.#standBy()
      await this.#disconnect()
    }
  }

  async #connection(): Promise<pg.Client> {
    if (this.#client) return this.#client
    const client = (this.#options.connect as () => pg.Client)()
    // An error on an idle client (the server ended the session) is seen by the next query; without a
    // listener it would crash the process.
    client.on('error', () => undefined)
    this.#client = client
    await client.connect()
    return client
  }

  async #disconnect(): Promise<void> {
    const client = this.#client
    this.#client = undefined
    // Ending the session releases the advisory lock.
    await client?.end().catch(() => undefined)
  }

  async #lead(): Promise<void> {
    if (this.#role === 'leader') return
    this.#role = 'leader'
    this.#options.logger?.info('token index leadership: this instance runs the token index')
    await this.#options.onLead()
  }

  async #standBy(): Promise<void> {
    if (this.#role === 'standby') return
    this.#role = 'standby'
    await this.#options.onStandby()
  }
}

/** What only the leader runs: started when this instance leads, stopped when it no longer does. */
export type LeaderJob = { start(): void; stop(): Promise<void> }

/**
 * One instance runs the background jobs (the token index, the name refresher) when several share a
 * PostgreSQL database: the holder of the leader lock (ADR 022). On PGlite the one process leads.
 */
export function leaderJobs(
  database: Database | undefined,
  jobs: (LeaderJob | undefined)[],
  logger: NonNullable<LeadershipOptions['logger']>,
): Leadership | undefined {
  const running = jobs.filter((job) => job !== undefined)
  if (!database || running.length === 0) return undefined
  return new Leadership({
    connect: database.postgres?.newClient,
    onLead: () => {
      for (const job of running) job.start()
    },
    onStandby: async () => {
      await Promise.all(running.map((job) => job.stop()))
    },
    logger,
  })
}
