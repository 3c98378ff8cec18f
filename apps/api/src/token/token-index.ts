// The governance token index (docs/architecture.md): balances, delegations and vote checkpoints of the ERC20Votes token,
// followed with eth_getLogs from its deployment block and kept in the database, so "votes / balance /
// delegate of X at block N" are answered locally. Above the indexed block the answer comes from the chain and
// says so (`source: 'chain'`).
//
// Consistency rules:
// - Only blocks at least `confirmations` below the head are indexed; a deeper reorg is found by comparing the
//   stored hash of the last indexed block with the chain's, then rewound to the newest stored block the
//   chain still has (the fork point) and indexed again from there (index/rewind.ts, platform/indexer/fork-point.ts).
// - Each range's rows, the cursor and the members directory's rows (member-stats/token-moves.ts) are written in one
//   transaction that first locks the cursor row and checks it is where this sync left it: a crash never
//   half-applies a range, and two servers on one database never apply the same range twice (index/sync.ts).
// - The chain's hash of a range's last block is read before and after its logs, and the cursor block's
//   hash after: if either moved, the logs may come from a fork being replaced and the range is not applied.
//
// This class is the index's one door: code outside token/ imports it and the types below from this file,
// never from index/, which holds its parts (reads.ts answers, sync.ts the range loop with token-logs.ts,
// checkpoints.ts and rewind.ts; cursor.ts the cursor row). What it shares with the treasury index (log
// ranges, block hashes and times, fork points) is in platform/indexer/.
import { type Address, getAddress, type PublicClient } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { DEFAULT_MAX_RANGE } from '../platform/indexer/log-range.ts'
import { BackgroundLoop } from '../platform/jobs/background-loop.ts'
import type { Observer } from '../platform/observer.ts'
import { IndexReads } from './index/reads.ts'
import { IndexSync, type SyncResult, type TokenIndexLogger } from './index/sync.ts'

export { RETAINED_BLOCK_HASHES } from '../platform/indexer/fork-point.ts'
/** The id of the index's row in token_index_cursor, whose block is where the members directory stands. */
export { CURSOR_ID as TOKEN_INDEX_CURSOR_ID } from './index/cursor.ts'
export type { ZeroVotesCause } from './index/reads.ts'
export type { SyncResult } from './index/sync.ts'

export type TokenIndexOptions = {
  db: Db
  /** The DAO chain: logs and block hashes, and the answers above the indexed block. */
  client: PublicClient
  chainId: number
  token: Address
  /** The token's deployment block: nothing before it is fetched. */
  fromBlock: number
  /** Blocks below the head that count as final; a reorg deeper than this is rewound when found. */
  confirmations: number
  /** Multicall3 on the chain, for reading several answers in one eth_call; absent: deployless multicall. */
  multicall3?: Address | null
  /** Most blocks per eth_getLogs request (halved while the node refuses a range, e.g. too many results). */
  maxRange?: number
  /** Pause between syncs once caught up (the loop of `start()`). */
  pollIntervalMs?: number
  /** Members counted into the directory's participation per transaction (ELIGIBILITY_CHUNK). */
  eligibilityChunk?: number
  logger?: TokenIndexLogger
  /** Told how far behind the head the index is as it syncs (the metrics' lag). */
  observer?: Pick<Observer, 'tokenIndexSynced'>
}

const DEFAULT_POLL_INTERVAL_MS = 4_000
const MAX_BACKOFF_MS = 60_000

/** The index's answers (IndexReads), and the sync that keeps it, once at a time or in a background loop. */
export class TokenIndex extends IndexReads {
  readonly #sync: IndexSync
  #syncing: Promise<SyncResult> | undefined
  readonly #loop: BackgroundLoop

  constructor(options: TokenIndexOptions) {
    if (!Number.isSafeInteger(options.fromBlock) || options.fromBlock < 0)
      throw new RangeError('fromBlock must be a block number')
    if (!Number.isSafeInteger(options.confirmations) || options.confirmations < 0)
      throw new RangeError('confirmations must be a whole number ≥ 0')
    const indexed = {
      chainId: options.chainId,
      token: getAddress(options.token),
      fromBlock: options.fromBlock,
    }
    super({
      db: options.db,
      client: options.client,
      indexed,
      multicall3: options.multicall3 ? getAddress(options.multicall3) : null,
    })
    const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
    this.#sync = new IndexSync({
      db: options.db,
      client: options.client,
      indexed,
      confirmations: options.confirmations,
      maxRange: Math.max(1, options.maxRange ?? DEFAULT_MAX_RANGE),
      eligibilityChunk: options.eligibilityChunk,
      logger: options.logger,
      stopped: () => this.#loop.stopping,
      progress: (head, indexedBlock) => options.observer?.tokenIndexSynced(head, indexedBlock),
    })
    this.#loop = new BackgroundLoop({
      pass: async () => {
        const result = await this.syncOnce()
        return result.indexedBlock < result.targetBlock ? 'busy' : 'idle'
      },
      pollMs: pollIntervalMs,
      backoffMs: (failures) => Math.min(pollIntervalMs * 2 ** failures, MAX_BACKOFF_MS),
      onFailure: (error, retryInMs) =>
        options.logger?.warn({ err: error, retryInMs }, 'token index sync failed'),
    })
  }

  /** Indexes up to head − confirmations (rewinding a reorg first). Concurrent callers share one sync. */
  syncOnce(): Promise<SyncResult> {
    this.#syncing ??= this.#sync.run().finally(() => {
      this.#syncing = undefined
    })
    return this.#syncing
  }

  /** Syncs in the background until `stop()`: at once while behind, then every poll interval. */
  start(): void {
    this.#loop.start()
  }

  /** Ends the background loop after the range in progress (if any); resolves when nothing is running. */
  async stop(): Promise<void> {
    await this.#loop.stop()
    await this.#syncing?.catch(() => undefined)
  }
}
