// The database layer on both backends. The shared block runs on the backend `testDatabase()` picks:
// PGlite in memory by default, PostgreSQL when TEST_DATABASE_URL is set (`scripts/with-postgres.sh npx vitest
// run apps/api/src/db`). PGlite's own behaviour (persistence, one connection) is tested in every run;
// PostgreSQL's own (pool, migration lock) whenever a server is given.

import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, isNull, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterEach, describe, expect, test } from 'vitest'
import {
  type Database,
  isDatabaseUnavailable,
  isUniqueViolation,
  openDatabase,
  poolSettings,
  sqlState,
} from './client.ts'
import { authNonces, type NewSession, sessions } from './schema.ts'
import { testDatabase, testDatabaseUrl } from './test-database.ts'

const opened: Database[] = []
const track = <T extends Database>(database: T): T => {
  opened.push(database)
  return database
}
afterEach(async () => {
  // Last opened first: a test database is dropped only after the extra clients on it are closed.
  for (const database of opened.splice(0).reverse()) await database.close()
})

const minutes = (n: number) => new Date(Date.now() + n * 60_000)
const newSession = (overrides: Partial<NewSession> = {}): NewSession => ({
  tokenHash: `hash-${Math.random().toString(16).slice(2)}`,
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId: 31337,
  idleExpiresAt: minutes(60),
  absoluteExpiresAt: minutes(60 * 24 * 7),
  userAgent: 'vitest',
  ...overrides,
})

const backend = testDatabaseUrl() ? 'postgres' : 'pglite'

// Opening a PGlite runs initdb in WebAssembly: seconds on a busy 2-core machine.
const slow = { timeout: 60_000 }

describe(`database on ${backend} (the backend integration tests get)`, slow, () => {
  test('testDatabase() gives a migrated database of the expected kind, and migrating again changes nothing', async () => {
    const { db, kind, migrate } = track(await testDatabase())
    expect(kind).toBe(backend)
    await migrate()
    const columns = await db.execute<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`)
    expect(columns.rows.map((r) => `${r.table_name}.${r.column_name}`)).toEqual([
      'auth_nonces.nonce',
      'auth_nonces.preauth_hash',
      'auth_nonces.created_at',
      'auth_nonces.expires_at',
      'auth_nonces.consumed_at',
      'ballots.proposal_id',
      'ballots.voter',
      'ballots.vote_id',
      'ballots.timestamp',
      'ballots.power',
      'delegate_statements.id',
      'delegate_statements.delegate',
      'delegate_statements.timestamp',
      'delegate_statements.message',
      'delegate_statements.signature',
      'delegate_statements.received_at',
      'governance_log.seq',
      'governance_log.kind',
      'governance_log.message_id',
      'governance_log.proposal_id',
      'governance_log.signature',
      'governance_log.prev_hash',
      'governance_log.hash',
      'governance_log.created_at',
      'member_eligibility_counted.proposal_id',
      'member_eligibility_counted.snapshot',
      'member_eligibility_counted.done',
      'member_eligibility_counted.counted_through',
      'member_stats.address',
      'member_stats.votes',
      'member_stats.balance',
      'member_stats.delegate',
      'member_stats.delegators',
      'member_stats.votes_cast',
      'member_stats.eligible_proposals',
      'member_stats.participation',
      'member_stats.last_vote_at',
      'member_stats.listed',
      'name_profiles.address',
      'name_profiles.name',
      'name_profiles.avatar_record',
      'name_profiles.avatar_url',
      'name_profiles.resolved_at',
      'name_profiles.expires_at',
      'name_profiles.requested_at',
      'proposal_tallies.proposal_id',
      'proposal_tallies.voters',
      'proposal_tallies.voting_power',
      'proposal_tallies.quorum_power',
      'proposal_tallies.per_choice',
      'proposal_tallies.last_seq',
      'proposals.id',
      'proposals.author',
      'proposals.start',
      'proposals.end',
      'proposals.snapshot',
      'proposals.message',
      'proposals.signature',
      'proposals.created_at',
      'rate_limits.key',
      'rate_limits.points',
      'rate_limits.expire',
      'sessions.id',
      'sessions.token_hash',
      'sessions.address',
      'sessions.chain_id',
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.idle_expires_at',
      'sessions.absolute_expires_at',
      'sessions.revoked_at',
      'sessions.user_agent',
      'token_balance_checkpoints.account',
      'token_balance_checkpoints.block',
      'token_balance_checkpoints.balance',
      'token_delegate_changes.delegator',
      'token_delegate_changes.block',
      'token_delegate_changes.delegate',
      'token_index_blocks.number',
      'token_index_blocks.hash',
      'token_index_cursor.id',
      'token_index_cursor.chain_id',
      'token_index_cursor.token',
      'token_index_cursor.from_block',
      'token_index_cursor.block',
      'token_index_cursor.block_hash',
      'token_index_cursor.updated_at',
      'token_index_cursor.total_votes',
      'token_index_cursor.block_time',
      'token_vote_checkpoints.delegate',
      'token_vote_checkpoints.block',
      'token_vote_checkpoints.votes',
      'token_vote_checkpoints.block_time',
      'votes.id',
      'votes.proposal_id',
      'votes.voter',
      'votes.timestamp',
      'votes.message',
      'votes.signature',
      'votes.power',
      'votes.power_source',
      'votes.received_at',
    ])
    const indexes = await db.execute<{ indexname: string }>(sql`
      select indexname from pg_indexes where schemaname = 'public' order by indexname`)
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      'auth_nonces_expires_at_idx',
      'auth_nonces_pkey',
      'ballots_by_power_idx',
      'ballots_by_time_idx',
      'ballots_by_voter_idx',
      'ballots_proposal_id_voter_pk',
      'delegate_statements_latest_idx',
      'delegate_statements_pkey',
      'governance_log_message_id_unique',
      'governance_log_pkey',
      'governance_log_proposal_seq_idx',
      'member_eligibility_counted_pkey',
      'member_stats_address_prefix_idx',
      'member_stats_by_delegate_idx',
      'member_stats_by_delegators_idx',
      'member_stats_by_participation_idx',
      'member_stats_by_votes_idx',
      'member_stats_pkey',
      'name_profiles_name_prefix_idx',
      'name_profiles_pkey',
      'name_profiles_requested_at_idx',
      'proposal_tallies_pkey',
      'proposals_by_author_idx',
      'proposals_by_start_idx',
      'proposals_end_idx',
      'proposals_pkey',
      'rate_limits_pkey',
      'sessions_address_idx',
      'sessions_pkey',
      'sessions_token_hash_unique',
      'token_balance_checkpoints_account_block_pk',
      'token_delegate_changes_delegator_block_pk',
      'token_index_blocks_pkey',
      'token_index_cursor_pkey',
      'token_vote_checkpoints_delegate_block_pk',
      'votes_pkey',
      'votes_proposal_idx',
    ])
    const applied = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )
    // Every migration in the journal, each once.
    const journal = JSON.parse(
      await readFile(new URL('../../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
    ) as { entries: unknown[] }
    expect(journal.entries.length).toBeGreaterThanOrEqual(7)
    expect(applied.rows[0]?.n).toBe(journal.entries.length)
  })

  test('a session and a nonce round-trip: defaults filled (uuid id, now() timestamps), Dates back, nulls kept', async () => {
    const { db } = track(await testDatabase())
    const before = Date.now()
    const [inserted] = await db
      .insert(sessions)
      .values(newSession({ tokenHash: 'abc' }))
      .returning()
    expect(inserted?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, 'abc'))
    expect(row).toEqual(inserted)
    expect(row?.createdAt).toBeInstanceOf(Date)
    expect(Math.abs((row?.createdAt.getTime() ?? 0) - before)).toBeLessThan(60_000)
    expect(row?.lastSeenAt.getTime()).toBe(row?.createdAt.getTime())
    expect(row?.revokedAt).toBeNull()
    expect(row?.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')

    const expiresAt = new Date('2030-01-02T03:04:05.678Z')
    await db.insert(authNonces).values({ nonce: 'n1', preauthHash: 'p1', expiresAt })
    const [nonce] = await db.select().from(authNonces)
    expect(nonce).toMatchObject({ nonce: 'n1', preauthHash: 'p1', expiresAt, consumedAt: null })
  })

  test('a transaction whose callback throws leaves nothing behind, and the error reaches the caller', async () => {
    const { db } = track(await testDatabase())
    const failure = new Error('boom')
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(sessions).values(newSession())
        await tx.insert(authNonces).values({ nonce: 'n', preauthHash: 'p', expiresAt: minutes(10) })
        throw failure
      }),
    ).rejects.toBe(failure)
    expect(await db.$count(sessions)).toBe(0)
    expect(await db.$count(authNonces)).toBe(0)
    // The connection is usable afterwards and a committed transaction persists.
    await db.transaction(async (tx) => {
      await tx.insert(sessions).values(newSession())
    })
    expect(await db.$count(sessions)).toBe(1)
  })

  test('a duplicate token hash is a unique violation isUniqueViolation() recognises; other errors are not', async () => {
    const { db } = track(await testDatabase())
    await db.insert(sessions).values(newSession({ tokenHash: 'same' }))
    const duplicate = await db
      .insert(sessions)
      .values(newSession({ tokenHash: 'same' }))
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(duplicate).toBeInstanceOf(Error)
    expect(isUniqueViolation(duplicate)).toBe(true)
    expect(sqlState(duplicate)).toBe('23505')

    const notNull = await db.execute(sql`insert into sessions (token_hash) values ('x')`).then(
      () => null,
      (error: unknown) => error,
    )
    expect(sqlState(notNull)).toBe('23502')
    expect(isUniqueViolation(notNull)).toBe(false)
    expect(isUniqueViolation(new Error('plain'))).toBe(false)
    expect(isUniqueViolation(undefined)).toBe(false)
  })

  test('20 concurrent transactions consuming one nonce (UPDATE … WHERE consumed_at IS NULL RETURNING) create exactly one session', async () => {
    const { db } = track(await testDatabase())
    await db.insert(authNonces).values({ nonce: 'once', preauthHash: 'p', expiresAt: minutes(10) })
    const attempt = (i: number) =>
      db.transaction(async (tx) => {
        const consumed = await tx
          .update(authNonces)
          .set({ consumedAt: sql`now()` })
          .where(
            and(
              eq(authNonces.nonce, 'once'),
              eq(authNonces.preauthHash, 'p'),
              isNull(authNonces.consumedAt),
              sql`${authNonces.expiresAt} > now()`,
            ),
          )
          .returning({ nonce: authNonces.nonce })
        if (consumed.length === 0) return false
        await tx.insert(sessions).values(newSession({ tokenHash: `t${i}` }))
        return true
      })
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await db.$count(sessions)).toBe(1)
    const [nonce] = await db.select().from(authNonces)
    expect(nonce?.consumedAt).toBeInstanceOf(Date)
  })

  test('ping() is true while open, false after close(); close() twice is harmless', async () => {
    const database = await testDatabase()
    expect(await database.ping()).toBe(true)
    await database.close()
    expect(await database.ping()).toBe(false)
    await database.close()
    expect(await database.ping()).toBe(false)
  })
})

describe('PGlite', slow, () => {
  test('without a data dir it is in memory: a second database starts empty', async () => {
    const first = track(await openDatabase())
    expect(first.kind).toBe('pglite')
    await first.migrate()
    await first.db.insert(sessions).values(newSession())
    const second = track(await openDatabase())
    await second.migrate()
    expect(await second.db.$count(sessions)).toBe(0)
  })

  test('20 concurrent transactions all complete, one after another (never interleaved)', async () => {
    const { db } = track(await openDatabase())
    await db.execute(sql`create table counter (n integer not null)`)
    await db.execute(sql`insert into counter values (0)`)
    let active = 0
    let maxActive = 0
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          active++
          maxActive = Math.max(maxActive, active)
          // read-modify-write: lost updates would show if transactions overlapped
          const [row] = (await tx.execute<{ n: number }>(sql`select n from counter`)).rows
          await new Promise((resolve) => setImmediate(resolve))
          await tx.execute(sql`update counter set n = ${(row?.n ?? 0) + 1}`)
          active--
          return i
        }),
      ),
    )
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(maxActive).toBe(1)
    const [row] = (await db.execute<{ n: number }>(sql`select n from counter`)).rows
    expect(row?.n).toBe(20)
  })

  test('requests queued on the one connection still let timers and sockets in: a timer fires between their queries', async () => {
    const { db } = track(await openDatabase())
    let finished = 0
    let finishedWhenTimerFired: number | undefined
    setTimeout(() => {
      finishedWhenTimerFired = finished
    }, 0)
    // 20 requests of 10 queries each, one after another as a request makes them.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 10; i++) {
          await db.execute(sql`select ${i}::int as n`)
          finished++
        }
      }),
    )
    expect(finished).toBe(200)
    expect(finishedWhenTimerFired).toBeDefined()
    expect(finishedWhenTimerFired).toBeLessThan(200)
  })

  test('a query outside an open transaction waits for it: it neither sees nor joins the uncommitted work', async () => {
    const { db, migrate } = track(await openDatabase())
    await migrate()
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let inserted = () => {}
    const insertedInTx = new Promise<void>((resolve) => {
      inserted = resolve
    })
    const transaction = db.transaction(async (tx) => {
      await tx.insert(sessions).values(newSession())
      inserted()
      await held
      tx.rollback()
    })
    await insertedInTx
    let outsideDone = false
    const outside = db.$count(sessions).then((n) => {
      outsideDone = true
      return n
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(outsideDone).toBe(false)
    release()
    await expect(transaction).rejects.toThrow('Rollback')
    expect(await outside).toBe(0)
  })

  test('rows survive closing and reopening the same data dir (and the folder is created)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'guildhall-db-'))
    const dataDir = join(root, 'data', 'db')
    try {
      const first = await openDatabase({ dataDir })
      await first.migrate()
      const [session] = await first.db
        .insert(sessions)
        .values(newSession({ tokenHash: 'kept' }))
        .returning()
      await first.close()

      const second = await openDatabase({ dataDir })
      try {
        await second.migrate()
        const rows = await second.db.select().from(sessions)
        expect(rows).toEqual([session])
      } finally {
        await second.close()
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

const serverUrl = testDatabaseUrl()
if (serverUrl) {
  describe('PostgreSQL (TEST_DATABASE_URL)', slow, () => {
    test('the pool sets the statement timeout (10 s) and a name for the server', async () => {
      const { db } = track(await testDatabase())
      const { rows } = await db.execute<{ statement_timeout: string; application_name: string }>(
        sql`select current_setting('statement_timeout') as statement_timeout, current_setting('application_name') as application_name`,
      )
      expect(rows[0]).toEqual({ statement_timeout: '10s', application_name: 'guildhall' })
    })

    test('two servers migrating one fresh database at once both succeed, migrations applied once', async () => {
      const fresh = track(await testDatabase())
      // A second, empty database: drop what testDatabase() migrated and let two clients race.
      await fresh.db.execute(sql`drop schema drizzle cascade`)
      await fresh.db.execute(
        sql`drop table sessions, auth_nonces, ballots, proposal_tallies, votes, delegate_statements, governance_log, proposals, token_balance_checkpoints, token_delegate_changes, token_index_blocks, token_index_cursor, token_vote_checkpoints, rate_limits, member_eligibility_counted, member_stats, name_profiles`,
      )
      const url = (await fresh.db.execute<{ db: string }>(sql`select current_database() as db`)).rows[0]
        ?.db as string
      const databaseUrl = new URL(serverUrl)
      databaseUrl.pathname = `/${url}`
      const a = track(await openDatabase({ databaseUrl: databaseUrl.toString() }))
      const b = track(await openDatabase({ databaseUrl: databaseUrl.toString() }))
      await Promise.all([a.migrate(), b.migrate()])
      expect(await a.db.$count(sessions)).toBe(0)
      const applied = await a.db.execute<{ n: number }>(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )
      // Every migration in the journal, each once.
      const journal = JSON.parse(
        await readFile(new URL('../../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
      ) as { entries: unknown[] }
      expect(journal.entries.length).toBeGreaterThanOrEqual(12)
      expect(applied.rows[0]?.n).toBe(journal.entries.length)
    })

    describe('a session ended by the server (restart, failover, pooler: pg_terminate_backend)', () => {
      /** Ends the session running a statement that contains `marker`, once it runs (bounded wait). */
      async function terminateWhenRunning(url: string, marker: string): Promise<void> {
        const admin = new pg.Client({ connectionString: url })
        await admin.connect()
        try {
          for (let attempt = 0; attempt < 500; attempt++) {
            const { rows } = await admin.query<{ ended: boolean }>(
              `select pg_terminate_backend(pid) as ended from pg_stat_activity
               where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
                 and position($1 in query) > 0`,
              [marker],
            )
            if (rows.some((row) => row.ended)) return
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
          throw new Error(`no running statement with ${marker}`)
        } finally {
          await admin.end()
        }
      }
      const nonceRow = (nonce: string) => ({ nonce, preauthHash: 'h', expiresAt: minutes(10) })

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

    test('ping() answers false (without throwing) when the server cannot be reached', async () => {
      const unreachable = new URL(serverUrl)
      unreachable.port = '1'
      const database = track(await openDatabase({ databaseUrl: unreachable.toString() }))
      expect(database.kind).toBe('postgres')
      expect(await database.ping()).toBe(false)
    })
  })
}
