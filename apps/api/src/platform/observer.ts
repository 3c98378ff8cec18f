// What the API tells its metrics: each area reports what happened here, and the metrics (platform/metrics)
// turn it into Prometheus series. Reporting is a call, never a wait: an observer only counts. The silent one
// is for code that runs without metrics (tests, the demo's seed, the bench's seeding).

/** Why a live stream ended or was refused. */
export type LiveStreamEnd = 'client' | 'stalled' | 'server'
export type LiveStreamRefusal = 'client_cap' | 'instance_cap'

export interface Observer {
  /**
   * Entries appended to the log in one transaction, how long it waited for the log's lock and how long it
   * held it (from taking the lock to its commit), in milliseconds.
   */
  logAppended(entries: number, lockWaitMs: number, lockHoldMs: number): void
  /** A vote's answer: 'accepted' (stored, 201), 'replayed' (200), or the code of its refusal. */
  voteAnswered(outcome: string): void
  /** A signature check off the event loop: milliseconds queued for a worker and running on it. */
  signatureChecked(queuedMs: number, runMs: number): void
  liveStreamOpened(): void
  liveStreamClosed(why: LiveStreamEnd): void
  liveStreamRefused(why: LiveStreamRefusal): void
  /** The token index's sync read the chain's head and has indexed up to this block (after each range). */
  tokenIndexSynced(headBlock: number, indexedBlock: number): void
}

const nothing = () => {}

export const silentObserver: Observer = {
  logAppended: nothing,
  voteAnswered: nothing,
  signatureChecked: nothing,
  liveStreamOpened: nothing,
  liveStreamClosed: nothing,
  liveStreamRefused: nothing,
  tokenIndexSynced: nothing,
}
