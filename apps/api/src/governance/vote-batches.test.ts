// Votes in batches (ADR 062): several instances, each with its own vote writer, on one database (PGlite, or
// PostgreSQL under scripts/with-postgres.sh) and a real chain (anvil with the demo DAO). Whatever the
// interleaving, the stored tallies equal a recount and the log stays one chain with every writer's entries;
// a vote refused inside a batch or before it fails none of the others; a batch whose transaction fails
// answers each of its votes 503 and leaves nothing.
import { logChainProblem, TIMESTAMP_MAX_AGE_SECONDS, voteId } from '@guildhall/core'
import { asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import type { Hex, PrivateKeyAccount } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  appOn,
  ben,
  cleo,
  createProposal,
  database,
  domain,
  finn,
  governanceDeps,
  postVote,
  signedVote,
  useGovernanceBed,
} from '../../testbed/beds/governance.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { postJson } from '../../testbed/test-app.ts'
import { checkMemberStats } from '../member-stats/vote-moves.ts'
import { type Database, openDatabase } from '../platform/db/client.ts'
import { terminateWhenRunning } from '../platform/db/client-test-helpers.ts'
import { ballots, governanceLog, proposalTallies, votes } from '../platform/db/schema.ts'
import { testDatabaseUrl } from '../platform/db/test-database.ts'
import { ApiError } from '../platform/http/errors.ts'
import { silentObserver } from '../platform/observer.ts'
import { LOG_CHANNEL, LOG_HEAD_MOVED, LOG_LOCK_KEY, type LogNotice, logEntry } from './log.ts'
import { tallyRules } from './tallies.ts'
import { checkTallies } from './tally-check.ts'
import { type CheckedVote, type VoteAnswer, VoteWriter } from './vote-writer.ts'
import { castVote } from './votes.ts'

useGovernanceBed()

/** The whole log, in order, as one chain from the genesis: the first problem, or null. */
async function logProblem() {
  const rows = await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
  const entries = rows.map(logEntry)
  expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1))
  return logChainProblem(entries)
}

/** A vote signed by `voter` on a proposal, checked as the request would check it, for a writer of its own. */
async function checkedVote(
  voter: PrivateKeyAccount,
  proposal: Awaited<ReturnType<typeof createProposal>>,
  fields: { timestamp?: number; choices?: number[]; reason?: string } = {},
): Promise<CheckedVote> {
  const { message, signature } = await signedVote(voter, proposal.id, fields)
  return {
    id: voteId(domain, message),
    proposalId: proposal.id,
    message,
    signature,
    power: 1_000n,
    powerSource: 'index',
    rules: tallyRules(proposal.message),
  }
}

/** What a writer reported of its log appends: one line per transaction. */
function countingObserver() {
  const appends: number[] = []
  return { appends, observer: { ...silentObserver, logAppended: (entries: number) => appends.push(entries) } }
}

describe('votes in batches across instances', () => {
  let others: FastifyInstance[]
  beforeAll(async () => {
    others = [await appOn(anvil.url), await appOn(anvil.url)]
  })
  afterAll(async () => {
    for (const other of others) await other.close()
  })

  test('property: concurrent first votes, re-votes, superseded votes and replays through three instances, while proposals are created → every stored tally equals a recount, the log is one chain (seqs 1..n), the members directory equals a recount', async () => {
    const voters = [ada, ben, cleo]
    const step = fc.record({
      voter: fc.integer({ min: 0, max: voters.length - 1 }),
      instance: fc.integer({ min: 0, max: 2 }),
      // A narrow window of seconds, so equal timestamps (the lower id wins) and earlier votes come up often.
      age: fc.integer({ min: 0, max: 4 }),
      choice: fc.integer({ min: 1, max: 3 }),
      // Sent again (the very same signed vote) through another instance.
      replay: fc.boolean(),
    })
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 10 }),
        fc.array(step, { minLength: 0, maxLength: 10 }),
        async (first, second) => {
          run += 1
          const proposals = [
            await createProposal(ada, { title: `Batches ${run} a` }),
            await createProposal(ben, {
              title: `Batches ${run} b`,
              kind: 'single-choice',
              choices: ['Oak', 'Ash', 'Elm'],
            }),
          ]
          const instances = [app, ...others]
          const now = nowSeconds()
          const sends = async (steps: typeof first, proposal: (typeof proposals)[number]) => {
            const signed = await Promise.all(
              steps.map((s) =>
                signedVote(voters[s.voter] as PrivateKeyAccount, proposal.id, {
                  timestamp: now - s.age,
                  choices: [s.choice],
                  reason: s.choice === 2 ? `Reason ${s.age}` : '',
                }),
              ),
            )
            return steps.flatMap((s, index) => {
              const one = signed[index] as Awaited<(typeof signed)[number]>
              const url = `/api/proposals/${proposal.id}/votes`
              const through = instances[s.instance] as FastifyInstance
              const again = instances[(s.instance + 1) % instances.length] as FastifyInstance
              const body = { message: one.message, signature: one.signature }
              return [postJson(through, url, body), ...(s.replay ? [postJson(again, url, body)] : [])]
            })
          }
          const [answers, other] = await Promise.all([
            Promise.all([
              ...(await sends(first, proposals[0] as (typeof proposals)[number])),
              ...(await sends(second, proposals[1] as (typeof proposals)[number])),
            ]),
            // Another writer appends to the log meanwhile.
            createProposal(cleo, { title: `Meanwhile ${run}` }),
          ])
          const statuses = answers.map((answer) => answer.statusCode)
          expect(
            statuses.every((status) => [200, 201, 409].includes(status)),
            String(statuses),
          ).toBe(true)
          expect(other.response.statusCode).toBe(201)
          expect((await checkTallies(database.db)).mismatches).toEqual([])
          expect(await logProblem()).toBeNull()
          expect((await checkMemberStats(database.db)).mismatches).toEqual([])
        },
      ),
      { numRuns: 10, seed: 20261127 },
    )
  }, 180_000)

  test('behavior: one batch, one transaction: a vote superseded inside it answers its own 409 and the others are stored; a replay in it answers 200 with whether it counts', async () => {
    const proposal = await createProposal(ada, { title: 'One batch' })
    const now = nowSeconds()
    const later = await checkedVote(ben, proposal, { timestamp: now, choices: [2] })
    const earlier = await checkedVote(ben, proposal, { timestamp: now - 3, choices: [3] })
    const other = await checkedVote(cleo, proposal, { choices: [1], reason: 'Yes' })
    const { appends, observer } = countingObserver()
    const writer = new VoteWriter(database, observer)
    // Handed over in one turn: one batch.
    const answers = await Promise.allSettled([
      writer.write(later),
      writer.write(earlier),
      writer.write(other),
      writer.write(later),
    ])
    expect(appends).toEqual([2])
    expect(answers[0]).toEqual({ status: 'fulfilled', value: { id: later.id, created: true, counts: true } })
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: { status: 409, code: 'superseded' } })
    expect(answers[2]).toEqual({ status: 'fulfilled', value: { id: other.id, created: true, counts: true } })
    expect(answers[3]).toEqual({ status: 'fulfilled', value: { id: later.id, created: false, counts: true } })
    const stored = await database.db
      .select({ id: votes.id, reasonLogSeq: votes.reasonLogSeq })
      .from(votes)
      .where(inArray(votes.id, [later.id, earlier.id, other.id]))
    expect(stored.map((row) => row.id).sort()).toEqual([later.id, other.id].sort())
    // The vote with a reason keeps its entry's seq (its card in the thread).
    expect(stored.find((row) => row.id === other.id)?.reasonLogSeq).toBeGreaterThan(0)
    expect((await checkTallies(database.db)).mismatches).toEqual([])
    expect(await logProblem()).toBeNull()
    await writer.close()
  })

  test('behavior: a batch about to start waits for the votes still being checked: three votes whose checks end one after another go in one transaction', async () => {
    const proposal = await createProposal(ada, { title: 'Gathered' })
    const [adaVote, benVote, cleoVote] = [
      await checkedVote(ada, proposal),
      await checkedVote(ben, proposal, { choices: [2] }),
      await checkedVote(cleo, proposal, { choices: [3] }),
    ]
    const { appends, observer } = countingObserver()
    // A gather time no test reaches: the batch waits for the checks, not for the clock.
    const writer = new VoteWriter(database, observer, { gatherMs: 600_000 })
    const checks = [writer.checking(), writer.checking(), writer.checking()]
    const turn = () => new Promise((resolve) => setImmediate(resolve))
    const answers = [writer.write(adaVote)]
    checks[0]?.()
    // A few event-loop turns apart: the batch has begun waiting before the others arrive.
    for (const [index, vote] of [benVote, cleoVote].entries()) {
      for (let n = 0; n < 3; n++) await turn()
      expect(appends).toEqual([])
      answers.push(writer.write(vote))
      checks[index + 1]?.()
    }
    expect(await Promise.all(answers)).toEqual(
      [adaVote, benVote, cleoVote].map((vote) => ({ id: vote.id, created: true, counts: true })),
    )
    expect(appends).toEqual([3])
    expect(await logProblem()).toBeNull()
    await writer.close()
  })

  test('behavior: a batch starts at once when no vote is being checked, and after the gather time when one is that never arrives (refused, or slow)', async () => {
    const proposal = await createProposal(ada, { title: 'Not gathered' })
    const { appends, observer } = countingObserver()
    // None being checked: not delayed by a gather time no test reaches.
    const patient = new VoteWriter(database, observer, { gatherMs: 600_000 })
    const alone = await checkedVote(ada, proposal)
    expect(await patient.write(alone)).toEqual({ id: alone.id, created: true, counts: true })
    await patient.close()
    // One still being checked, for good: the batch goes after the gather time without it.
    const writer = new VoteWriter(database, observer, { gatherMs: 20 })
    const stuck = writer.checking()
    const vote = await checkedVote(ben, proposal)
    expect(await writer.write(vote)).toEqual({ id: vote.id, created: true, counts: true })
    expect(appends).toEqual([1, 1])
    // Ending a check twice counts once: the next batch does not wait.
    stuck()
    stuck()
    const next = await checkedVote(cleo, proposal)
    const noWait = new VoteWriter(database, observer, { gatherMs: 600_000 })
    expect(await noWait.write(next)).toMatchObject({ created: true })
    await Promise.all([writer.close(), noWait.close()])
  })

  test('behavior: a vote without voting power (never delegated) is refused (403) before the batch, and the votes sent with it are stored', async () => {
    const proposal = await createProposal(ada, { title: 'Without power' })
    const url = `/api/proposals/${proposal.id}/votes`
    const [adaVote, finnVote, benVote] = await Promise.all([
      signedVote(ada, proposal.id),
      signedVote(finn, proposal.id),
      signedVote(ben, proposal.id, { choices: [2] }),
    ])
    const answers = await Promise.all(
      [adaVote, finnVote, benVote].map((one) => postVote(url, one as { message: unknown; signature: Hex })),
    )
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 403, 201])
    expect(answers[1]?.json()).toMatchObject({ error: 'not-delegated' })
    const [{ n } = { n: -1 }] = await database.db
      .select({ n: count() })
      .from(ballots)
      .where(inArray(ballots.proposalId, [proposal.id]))
    expect(n).toBe(2)
    expect((await checkTallies(database.db)).mismatches).toEqual([])
  })

  test('behavior: a batch whose transaction fails (a vote on no stored proposal breaks its foreign key) → every vote of it answers 503 database_unavailable, and nothing of it is stored', async () => {
    const proposal = await createProposal(ada, { title: 'Failed batch' })
    const good = [await checkedVote(ben, proposal), await checkedVote(cleo, proposal, { reason: 'Why not' })]
    const orphan = { ...(await checkedVote(ada, proposal)), proposalId: `0x${'ab'.repeat(32)}` as Hex }
    const tallyBefore = await database.db.select().from(proposalTallies)
    const [{ n: logBefore } = { n: -1 }] = await database.db.select({ n: count() }).from(governanceLog)
    const { appends, observer } = countingObserver()
    const writer = new VoteWriter(database, observer)
    const answers = await Promise.allSettled([...good, orphan].map((vote) => writer.write(vote)))
    for (const answer of answers) {
      expect(answer.status).toBe('rejected')
      const reason = (answer as PromiseRejectedResult).reason
      expect(reason).toBeInstanceOf(ApiError)
      expect(reason).toMatchObject({
        status: 503,
        code: 'database_unavailable',
        message: 'The database does not answer. Try again shortly.',
      })
    }
    expect(appends).toEqual([])
    const ids = [...good, orphan].map((vote) => vote.id)
    expect(await database.db.select().from(votes).where(inArray(votes.id, ids))).toEqual([])
    expect(await database.db.select().from(proposalTallies)).toEqual(tallyBefore)
    const [{ n: logAfter } = { n: -1 }] = await database.db.select({ n: count() }).from(governanceLog)
    expect(logAfter).toBe(logBefore)
    // The same votes in a batch of their own then go in: nothing was half written.
    expect(await Promise.all(good.map((vote) => writer.write(vote)))).toEqual(
      good.map((vote) => ({ id: vote.id, created: true, counts: true })),
    )
    expect((await checkTallies(database.db)).mismatches).toEqual([])
    expect(await logProblem()).toBeNull()
    await writer.close()
  })

  test('behavior: a vote stored while voting was open and sent again once voting has closed, or once its signature is too old → the replay’s answer (stored, counts); a vote never stored → 422', async () => {
    const deps = governanceDeps()
    const now = nowSeconds()
    const end = now + 10 * 24 * 3600
    const proposal = await createProposal(ada, { title: 'Retried late', start: now - 60, end })
    const vote = await signedVote(ben, proposal.id, { timestamp: now })
    expect(await castVote(deps, proposal.id, vote)).toEqual({ id: vote.id, created: true, counts: true })
    const at = (seconds: number) => ({ ...deps, now: () => new Date(seconds * 1000) })
    const stale = now + TIMESTAMP_MAX_AGE_SECONDS + 60
    expect(await castVote(at(stale), proposal.id, vote)).toEqual({
      id: vote.id,
      created: false,
      counts: true,
    })
    await expect(
      castVote(at(stale), proposal.id, await signedVote(cleo, proposal.id, { timestamp: now })),
    ).rejects.toMatchObject({ code: 'bad_timestamp' })
    expect(await castVote(at(end + 60), proposal.id, vote)).toEqual({
      id: vote.id,
      created: false,
      counts: true,
    })
    await expect(
      castVote(at(end + 60), proposal.id, await signedVote(cleo, proposal.id, { timestamp: end + 30 })),
    ).rejects.toMatchObject({ code: 'not_open' })
    await deps.voteWriter?.close()
  })

  test('behavior: every vote answer is reported (accepted, replayed, the refusal’s code), and each transaction that appends to the log once, with its entries and lock times', async () => {
    const answered: string[] = []
    const appended: { entries: number; waitMs: number; holdMs: number }[] = []
    const observer = {
      ...silentObserver,
      voteAnswered: (outcome: string) => answered.push(outcome),
      logAppended: (entries: number, waitMs: number, holdMs: number) =>
        appended.push({ entries, waitMs, holdMs }),
    }
    const deps = governanceDeps(observer)
    const proposal = await createProposal(ada, { title: 'Reported' })
    const now = nowSeconds()
    const later = await signedVote(ben, proposal.id, { timestamp: now })
    const earlier = await signedVote(ben, proposal.id, { timestamp: now - 2, choices: [2] })
    expect(await castVote(deps, proposal.id, later)).toMatchObject({ created: true })
    expect(await castVote(deps, proposal.id, later)).toMatchObject({ created: false })
    await expect(castVote(deps, proposal.id, earlier)).rejects.toMatchObject({ code: 'superseded' })
    await expect(castVote(deps, proposal.id, await signedVote(finn, proposal.id))).rejects.toMatchObject({
      code: 'not-delegated',
    })
    expect(answered).toEqual(['accepted', 'replayed', 'superseded', 'not-delegated'])
    // The accepted vote's batch appended one entry; the superseded one's appended nothing.
    expect(appended.map((one) => one.entries)).toEqual([1])
    expect(appended[0]?.waitMs).toBeGreaterThanOrEqual(0)
    expect(appended[0]?.holdMs).toBeGreaterThan(0)
    await deps.voteWriter?.close()
  })
})

// PostgreSQL only (ADR 073): a batch's last query takes the log's lock, appends and commits, from the head
// its instance remembers; another instance's append since makes it refuse, and the batch goes again.
if (testDatabaseUrl()) {
  describe('PostgreSQL: the log append in the batch’s last query', () => {
    /** Every query the pool's connections are sent from now on: which connection, the text, the SQLSTATE it failed with if any. */
    function recordQueries(on: Database) {
      const sent: { client: object; text: string; failed?: string }[] = []
      const wrapped = new WeakSet<object>()
      on.postgres?.pool.on('acquire', (client) => {
        if (wrapped.has(client)) return
        wrapped.add(client)
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
        client.query = ((...args: unknown[]) => {
          const one: (typeof sent)[number] = {
            client,
            text: typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text),
          }
          sent.push(one)
          // pool.query passes a callback (and gets no promise): its statements are never the batch's.
          if (args.some((arg) => typeof arg === 'function')) return query(...args)
          return query(...args).catch((error: unknown) => {
            one.failed = String((error as { code?: unknown }).code)
            throw error
          })
        }) as typeof client.query
      })
      return sent
    }
    const lockingLastQuery = (text: string) => text.includes('guildhall_log_expect_head(')

    test('behavior: two instances (two database handles) append vote batches alternately, each one’s remembered head stale at every batch → a batch is refused once and appends from the head named; while the head keeps moving, the instance’s next batches read it first and are not refused; every vote stored, the log one chain (seqs 1..n), tallies equal a recount, and the refused attempts leave no row and no notice', async () => {
      const proposal = await createProposal(ada, { title: 'Alternating instances' })
      // Two handles of their own: nothing remembered of the log yet.
      const handles = [
        await openDatabase({ databaseUrl: database.url as string }),
        await openDatabase({ databaseUrl: database.url as string }),
      ]
      const notices: LogNotice[] = []
      let heard: (() => void) | undefined
      const unlisten = await database.listen(
        LOG_CHANNEL,
        (payload) => {
          if (payload === 'end') heard?.()
          else notices.push(JSON.parse(payload) as LogNotice)
        },
        () => undefined,
      )
      try {
        const sent = handles.map(recordQueries)
        const writers = handles.map((handle) => new VoteWriter(handle, silentObserver))
        const [{ n: logBefore } = { n: -1 }] = await database.db.select({ n: count() }).from(governanceLog)
        const now = nowSeconds()
        const voters = [ada, ben, cleo, ada, ben, cleo, ada, ben]
        const answers: VoteAnswer[] = []
        for (const [round, voter] of voters.entries()) {
          const vote = await checkedVote(voter, proposal, {
            timestamp: now - 20 + round,
            choices: [(round % 3) + 1],
            reason: round % 2 === 0 ? `Round ${round}` : '',
          })
          answers.push(await (writers[round % 2] as VoteWriter).write(vote))
        }
        expect(answers.map((answer) => answer.created && answer.counts)).toEqual(voters.map(() => true))
        // An instance's batches in turn: the first reads the head (nothing remembered) and commits; the
        // second trusts its own last append, stale, is refused and commits from the head named; every later
        // one, the head having moved since its instance's last append each time, reads the head first and
        // commits.
        for (const queries of sent) {
          const lastQueries = queries.filter((one) => lockingLastQuery(one.text))
          expect(lastQueries.map((one) => one.failed ?? 'committed')).toEqual([
            'committed',
            LOG_HEAD_MOVED,
            'committed',
            'committed',
            'committed',
          ])
        }
        expect(await logProblem()).toBeNull()
        expect((await checkTallies(database.db)).mismatches).toEqual([])
        const logged = await database.db
          .select({ seq: governanceLog.seq })
          .from(governanceLog)
          .where(eq(governanceLog.proposalId, proposal.id))
          .orderBy(asc(governanceLog.seq))
        const [{ n: logAfter } = { n: -1 }] = await database.db.select({ n: count() }).from(governanceLog)
        expect(logAfter - logBefore).toBe(voters.length)
        // Notices arrive in commit order: once the one sent after the batches is heard, every earlier one is.
        const end = new Promise<void>((resolve) => {
          heard = resolve
        })
        await database.db.execute(sql`select pg_notify(${LOG_CHANNEL}, 'end')`)
        await end
        const voteNotices = notices.filter((notice) => notice.kind === 'vote')
        expect(voteNotices.map((notice) => notice.seq)).toEqual(
          logged.slice(-voters.length).map((row) => row.seq),
        )
        await Promise.all(writers.map((writer) => writer.close()))
      } finally {
        await unlisten()
        for (const handle of handles) await handle.close()
      }
    })

    test('behavior: with the remembered head right, the log’s lock is taken, the entries appended and the transaction committed in ONE query: no query before it takes the lock, none follows it (it ends with a read of the database’s clock)', async () => {
      const proposal = await createProposal(ada, { title: 'One round trip' })
      const writer = new VoteWriter(database, silentObserver)
      // The first batch learns the head (the proposal's append moved it).
      await writer.write(await checkedVote(ada, proposal))
      const next = [
        await checkedVote(ben, proposal, { choices: [2] }),
        await checkedVote(cleo, proposal, { choices: [3], reason: 'Because' }),
      ]
      const sent = recordQueries(database)
      // Handed over in one turn: one batch.
      const answers = await Promise.all(next.map((vote) => writer.write(vote)))
      expect(answers.map((answer) => answer.created)).toEqual([true, true])
      // The batch's connection, from its BEGIN on (the app's background work may use others meanwhile).
      const lastQuery = sent.find((one) => lockingLastQuery(one.text))
      const onIt = sent.filter((one) => one.client === lastQuery?.client)
      const batch = onIt.slice(onIt.map((one) => one.text).lastIndexOf('begin')).map((one) => one.text)
      expect(batch[0]).toBe('begin')
      const locking = batch.filter((text) =>
        /guildhall_log_(expect_)?head\(|pg_advisory_xact_lock\(\d+\)/.test(text),
      )
      expect(locking).toHaveLength(1)
      expect(lockingLastQuery(locking[0] as string)).toBe(true)
      expect(batch.at(-1)).toBe(locking[0])
      // After the commit, only a read of the database's clock: the end of the lock's hold.
      expect(batch.at(-1)).toMatch(
        /;\s*commit;\s*select extract\(epoch from clock_timestamp\(\)\) \* 1000 as at_ms$/,
      )
      expect(batch.filter((text) => /\bcommit\b/i.test(text))).toHaveLength(1)
      expect(onIt.every((one) => one.failed === undefined)).toBe(true)
      expect(await logProblem()).toBeNull()
      await writer.close()
    })

    test('behavior: the lock’s hold is timed by the database’s clock: this event loop, busy for 200 ms once the last query is sent, holds no lock and is not counted', async () => {
      const proposal = await createProposal(ada, { title: 'Timed by the database' })
      const handle = await openDatabase({ databaseUrl: database.url as string })
      const held: number[] = []
      const writer = new VoteWriter(handle, {
        ...silentObserver,
        logAppended: (_entries: number, _waitMs: number, holdMs: number) => held.push(holdMs),
      })
      try {
        handle.postgres?.pool.on('acquire', (client) => {
          const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
          client.query = ((...args: unknown[]) => {
            const answer = query(...args)
            if (typeof args[0] === 'string' && lockingLastQuery(args[0])) {
              const until = performance.now() + 200
              while (performance.now() < until) {
                // Busy: the answer arrives while this process cannot read it.
              }
            }
            return answer
          }) as typeof client.query
        })
        const started = performance.now()
        expect(await writer.write(await checkedVote(ada, proposal))).toMatchObject({ created: true })
        expect(performance.now() - started).toBeGreaterThanOrEqual(200)
        expect(held).toHaveLength(1)
        expect(held[0]).toBeGreaterThan(0)
        expect(held[0]).toBeLessThan(100)
      } finally {
        await writer.close()
        await handle.close()
      }
    })

    test('behavior: a refused attempt lets the log’s lock go (another connection takes it: PostgreSQL releases a failed subtransaction’s locks), names the current head, and after the rollback to its savepoint its transaction goes on with what it did before', async () => {
      const [head] = await database.db
        .select({ seq: governanceLog.seq, hash: governanceLog.hash })
        .from(governanceLog)
        .orderBy(desc(governanceLog.seq))
        .limit(1)
      const url = database.url as string
      const [writer, onlooker] = [
        new pg.Client({ connectionString: url }),
        new pg.Client({ connectionString: url }),
      ]
      await Promise.all([writer.connect(), onlooker.connect()])
      const lockFree = async () => {
        const { rows } = await onlooker.query<{ got: boolean }>(
          'select pg_try_advisory_xact_lock($1) as got',
          [LOG_LOCK_KEY],
        )
        return rows[0]?.got
      }
      try {
        await writer.query('begin')
        await writer.query('create temporary table before_the_savepoint (n int) on commit drop')
        await writer.query('insert into before_the_savepoint values (1)')
        await writer.query('savepoint attempt')
        const refused = await writer
          .query(`select guildhall_log_expect_head(${LOG_LOCK_KEY}, 0, 'stale')`)
          .then(
            () => undefined,
            (error: { code?: string; detail?: string }) => error,
          )
        expect(refused?.code).toBe(LOG_HEAD_MOVED)
        expect(JSON.parse(refused?.detail ?? '{}')).toMatchObject({ seq: head?.seq, hash: head?.hash })
        expect(await lockFree()).toBe(true)
        await writer.query('rollback to savepoint attempt')
        expect(await lockFree()).toBe(true)
        expect((await writer.query('select n from before_the_savepoint')).rows).toEqual([{ n: 1 }])
        // The head expected: the lock is held until the transaction ends.
        const { rows } = await writer.query<{ waited: number }>(
          `select guildhall_log_expect_head(${LOG_LOCK_KEY}, $1, $2) as waited`,
          [head?.seq, head?.hash],
        )
        expect(rows[0]?.waited).toBeGreaterThanOrEqual(0)
        expect(await lockFree()).toBe(false)
        await writer.query('rollback')
        expect(await lockFree()).toBe(true)
      } finally {
        await Promise.all([writer.end(), onlooker.end()])
      }
    })

    test('error: a session ended while a batch’s last query waits for the log’s lock (its COMMIT sent, outcome unknown) → every vote of it 503 database_unavailable, nothing stored; one ended before its last query (inserting its votes) → the batch runs again once and every vote is stored', async () => {
      const proposal = await createProposal(ada, { title: 'Ended sessions' })
      const url = database.url as string
      const holder = new pg.Client({ connectionString: url })
      await holder.connect()
      const { appends, observer } = countingObserver()
      const writer = new VoteWriter(database, observer)
      try {
        const cut = [await checkedVote(ben, proposal), await checkedVote(cleo, proposal, { reason: 'Cut' })]
        await holder.query('begin')
        await holder.query('select pg_advisory_xact_lock($1)', [LOG_LOCK_KEY])
        const answered = Promise.allSettled(cut.map((vote) => writer.write(vote)))
        await terminateWhenRunning(url, 'guildhall_log_expect_head(')
        await holder.query('rollback')
        for (const answer of await answered) {
          expect(answer).toMatchObject({
            status: 'rejected',
            reason: { status: 503, code: 'database_unavailable' },
          })
        }
        const ids = cut.map((vote) => vote.id)
        expect(await database.db.select().from(votes).where(inArray(votes.id, ids))).toEqual([])

        await holder.query('begin')
        await holder.query('lock table votes in exclusive mode')
        const stored = Promise.all(cut.map((vote) => writer.write(vote)))
        await terminateWhenRunning(url, 'insert into "votes"')
        await holder.query('rollback')
        expect(await stored).toEqual(cut.map((vote) => ({ id: vote.id, created: true, counts: true })))
        expect(appends).toEqual([2])
        expect((await checkTallies(database.db)).mismatches).toEqual([])
        expect(await logProblem()).toBeNull()
      } finally {
        await holder.end()
        await writer.close()
      }
    })
  })
}
