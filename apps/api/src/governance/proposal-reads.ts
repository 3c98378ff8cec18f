// The reads everyone makes of one proposal in its closing hour (its detail, its first page of votes, a page
// of its thread; a topic's thread pages too, keyed by the topic's id), made once per server however many
// readers ask at the same time (ADR 025).
//
// - A stored proposal never changes (it is its signed message), so it is kept after its first read.
// - A proposal's changing reads (its tally, a page of its votes) are shared while in flight: a reader who
//   asks while the same read is running gets that read's answer, not a query of its own. A vote this server
//   stores, or one another instance announces on the log channel, ends the sharing of the reads already
//   running, so a reader who asks after a vote is acknowledged reads again.
import type { StoredProposal } from '../platform/db/schema.ts'

/** Signed proposals kept per server; beyond it the first kept goes first (a DAO has hundreds, not thousands). */
const KEPT_PROPOSALS = 10_000

export class ProposalReads {
  readonly #proposals = new Map<string, StoredProposal>()
  readonly #running = new Map<string, Map<string, Promise<unknown>>>()
  readonly #settles = new Map<string, Promise<unknown>>()
  /** How long each proposal's last settle on this server took (ms of real time): a number per ranked proposal. */
  readonly #settleMs = new Map<string, number>()

  /** The stored proposal `id`, read once by `load` (a missing one is asked again next time). */
  async proposal(
    id: string,
    load: () => Promise<StoredProposal | undefined>,
  ): Promise<StoredProposal | undefined> {
    const kept = this.#proposals.get(id)
    if (kept) return kept
    const loaded = await load()
    if (loaded) {
      if (this.#proposals.size >= KEPT_PROPOSALS) {
        const first = this.#proposals.keys().next()
        if (!first.done) this.#proposals.delete(first.value)
      }
      this.#proposals.set(id, loaded)
    }
    return loaded
  }

  /** `load`'s answer, shared with every caller asking for the same `read` of the proposal while it runs. */
  shared<T>(proposalId: string, read: string, load: () => Promise<T>): Promise<T> {
    let reads = this.#running.get(proposalId)
    const running = reads?.get(read)
    if (running) return running as Promise<T>
    if (!reads) {
      reads = new Map()
      this.#running.set(proposalId, reads)
    }
    const started = load()
    const owner = reads
    owner.set(read, started)
    const done = () => {
      if (owner.get(read) !== started) return
      owner.delete(read)
      if (owner.size === 0 && this.#running.get(proposalId) === owner) this.#running.delete(proposalId)
    }
    started.then(done, done)
    return started
  }

  /**
   * Runs `run`, a settle of the proposal's ranked-choice rounds (ADR 060), unless one runs already on this
   * server, whose answer the caller then gets. Unlike `shared`, a vote does not end it: a settle reads one
   * snapshot and is stale once it ends anyway; a second one started meanwhile would only cost the database.
   */
  settle<T>(proposalId: string, run: () => Promise<T>): Promise<T> {
    const running = this.#settles.get(proposalId)
    if (running) return running as Promise<T>
    const began = performance.now()
    const started = run()
    this.#settles.set(proposalId, started)
    const done = () => {
      if (this.#settles.get(proposalId) === started) this.#settles.delete(proposalId)
    }
    started.then(() => {
      this.#settleMs.set(proposalId, performance.now() - began)
      done()
    }, done)
    return started
  }

  /** How long the proposal's last settle on this server took (ms), 0 before any. */
  lastSettleMs(proposalId: string): number {
    return this.#settleMs.get(proposalId) ?? 0
  }

  /** The settle of the proposal's rounds running on this server, if any. */
  settling<T>(proposalId: string): Promise<T> | undefined {
    return this.#settles.get(proposalId) as Promise<T> | undefined
  }

  /** A vote on the proposal was stored: reads running now may not include it, so no one else joins them. */
  changed(proposalId: string): void {
    this.#running.delete(proposalId)
  }
}
