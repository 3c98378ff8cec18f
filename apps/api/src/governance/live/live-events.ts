// Live results (ADR 024). Every transaction that appends to the governance log also sends
// pg_notify(LOG_CHANNEL, {seq, kind, proposalId}); the database delivers it only when the transaction commits,
// to every server listening on it (PostgreSQL: each API instance; PGlite: this process). Each server listens
// once and fans out to its own streams. Votes are coalesced: a proposal's watchers get at most one `tally`
// per window, its totals read once per server, whatever the number of votes or watchers.
import {
  type LiveExecution,
  type LiveProposal,
  type LiveTally,
  type LiveThread,
  type Tally,
  tallyToJson,
} from '@guildhall/core'
import { and, asc, desc, eq, gt } from 'drizzle-orm'
import type { Hex } from 'viem'
import type { Database } from '../../platform/db/client.ts'
import {
  discussionMessages,
  governanceLog,
  proposals,
  type StoredProposal,
  threads,
} from '../../platform/db/schema.ts'
import { seconds } from '../deps.ts'
import { LOG_CHANNEL, type LogNotice } from '../log.ts'
import type { ProposalReads } from '../proposal-reads.ts'

/** An event of a stream; `id` is the seq of the log entry it stands at. */
export type LiveEvent =
  | { event: 'tally'; id: string; data: LiveTally }
  | { event: 'proposal'; id: string; data: LiveProposal }
  | { event: 'execution'; id: string; data: LiveExecution }
  | { event: 'ready'; id: string; data: { seq: number } }
  | { event: 'thread'; id: string; data: LiveThread }

export type LiveSend = (event: LiveEvent) => void

/** Created proposals a list stream replays at most on reconnect; the client refetches its list on any. */
const LIST_REPLAY_LIMIT = 100

export interface LiveEventsOptions {
  database: Database
  now: () => Date
  /** Told of every vote the log announces, this server's or another's. */
  reads: ProposalReads
  /** A proposal's watchers get at most one tally per this many ms. */
  coalesceMs: number
  /**
   * A proposal's result as its page reads it (results.ts, `proposalResultAt`) and the log entry it stands at;
   * `behind`: later votes are not in it yet (a ranked-choice settle is due), so it is read again.
   */
  resultAt: (proposal: StoredProposal) => Promise<{ result: Tally; seq: number; behind: boolean }>
  onError: (error: unknown) => void
}

export class LiveEvents {
  readonly #options: LiveEventsOptions
  readonly #proposalWatchers = new Map<string, { proposal: StoredProposal; sends: Set<LiveSend> }>()
  readonly #listWatchers = new Set<LiveSend>()
  readonly #threadWatchers = new Map<string, Set<LiveSend>>()
  /** Watched proposals with a vote since the last flush. */
  #voted = new Set<string>()
  #created: LiveProposal[] = []
  #timer: NodeJS.Timeout | undefined
  #flushing: Promise<void> = Promise.resolve()
  #unlisten: (() => Promise<void>) | undefined

  constructor(options: LiveEventsOptions) {
    this.#options = options
  }

  async start(): Promise<void> {
    this.#unlisten = await this.#options.database.listen(
      LOG_CHANNEL,
      (payload) => this.#received(payload),
      () => this.#reconnected(),
    )
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    await this.#unlisten?.()
    await this.#flushing
  }

  /** Streams `send` every coalesced tally of the proposal until the returned function is called. */
  watchProposal(proposal: StoredProposal, send: LiveSend): () => void {
    const proposalId = proposal.id
    let watched = this.#proposalWatchers.get(proposalId)
    if (!watched) {
      watched = { proposal, sends: new Set() }
      this.#proposalWatchers.set(proposalId, watched)
    }
    const sends = watched.sends
    sends.add(send)
    return () => {
      sends.delete(send)
      if (sends.size === 0) this.#proposalWatchers.delete(proposalId)
    }
  }

  /** Streams `send` every log entry touching the thread until the returned function is called. */
  watchThread(threadId: string, send: LiveSend): () => void {
    const sends = this.#threadWatchers.get(threadId) ?? new Set()
    this.#threadWatchers.set(threadId, sends)
    sends.add(send)
    return () => {
      sends.delete(send)
      if (sends.size === 0) this.#threadWatchers.delete(threadId)
    }
  }

  /** Whether a thread is there to watch: a topic's or any proposal's (ADR 053). */
  async threadExists(threadId: string): Promise<boolean> {
    const { db } = this.#options.database
    const [thread] = await db.select({ id: threads.id }).from(threads).where(eq(threads.id, threadId))
    if (thread) return true
    const [proposal] = await db.select({ id: proposals.id }).from(proposals).where(eq(proposals.id, threadId))
    return proposal !== undefined
  }

  /**
   * What a reconnecting thread stream missed after entry `after`: its messages' entries (at most
   * LIST_REPLAY_LIMIT; the client reads the thread again on any) and, on a proposal's thread, its latest vote.
   */
  async threadEventsAfter(threadId: string, after: number): Promise<LiveEvent[]> {
    const { db } = this.#options.database
    const messages = await db
      .select({ seq: discussionMessages.logSeq, kind: discussionMessages.kind })
      .from(discussionMessages)
      .where(and(eq(discussionMessages.threadId, threadId), gt(discussionMessages.logSeq, after)))
      .orderBy(asc(discussionMessages.logSeq))
      .limit(LIST_REPLAY_LIMIT)
    const [vote] = await db
      .select({ seq: governanceLog.seq, kind: governanceLog.kind })
      .from(governanceLog)
      .where(
        and(
          eq(governanceLog.proposalId, threadId),
          eq(governanceLog.kind, 'vote'),
          gt(governanceLog.seq, after),
        ),
      )
      .orderBy(desc(governanceLog.seq))
      .limit(1)
    return [...messages, ...(vote ? [vote] : [])]
      .sort((a, b) => a.seq - b.seq)
      .map((entry) => threadEvent(threadId as Hex, entry.seq, entry.kind))
  }

  /** Streams `send` every created proposal until the returned function is called. */
  watchList(send: LiveSend): () => void {
    this.#listWatchers.add(send)
    return () => this.#listWatchers.delete(send)
  }

  /** The proposal's result now, as the event that stands at its last counted log entry. */
  async tallyEvent(proposal: StoredProposal): Promise<LiveEvent> {
    return (await this.#tallyEventAt(proposal)).event
  }

  async #tallyEventAt(proposal: StoredProposal): Promise<{ event: LiveEvent; behind: boolean }> {
    const { result, seq, behind } = await this.#options.resultAt(proposal)
    const data = {
      proposalId: proposal.id as Hex,
      seq,
      tally: tallyToJson(result),
      now: seconds(this.#options.now()),
    }
    return { event: { event: 'tally', id: String(seq), data }, behind }
  }

  /** The proposals created after log entry `after`, oldest first, at most LIST_REPLAY_LIMIT. */
  async proposalsAfter(after: number): Promise<LiveEvent[]> {
    // From the proposals (few) to their log entries (by unique message id), not through every vote's entry.
    const rows = await this.#options.database.db
      .select({ seq: governanceLog.seq, proposalId: proposals.id })
      .from(proposals)
      .innerJoin(governanceLog, eq(governanceLog.messageId, proposals.id))
      .where(gt(governanceLog.seq, after))
      .orderBy(asc(governanceLog.seq))
      .limit(LIST_REPLAY_LIMIT)
    return rows.map((row) => ({
      event: 'proposal',
      id: String(row.seq),
      data: { proposalId: row.proposalId as Hex, seq: row.seq },
    }))
  }

  /** The proposal's last Safe signature logged after entry `after`, as the event a reconnecting stream missed. */
  async executionAfter(proposalId: string, after: number): Promise<LiveEvent | undefined> {
    const [last] = await this.#options.database.db
      .select({ seq: governanceLog.seq })
      .from(governanceLog)
      .where(
        and(
          eq(governanceLog.proposalId, proposalId),
          eq(governanceLog.kind, 'safe-signature'),
          gt(governanceLog.seq, after),
        ),
      )
      .orderBy(desc(governanceLog.seq))
      .limit(1)
    return last && executionEvent(proposalId as Hex, last.seq)
  }

  /** Where the log stands now: a new list stream's first id, so a reconnect resumes from here. */
  async readyEvent(): Promise<LiveEvent> {
    const [last] = await this.#options.database.db
      .select({ seq: governanceLog.seq })
      .from(governanceLog)
      .orderBy(desc(governanceLog.seq))
      .limit(1)
    const seq = last?.seq ?? 0
    return { event: 'ready', id: String(seq), data: { seq } }
  }

  #received(payload: string) {
    let notice: LogNotice
    try {
      notice = JSON.parse(payload) as LogNotice
    } catch (error) {
      this.#options.onError(error)
      return
    }
    // A discussion message, or a vote with a reason (a card in its proposal's thread): sent at once to the
    // thread's watchers, who read the thread again.
    if (notice.threadId) {
      const event = threadEvent(notice.threadId, notice.seq, notice.kind)
      for (const send of this.#threadWatchers.get(notice.threadId) ?? []) send(event)
    }
    // A statement or a discussion message belongs to no proposal: no proposal's stream shows it.
    if (notice.proposalId === null) return
    // A Safe signature of a proposal's execution (ADR 051): its watchers read the execution again. Rare
    // (an owner's click), so sent at once rather than coalesced.
    if (notice.kind === 'safe-signature') {
      const event = executionEvent(notice.proposalId, notice.seq)
      for (const send of this.#proposalWatchers.get(notice.proposalId)?.sends ?? []) send(event)
      return
    }
    if (notice.kind === 'vote') {
      this.#options.reads.changed(notice.proposalId)
      if (this.#proposalWatchers.has(notice.proposalId)) this.#voted.add(notice.proposalId)
    } else if (this.#listWatchers.size > 0) {
      this.#created.push({ proposalId: notice.proposalId, seq: notice.seq })
    }
    this.#schedule()
  }

  /** Notices sent while the connection was down are lost: every watched proposal is read again. */
  #reconnected() {
    for (const proposalId of this.#proposalWatchers.keys()) this.#voted.add(proposalId)
    this.#schedule()
  }

  #schedule() {
    if (this.#timer) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      // One flush at a time, so a proposal's tallies go out in the order they were read.
      this.#flushing = this.#flushing.then(() => this.#flush().catch(this.#options.onError))
    }, this.#options.coalesceMs)
  }

  async #flush() {
    const created = this.#created
    this.#created = []
    for (const data of created) {
      const event: LiveEvent = { event: 'proposal', id: String(data.seq), data }
      for (const send of this.#listWatchers) send(event)
    }
    const voted = this.#voted
    this.#voted = new Set()
    for (const proposalId of voted) {
      const watched = this.#proposalWatchers.get(proposalId)
      if (!watched) continue
      const { event, behind } = await this.#tallyEventAt(watched.proposal)
      for (const send of this.#proposalWatchers.get(proposalId)?.sends ?? []) send(event)
      // Votes not in the result yet (a ranked-choice settle is due): read again next window, until they are.
      if (behind) {
        this.#voted.add(proposalId)
        this.#schedule()
      }
    }
  }
}

const threadEvent = (threadId: Hex, seq: number, kind: string): LiveEvent => ({
  event: 'thread',
  id: String(seq),
  data: { threadId, seq, kind },
})

const executionEvent = (proposalId: Hex, seq: number): LiveEvent => ({
  event: 'execution',
  id: String(seq),
  data: { proposalId, seq },
})
