// The database layer on both backends. The shared block runs on the backend `testDatabase()` picks:
// PGlite in memory by default, PostgreSQL when TEST_DATABASE_URL is set (`scripts/with-postgres.sh npx vitest
// run apps/api/src/platform/db`). PostgreSQL's own (pool, migration lock) is tested whenever a server is given;
// PGlite's own in pglite.test.ts, a statement or transaction sent again once in retry-once.postgres.test.ts.

import { readFile } from 'node:fs/promises'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { openDatabase } from './client.ts'
import { backend, minutes, newSession, slow, trackDatabases } from './client-test-helpers.ts'
import { authNonces, sessions } from './schema.ts'
import { testDatabase, testDatabaseUrl } from './test-database.ts'

const track = trackDatabases()

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
      'ballots.ranking',
      'comment_flags.comment_id',
      'comment_flags.author',
      'comment_flags.reason',
      'comment_flags.power',
      'comment_flags.log_seq',
      'comment_flags.power_block',
      'comment_versions.version_id',
      'comment_versions.comment_id',
      'comment_versions.body',
      'comment_versions.mentions',
      'comment_versions.timestamp',
      'comment_versions.log_seq',
      'comments.id',
      'comments.thread_id',
      'comments.parent_id',
      'comments.depth',
      'comments.path',
      'comments.author',
      'comments.body',
      'comments.mentions',
      'comments.version_id',
      'comments.versions',
      'comments.created_at',
      'comments.edited_at',
      'comments.log_seq',
      'comments.withdrawn_seq',
      'comments.hidden_by',
      'comments.hidden_reason',
      'comments.hidden_at',
      'comments.hidden_seq',
      'comments.hidden_auto',
      'comments.flag_count',
      'delegate_statements.id',
      'delegate_statements.delegate',
      'delegate_statements.timestamp',
      'delegate_statements.message',
      'delegate_statements.signature',
      'delegate_statements.received_at',
      'discussion_keys.key',
      'discussion_keys.member',
      'discussion_keys.scopes',
      'discussion_keys.expires',
      'discussion_keys.timestamp',
      'discussion_keys.id',
      'discussion_keys.message',
      'discussion_keys.signature',
      'discussion_keys.log_seq',
      'discussion_keys.revoked_seq',
      'discussion_keys.revoked_at',
      'discussion_messages.id',
      'discussion_messages.kind',
      'discussion_messages.thread_id',
      'discussion_messages.author',
      'discussion_messages.key',
      'discussion_messages.message',
      'discussion_messages.signature',
      'discussion_messages.log_seq',
      'discussion_messages.taken_down_at',
      'discussion_messages.takedown_reason',
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
      'moderation_actions.log_seq',
      'moderation_actions.id',
      'moderation_actions.kind',
      'moderation_actions.moderator',
      'moderation_actions.target',
      'moderation_actions.thread_id',
      'moderation_actions.reason',
      'moderation_actions.at',
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
      'ranked_results.proposal_id',
      'ranked_results.as_of_seq',
      'ranked_results.result',
      'ranked_results.settled_at',
      'rate_limits.key',
      'rate_limits.points',
      'rate_limits.expire',
      'reactions.target_id',
      'reactions.author',
      'reactions.reaction',
      'reactions.on',
      'reactions.log_seq',
      'safe_executions.safe_tx_hash',
      'safe_executions.proposal_id',
      'safe_executions.safe',
      'safe_executions.nonce',
      'safe_executions.transaction',
      'safe_executions.domain_hash',
      'safe_executions.message_hash',
      'safe_executions.state',
      'safe_executions.queued_block',
      'safe_executions.safe_nonce_at_queue',
      'safe_executions.queued_at',
      'safe_executions.outcome_transaction',
      'safe_executions.outcome_safe_tx_hash',
      'safe_executions.outcome_block',
      'safe_executions.outcome_timestamp',
      'safe_signatures.safe_tx_hash',
      'safe_signatures.owner',
      'safe_signatures.signature',
      'safe_signatures.log_seq',
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
      'thread_visits.member',
      'thread_visits.thread_id',
      'thread_visits.seq',
      'threads.id',
      'threads.kind',
      'threads.proposal_id',
      'threads.topic_id',
      'threads.comment_count',
      'threads.last_activity_seq',
      'threads.locked_by',
      'threads.locked_reason',
      'threads.locked_at',
      'threads.locked_seq',
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
      'topics.id',
      'topics.author',
      'topics.category',
      'topics.title',
      'topics.body',
      'topics.mentions',
      'topics.created_at',
      'topics.log_seq',
      'topics.proposal_id',
      'treasury_balances.token',
      'treasury_balances.start',
      'treasury_balances.balance',
      'treasury_blocks.number',
      'treasury_blocks.hash',
      'treasury_cursor.id',
      'treasury_cursor.chain_id',
      'treasury_cursor.safe',
      'treasury_cursor.tokens',
      'treasury_cursor.from_block',
      'treasury_cursor.block',
      'treasury_cursor.block_hash',
      'treasury_cursor.next_nonce',
      'treasury_cursor.updated_at',
      'treasury_daily_balances.token',
      'treasury_daily_balances.day',
      'treasury_daily_balances.balance',
      'treasury_events.block',
      'treasury_events.log_index',
      'treasury_events.sub',
      'treasury_events.timestamp',
      'treasury_events.transaction_hash',
      'treasury_events.kind',
      'treasury_events.sign',
      'treasury_events.token',
      'treasury_events.amount',
      'treasury_events.counterparty',
      'treasury_events.detail',
      'treasury_events.safe_tx_hash',
      'treasury_events.safe_nonce',
      'treasury_monthly_flows.token',
      'treasury_monthly_flows.month',
      'treasury_monthly_flows.incoming',
      'treasury_monthly_flows.outgoing',
      'votes.id',
      'votes.proposal_id',
      'votes.voter',
      'votes.timestamp',
      'votes.message',
      'votes.signature',
      'votes.power',
      'votes.power_source',
      'votes.received_at',
      'votes.reason_log_seq',
      'webhook_cursor.id',
      'webhook_cursor.log_seq',
      'webhook_cursor.clock_since',
      'webhook_deliveries.webhook',
      'webhook_deliveries.event_id',
      'webhook_deliveries.state',
      'webhook_deliveries.attempts',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.last_status',
      'webhook_deliveries.last_error',
      'webhook_deliveries.created_at',
      'webhook_deliveries.delivered_at',
      'webhook_disabled.webhook',
      'webhook_disabled.url_hash',
      'webhook_disabled.status',
      'webhook_disabled.at',
      'webhook_events.id',
      'webhook_events.type',
      'webhook_events.payload',
      'webhook_events.created_at',
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
      'comment_flags_comment_id_author_pk',
      'comment_versions_comment_idx',
      'comment_versions_pkey',
      'comments_pkey',
      'comments_thread_path_idx',
      'delegate_statements_latest_idx',
      'delegate_statements_pkey',
      'discussion_keys_id_unique',
      'discussion_keys_member_idx',
      'discussion_keys_pkey',
      'discussion_messages_log_seq_unique',
      'discussion_messages_pkey',
      'discussion_messages_thread_idx',
      'governance_log_message_kind_unique',
      'governance_log_pkey',
      'governance_log_proposal_seq_idx',
      'member_eligibility_counted_pkey',
      'member_stats_address_prefix_idx',
      'member_stats_by_delegate_idx',
      'member_stats_by_delegators_idx',
      'member_stats_by_participation_idx',
      'member_stats_by_votes_idx',
      'member_stats_pkey',
      'moderation_actions_pkey',
      'moderation_actions_target_idx',
      'name_profiles_name_prefix_idx',
      'name_profiles_pkey',
      'name_profiles_requested_at_idx',
      'proposal_tallies_pkey',
      'proposals_by_author_idx',
      'proposals_by_start_idx',
      'proposals_end_idx',
      'proposals_pkey',
      'ranked_results_pkey',
      'rate_limits_pkey',
      'reactions_target_id_author_reaction_pk',
      'safe_executions_one_queued_idx',
      'safe_executions_pkey',
      'safe_executions_proposal_idx',
      'safe_executions_safe_nonce_idx',
      'safe_signatures_safe_tx_hash_owner_pk',
      'sessions_address_idx',
      'sessions_pkey',
      'sessions_token_hash_unique',
      'thread_visits_member_thread_id_pk',
      'threads_by_activity_idx',
      'threads_pkey',
      'token_balance_checkpoints_account_block_pk',
      'token_delegate_changes_delegator_block_pk',
      'token_index_blocks_pkey',
      'token_index_cursor_pkey',
      'token_vote_checkpoints_delegate_block_pk',
      'topics_pkey',
      'topics_proposal_idx',
      'treasury_balances_pkey',
      'treasury_blocks_pkey',
      'treasury_cursor_pkey',
      'treasury_daily_balances_token_day_pk',
      'treasury_events_block_log_index_sub_pk',
      'treasury_events_kind_idx',
      'treasury_events_safe_tx_hash_idx',
      'treasury_events_timestamp_idx',
      'treasury_events_token_idx',
      'treasury_monthly_flows_token_month_pk',
      'votes_by_voter_idx',
      'votes_pkey',
      'votes_proposal_idx',
      'votes_reason_seq_idx',
      'webhook_cursor_pkey',
      'webhook_deliveries_created_idx',
      'webhook_deliveries_due_idx',
      'webhook_deliveries_webhook_event_id_pk',
      'webhook_disabled_pkey',
      'webhook_events_created_idx',
      'webhook_events_pkey',
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
      // Every table, whatever later migrations add: the public schema itself, made again empty.
      await fresh.db.execute(sql`drop schema public cascade`)
      await fresh.db.execute(sql`create schema public`)
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

    test('ping() answers false (without throwing) when the server cannot be reached', async () => {
      const unreachable = new URL(serverUrl)
      unreachable.port = '1'
      const database = track(await openDatabase({ databaseUrl: unreachable.toString() }))
      expect(database.kind).toBe('postgres')
      expect(await database.ping()).toBe(false)
    })
  })
}
