// The treasury index (ADR 049): the DAO's Safe's history, followed with eth_getLogs from TREASURY_START_BLOCK
// and kept in the database by the leader, like the token index (token/token-index.ts): a cursor, ranges
// halved while the node refuses them, reorgs rewound to the fork point, each range applied in one
// transaction. What it reads: the Safe's own events (every release's layout), the followed tokens'
// Transfers to and from it, each execution's transaction once (its calls decoded), and the Safe's native
// balance at each range's end, reconciled with the indexed moves (index/reconcile.ts).
//
// This class is the index's one door: code outside treasury/ imports it from this file, never from index/.
import { type Address, getAddress, type PublicClient } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { DEFAULT_MAX_RANGE } from '../platform/indexer/log-range.ts'
import { BackgroundLoop } from '../platform/jobs/background-loop.ts'
import { type ExecutionProposals, TreasuryReads } from './index/reads.ts'
import { type TreasuryIndexLogger, TreasurySync, type TreasurySyncResult } from './index/sync.ts'

export type { ExecutionProposals, HistoryFilter } from './index/reads.ts'
export type { TreasurySyncResult } from './index/sync.ts'

export type TreasuryIndexOptions = {
  db: Db
  client: PublicClient
  chainId: number
  safe: Address
  /** The followed ERC-20 tokens (the governance token among them). */
  tokens: readonly Address[]
  fromBlock: number
  confirmations: number
  /** The chain's native coin's symbol, for the unexplained rows' words. */
  nativeSymbol: string
  maxRange?: number
  pollIntervalMs?: number
  /** Links executions to the proposals whose queued transactions they carried out. */
  executionProposals?: ExecutionProposals
  logger?: TreasuryIndexLogger
}

const DEFAULT_POLL_INTERVAL_MS = 4_000
const MAX_BACKOFF_MS = 60_000

export class TreasuryIndex extends TreasuryReads {
  readonly #sync: TreasurySync
  #syncing: Promise<TreasurySyncResult> | undefined
  readonly #loop: BackgroundLoop

  constructor(options: TreasuryIndexOptions) {
    if (!Number.isSafeInteger(options.fromBlock) || options.fromBlock < 0)
      throw new RangeError('fromBlock must be a block number')
    super(options.db, options.executionProposals)
    const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
    this.#sync = new TreasurySync({
      db: options.db,
      client: options.client,
      indexed: {
        chainId: options.chainId,
        safe: getAddress(options.safe),
        tokens: options.tokens.map((token) => getAddress(token)),
        fromBlock: options.fromBlock,
      },
      confirmations: options.confirmations,
      maxRange: Math.max(1, options.maxRange ?? DEFAULT_MAX_RANGE),
      nativeSymbol: options.nativeSymbol,
      logger: options.logger,
      stopped: () => this.#loop.stopping,
    })
    this.#loop = new BackgroundLoop({
      pass: async () => {
        const result = await this.syncOnce()
        return result.indexedBlock < result.targetBlock ? 'busy' : 'idle'
      },
      pollMs: pollIntervalMs,
      backoffMs: (failures) => Math.min(pollIntervalMs * 2 ** failures, MAX_BACKOFF_MS),
      onFailure: (error, retryInMs) =>
        options.logger?.warn({ err: error, retryInMs }, 'treasury index sync failed'),
    })
  }

  /** Indexes up to head − confirmations (rewinding a reorg first). Concurrent callers share one sync. */
  syncOnce(): Promise<TreasurySyncResult> {
    this.#syncing ??= this.#sync.run().finally(() => {
      this.#syncing = undefined
    })
    return this.#syncing
  }

  start(): void {
    this.#loop.start()
  }

  async stop(): Promise<void> {
    await this.#loop.stop()
    await this.#syncing?.catch(() => undefined)
  }
}
