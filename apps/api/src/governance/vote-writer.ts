// Group commit of votes (ADR 062): a vote checked outside (proposal, time, choices, signature, power) waits
// here, and the votes that arrive while a batch commits go together in the next one, in ONE transaction.
// Per voter and proposal a lock decides which vote counts (never the proposal's row); the shared part, the
// log's lock with the log entries, each touched tally's move and the notices, comes last, just before the
// commit, so its hold does not grow with the votes in flight and is shared by every vote of the batch.
import {
  addToTotals,
  emptyTallyTotals,
  supersedes,
  type TallyRules,
  type TallyTotals,
  type VoteMessage,
  voteContribution,
} from '@guildhall/core'
import { type SQL, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { recordVotesStatement } from '../member-stats/vote-moves.ts'
import type { Database, Tx } from '../platform/db/client.ts'
import { type LastQuery, transactionCommittedByLastQuery } from '../platform/db/commit-last.ts'
import { ballots, proposalTallies, votes } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { Observer } from '../platform/observer.ts'
import { appendToLog, appendToLogAndCommit, type LogAppend, logLockHeldMs } from './log.ts'
import { countedVote } from './tallies.ts'

/** A vote that passed every check but the ones only its turn can answer (replayed, superseded). */
export type CheckedVote = {
  id: Hex
  proposalId: Hex
  message: VoteMessage
  signature: Hex
  power: bigint
  powerSource: string
  rules: TallyRules
}

/** What a vote's request answers when stored or replayed. */
export type VoteAnswer = { id: Hex; created: boolean; counts: boolean }

/** Votes one transaction takes at most; the rest wait for the next. */
const MAX_BATCH = 500

/**
 * How long a batch waits at most for votes still being checked before it starts (PostgreSQL's commit_delay,
 * ADR 069): under load it makes batches larger, so the log lock's hold, fixed per batch, is shared by more
 * votes; with no vote being checked a batch starts at once.
 */
const GATHER_MS = 25

/**
 * Class of the two-key advisory locks that make one voter's votes on one proposal take turns (the second key
 * a hash of both); a space apart from the log's one-key lock. A hash shared by two voters only makes them wait.
 */
const VOTER_LOCK_CLASS = 0x766f7465 // "vote"

type Waiting = { vote: CheckedVote; answer: (result: VoteAnswer | ApiError) => void }

/** The per-instance queue: one batch commits at a time while the next collects. */
export class VoteWriter {
  readonly #database: Database
  readonly #observer: Observer
  #waiting: Waiting[] = []
  #running: Promise<void> | undefined
  /** Votes whose checks are under way (`checking`): a batch waits a little for them. */
  #checking = 0
  /** Ends the current wait for votes being checked, when one is under way. */
  #gathered: (() => void) | undefined

  readonly #gatherMs: number

  constructor(database: Database, observer: Observer, { gatherMs = GATHER_MS }: { gatherMs?: number } = {}) {
    this.#database = database
    this.#observer = observer
    this.#gatherMs = gatherMs
  }

  /**
   * Counts a vote whose checks have begun until the returned function is called (once it is written or
   * refused; calling it again does nothing): a batch about to start waits up to GATHER_MS for such votes.
   */
  checking(): () => void {
    this.#checking++
    let counted = true
    return () => {
      if (!counted) return
      counted = false
      this.#checking--
      this.#gatherDone()
    }
  }

  /** Stores `vote` with the others of its batch: its answer, or its refusal thrown. */
  async write(vote: CheckedVote): Promise<VoteAnswer> {
    const result = await new Promise<VoteAnswer | ApiError>((answer) => {
      this.#waiting.push({ vote, answer })
      this.#gatherDone()
      this.#start()
    })
    if (result instanceof ApiError) throw result
    return result
  }

  /** Resolves once every vote handed to it is answered (the app closing). */
  async close(): Promise<void> {
    while (this.#running) await this.#running
  }

  /** Waits until no vote is being checked, a full batch waits, or the gather time (GATHER_MS) has passed. */
  async #gather() {
    if (this.#gatherComplete()) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#gathered?.(), this.#gatherMs)
      this.#gathered = () => {
        clearTimeout(timer)
        this.#gathered = undefined
        resolve()
      }
    })
  }

  #gatherComplete() {
    return this.#checking === 0 || this.#waiting.length >= MAX_BATCH
  }

  #gatherDone() {
    if (this.#gathered && this.#gatherComplete()) this.#gathered()
  }

  #start() {
    if (this.#running) return
    this.#running = (async () => {
      // One event-loop turn: the requests already read by this turn go in the first batch too.
      await new Promise((resolve) => setImmediate(resolve))
      while (this.#waiting.length > 0) {
        await this.#gather()
        const batch = this.#waiting.splice(0, MAX_BATCH)
        const answers = await writeBatch(
          this.#database,
          this.#observer,
          batch.map(({ vote }) => vote),
        )
        for (const [index, { answer }] of batch.entries()) answer(answers[index] as VoteAnswer | ApiError)
      }
    })().finally(() => {
      this.#running = undefined
      if (this.#waiting.length > 0) this.#start()
    })
  }
}

/**
 * Writes `batch` in one transaction: each vote's answer or refusal, in order. When the transaction fails
 * (after the one more try a deadlock the database broke gets, ADR 091) nothing of it is stored and every vote
 * answers 503 database_unavailable.
 */
async function writeBatch(
  database: Database,
  observer: Observer,
  batch: readonly CheckedVote[],
): Promise<(VoteAnswer | ApiError)[]> {
  try {
    return await writeOnce(database, observer, batch)
  } catch {
    return batch.map(() => ApiError.databaseUnavailable())
  }
}

const ballotKey = (proposalId: string, voter: string) => `${proposalId}/${voter}`

/** The second key of a voter's lock on a proposal: 32 bits of each, mixed. */
const voterLockKey = (proposalId: string, voter: string) =>
  (Number.parseInt(proposalId.slice(2, 10), 16) ^ Number.parseInt(voter.slice(2, 10), 16)) | 0

type Ballot = { id: string; timestamp: number; message: VoteMessage; power: bigint }

async function writeOnce(
  database: Database,
  observer: Observer,
  batch: readonly CheckedVote[],
): Promise<(VoteAnswer | ApiError)[]> {
  if (!database.postgres) {
    // PGlite: one in-process connection, no network inside the lock's hold; today's append (ADR 068).
    let appended: { entries: number; lock: Parameters<typeof logLockHeldMs>[0] } | undefined
    const answers = await database.db.transaction(async (tx) => {
      const { answers, accepted, logged } = await storeBatch(oneByOne(tx), batch)
      if (accepted.length > 0) {
        const { entries, lock } = await appendToLog(tx, accepted.map(logAppend), logged)
        appended = { entries: entries.length, lock }
      }
      return answers
    })
    if (appended) observer.logAppended(appended.entries, appended.lock.waitMs, logLockHeldMs(appended.lock))
    return answers
  }
  // PostgreSQL: the log's lock, the append and the commit in the transaction's last query (ADR 073).
  const { answers, appended } = await transactionCommittedByLastQuery(database, async (_tx, last) => {
    const { answers, accepted, logged } = await storeBatch(inOneMessage(last), batch)
    if (accepted.length === 0) {
      await last.commit()
      return { answers, appended: undefined }
    }
    return { answers, appended: await appendToLogAndCommit(database, last, accepted.map(logAppend), logged) }
  })
  if (appended) observer.logAppended(appended.entries.length, appended.waitMs, appended.heldMs)
  return answers
}

/** Sends statements inside the batch's transaction, in order, and answers each one's rows. */
type Send = (statements: readonly SQL[]) => Promise<Record<string, unknown>[][]>

/**
 * PostgreSQL: the statements in one message (the simple protocol, values inlined by drizzle's escaping), so a
 * step of the batch costs one round trip however many statements it has; a failing one skips the rest and
 * fails the transaction, as alone.
 */
const inOneMessage =
  (last: LastQuery): Send =>
  async (statements) =>
    (await last.simple(sql.join([...statements], sql.raw(';\n')))).map((result) => result.rows)

/** PGlite (in this process, no round trip to save): one after another. */
const oneByOne =
  (tx: Tx): Send =>
  async (statements) => {
    const rows: Record<string, unknown>[][] = []
    for (const statement of statements)
      rows.push((await tx.execute(statement)).rows as Record<string, unknown>[])
    return rows
  }

/**
 * Inside the transaction, before the log: takes the batch's voters' locks, answers each vote in arrival order
 * against the ballot counting when it comes, and stores the accepted ones, in three round trips (the locks,
 * the reads, the inserts). `logged`: the tally moves and reason seqs to run with the log append, given the
 * chained entries.
 */
async function storeBatch(send: Send, batch: readonly CheckedVote[]) {
  // One voter's votes on a proposal take turns from here (across instances): the ballot read next stays
  // the counting one until this commits. Keys in ascending order, so two batches never wait on each other
  // in a circle.
  const keys = [...new Set(batch.map((vote) => voterLockKey(vote.proposalId, vote.message.voter)))]
  keys.sort((a, b) => a - b)
  await send([
    sql`select pg_advisory_xact_lock(${VOTER_LOCK_CLASS}, k::int4)::text from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k`,
  ])
  // After the locks, in statements of their own: each reads what was committed once it had them.
  const { ballotsNow, stored } = await readBallots(send, batch)

  // In arrival order: each vote against the ballot counting when it comes, the batch's own included.
  const answers: (VoteAnswer | ApiError | 'replayed')[] = []
  const accepted: { vote: CheckedVote; replaced: Ballot | undefined }[] = []
  for (const vote of batch) {
    const key = ballotKey(vote.proposalId, vote.message.voter)
    // Stored before (a replay that raced its check), or twice in this batch.
    if (stored.has(vote.id)) {
      answers.push('replayed')
      continue
    }
    const replaced = ballotsNow.get(key)
    // The ballot moves to this vote only if it supersedes the counting one (later, or same time and lower id).
    if (replaced && !supersedes({ id: vote.id, timestamp: vote.message.timestamp }, replaced)) {
      answers.push(
        new ApiError(
          409,
          'superseded',
          'You have already voted later on this proposal; this earlier vote does not replace it.',
        ),
      )
      continue
    }
    stored.add(vote.id)
    accepted.push({ vote, replaced })
    ballotsNow.set(key, {
      id: vote.id,
      timestamp: vote.message.timestamp,
      message: vote.message,
      power: vote.power,
    })
    answers.push({ id: vote.id, created: true, counts: true })
  }

  if (accepted.length > 0) await send(storeVotes(accepted, ballotsNow))
  return {
    answers: answers.map((answer, index) => {
      if (answer !== 'replayed') return answer
      const vote = batch[index] as CheckedVote
      const counting = ballotsNow.get(ballotKey(vote.proposalId, vote.message.voter))
      return { id: vote.id, created: false, counts: counting?.id === vote.id }
    }),
    accepted: accepted.map(({ vote }) => vote),
    logged: (entries: readonly { seq: number }[]) => [
      tallyMoves(accepted, entries),
      reasonSeqs(accepted, entries),
    ],
  }
}

/** The batch's voters' counting ballots (by `ballotKey`) and which of its votes are stored already. */
async function readBallots(send: Send, batch: readonly CheckedVote[]) {
  const pairs = JSON.stringify(batch.map((vote) => ({ p: vote.proposalId, v: vote.message.voter })))
  const ids = JSON.stringify(batch.map((vote) => vote.id))
  // Figures as text: each backend and protocol reads bigint and numeric its own way.
  const [counting = [], known = []] = await send([
    sql`select b.proposal_id, b.voter, v.id, v."timestamp"::text as "timestamp", v.message, v.power::text as power
      from ${ballots} b join ${votes} v on v.id = b.vote_id
      where (b.proposal_id, b.voter) in (select p, v from jsonb_to_recordset(${pairs}::jsonb) as x(p text, v text))`,
    sql`select id from ${votes} where id in (select jsonb_array_elements_text(${ids}::jsonb))`,
  ])
  const ballotsNow = new Map<string, Ballot>(
    counting.map((row) => [
      ballotKey(row.proposal_id as string, row.voter as string),
      {
        id: row.id as string,
        timestamp: Number(row.timestamp),
        message: row.message as VoteMessage,
        power: BigInt(row.power as string),
      },
    ]),
  )
  return { ballotsNow, stored: new Set(known.map((row) => row.id as string)) }
}

/** The accepted votes, each voter's final ballot and the voters' directory rows: three multi-row statements. */
function storeVotes(
  accepted: readonly { vote: CheckedVote; replaced: Ballot | undefined }[],
  ballotsNow: ReadonlyMap<string, Ballot>,
): SQL[] {
  const voteRows = accepted.map(({ vote }) => ({
    id: vote.id,
    proposal_id: vote.proposalId,
    voter: vote.message.voter,
    timestamp: vote.message.timestamp,
    message: vote.message,
    signature: vote.signature,
    power: String(vote.power),
    power_source: vote.powerSource,
  }))
  const insertVotes = sql`insert into ${votes} (id, proposal_id, voter, "timestamp", message, signature, power, power_source)
    select id, proposal_id, voter, "timestamp", message, signature, power, power_source
    from jsonb_to_recordset(${JSON.stringify(voteRows)}::jsonb) as x(id text, proposal_id text, voter text,
      "timestamp" bigint, message jsonb, signature text, power numeric, power_source text)`
  const finals = new Map<string, CheckedVote>()
  for (const { vote } of accepted) {
    const key = ballotKey(vote.proposalId, vote.message.voter)
    if (ballotsNow.get(key)?.id === vote.id) finals.set(key, vote)
  }
  const ballotRows = [...finals.values()].map((vote) => ({
    proposal_id: vote.proposalId,
    voter: vote.message.voter,
    vote_id: vote.id,
    timestamp: vote.message.timestamp,
    power: String(vote.power),
    // A ranked ballot keeps its ranking beside it: the settle of the rounds reads the ballots alone (ADR 060).
    ranking: vote.rules.kind === 'ranked-choice' ? vote.message.choices : null,
  }))
  const upsertBallots = sql`insert into ${ballots} (proposal_id, voter, vote_id, "timestamp", power, ranking)
    select proposal_id, voter, vote_id, "timestamp", power, ranking
    from jsonb_to_recordset(${JSON.stringify(ballotRows)}::jsonb) as x(proposal_id text, voter text, vote_id text,
      "timestamp" bigint, power numeric, ranking integer[])
    on conflict (proposal_id, voter) do update set vote_id = excluded.vote_id, "timestamp" = excluded."timestamp",
      power = excluded.power, ranking = excluded.ranking`
  // Before the log's lock: the token index moves these rows too, and may hold them a moment.
  const directory = recordVotesStatement(
    accepted.map(({ vote, replaced }) => ({
      voter: vote.message.voter,
      timestamp: vote.message.timestamp,
      firstBallot: !replaced,
    })),
  )
  return [insertVotes, upsertBallots, ...(directory ? [directory] : [])]
}

function logAppend(vote: CheckedVote): LogAppend {
  return {
    kind: 'vote',
    messageId: vote.id,
    proposalId: vote.proposalId,
    signature: vote.signature,
    // A vote with a reason is a card in the proposal's thread (ADR 053): its live stream hears of it.
    ...(vote.message.reason !== '' ? { threadId: vote.proposalId } : {}),
  }
}

/**
 * Each touched proposal's totals moved once by the batch's sum (what the new ballots add less what the
 * replaced ones added), as a delta on the row, standing at the batch's last entry of that proposal.
 */
function tallyMoves(
  accepted: readonly { vote: CheckedVote; replaced: Ballot | undefined }[],
  logged: readonly { seq: number }[],
) {
  const moves = new Map<string, { totals: TallyTotals; lastSeq: number }>()
  accepted.forEach(({ vote, replaced }, index) => {
    const move = moves.get(vote.proposalId) ?? {
      totals: emptyTallyTotals(vote.rules.choiceCount),
      lastSeq: 0,
    }
    move.totals = addToTotals(
      move.totals,
      voteContribution(vote.rules, countedVote(vote.message, vote.power)),
    )
    if (replaced) {
      move.totals = addToTotals(
        move.totals,
        voteContribution(vote.rules, countedVote(replaced.message, replaced.power)),
        -1,
      )
    }
    move.lastSeq = (logged[index] as { seq: number }).seq
    moves.set(vote.proposalId, move)
  })
  const rows = [...moves].map(([proposalId, { totals, lastSeq }]) => ({
    proposal_id: proposalId,
    voters: totals.voters,
    voting_power: String(totals.votingPower),
    quorum_power: String(totals.quorumPower),
    per_choice: totals.perChoice.map(String),
    last_seq: lastSeq,
  }))
  return sql`tallied as (update ${proposalTallies} t set
      voters = t.voters + d.voters,
      voting_power = t.voting_power + d.voting_power,
      quorum_power = t.quorum_power + d.quorum_power,
      per_choice = (select jsonb_agg(((t.per_choice ->> (u.i - 1)::int)::numeric + u.x)::text order by u.i)
        from unnest(d.per_choice) with ordinality as u(x, i)),
      last_seq = d.last_seq
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as d(proposal_id text, voters integer, voting_power numeric, quorum_power numeric, per_choice numeric[], last_seq bigint)
    where t.proposal_id = d.proposal_id)`
}

/** A vote with a reason keeps its entry's seq: the place of its card in the proposal's thread. */
function reasonSeqs(accepted: readonly { vote: CheckedVote }[], logged: readonly { seq: number }[]) {
  const rows = accepted.flatMap(({ vote }, index) =>
    vote.message.reason !== '' ? [{ id: vote.id, seq: (logged[index] as { seq: number }).seq }] : [],
  )
  return sql`reasoned as (update ${votes} v set reason_log_seq = r.seq
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, seq bigint) where v.id = r.id)`
}
