// The range fetch/apply loop: from the cursor to head − confirmations, a range of blocks at a time, each
// range's logs read and checked against the chain, then applied in one transaction with the cursor.
import { eq, sql } from 'drizzle-orm'
import type { PublicClient } from 'viem'
import { countEligibleMembers } from '../../member-stats/token-moves.ts'
import type { Db } from '../../platform/db/client.ts'
import { tokenIndexBlocks, tokenIndexCursor } from '../../platform/db/schema.ts'
import { blockAt, hashAt, logBlockTimes } from '../../platform/indexer/blocks.ts'
import { findForkPoint, storeBlockHashes } from '../../platform/indexer/fork-point.ts'
import { LogRange, refusedAsTooLarge } from '../../platform/indexer/log-range.ts'
import { applyLogs } from './checkpoints.ts'
import { CURSOR_ID, type Cursor, type IndexedToken, lockCursorAt } from './cursor.ts'
import { deleteRowsAfter, rewindTo } from './rewind.ts'
import { fetchTokenLogs, type TokenLog } from './token-logs.ts'

export type SyncResult = {
  /** Every event up to and including this block is in the index (fromBlock − 1 when none is). */
  indexedBlock: number
  /** The block the sync aimed for: chain head − confirmations. */
  targetBlock: number
  /** Set when a reorg was found: the block the index was rewound to before indexing again. */
  rewoundTo: number | null
}

export type TokenIndexLogger = { warn(details: object, message: string): void }

/** The chain changed under a range while it was read; the range was not applied and the next sync retries. */
class ChainMovedError extends Error {
  override name = 'ChainMovedError'
}

export type IndexSyncOptions = {
  db: Db
  /** The DAO chain: logs and block hashes. */
  client: PublicClient
  indexed: IndexedToken
  /** Blocks below the head that count as final. */
  confirmations: number
  /** Most blocks per eth_getLogs request. */
  maxRange: number
  /** Members counted into the directory's participation per transaction (ELIGIBILITY_CHUNK when undefined). */
  eligibilityChunk: number | undefined
  logger: TokenIndexLogger | undefined
  /** True once the sync should end after the range in progress. */
  stopped: () => boolean
  /** Told the head and the indexed block when a sync starts and after each range (the metrics' lag). */
  progress: (headBlock: number, indexedBlock: number) => void
}

/** Brings the index up to head − confirmations; TokenIndex (token-index.ts) runs one at a time. */
export class IndexSync {
  readonly #db: Db
  readonly #client: PublicClient
  readonly #indexed: IndexedToken
  readonly #confirmations: number
  readonly #range: LogRange
  readonly #eligibilityChunk: number | undefined
  readonly #logger: TokenIndexLogger | undefined
  readonly #stopped: () => boolean
  readonly #progress: (headBlock: number, indexedBlock: number) => void

  constructor(options: IndexSyncOptions) {
    this.#db = options.db
    this.#client = options.client
    this.#indexed = options.indexed
    this.#confirmations = options.confirmations
    this.#range = new LogRange(options.maxRange)
    this.#eligibilityChunk = options.eligibilityChunk
    this.#logger = options.logger
    this.#stopped = options.stopped
    this.#progress = options.progress
  }

  /** Indexes up to head − confirmations, rewinding a reorg first. */
  async run(): Promise<SyncResult> {
    let cursor = await this.#loadCursor()
    const head = Number(await this.#client.getBlockNumber({ cacheTime: 0 }))
    const targetBlock = head - this.#confirmations
    let rewoundTo: number | null = null
    if (cursor.blockHash !== null && (await hashAt(this.#client, cursor.block)) !== cursor.blockHash) {
      cursor = await this.#rewind(cursor)
      rewoundTo = cursor.block
    }
    this.#progress(head, cursor.block)
    while (cursor.block < targetBlock && !this.#stopped()) {
      const next = await this.#indexRange(cursor, targetBlock)
      if (next === 'fork') {
        cursor = await this.#rewind(cursor)
        rewoundTo = cursor.block
      } else {
        cursor = next
      }
      this.#progress(head, cursor.block)
    }
    await this.#countEligibleMembers(cursor)
    return { indexedBlock: cursor.block, targetBlock, rewoundTo }
  }

  /**
   * Counts the proposals whose snapshot the index has now reached into the members directory (ADR 030,
   * 033), a chunk of members per transaction, each under the cursor's lock so a rewind cannot interleave;
   * a read only, when there are none. A stop ends it between chunks; the next sync goes on from there.
   */
  async #countEligibleMembers(cursor: Cursor): Promise<void> {
    if (cursor.block < this.#indexed.fromBlock) return
    await countEligibleMembers(this.#db, cursor.block, {
      lock: (tx) => lockCursorAt(tx, cursor),
      chunk: this.#eligibilityChunk,
      stopped: this.#stopped,
    })
  }

  /** The cursor for this token; created, or reset (all rows dropped) when it was for another configuration. */
  async #loadCursor(): Promise<Cursor> {
    const fresh = {
      id: CURSOR_ID,
      chainId: this.#indexed.chainId,
      token: this.#indexed.token,
      fromBlock: this.#indexed.fromBlock,
      block: this.#indexed.fromBlock - 1,
      blockHash: null,
      blockTime: null,
    }
    await this.#db.insert(tokenIndexCursor).values(fresh).onConflictDoNothing()
    const [row] = await this.#db.select().from(tokenIndexCursor).where(eq(tokenIndexCursor.id, CURSOR_ID))
    if (!row) throw new Error('token index cursor missing after insert')
    if (row.chainId === fresh.chainId && row.token === fresh.token && row.fromBlock === fresh.fromBlock)
      return { block: row.block, blockHash: row.blockHash }
    this.#logger?.warn(
      { was: { chainId: row.chainId, token: row.token, fromBlock: row.fromBlock } },
      'token index: another token, chain or start block is configured; indexing from scratch',
    )
    await this.#db.transaction(async (tx) => {
      await tx.select().from(tokenIndexCursor).where(eq(tokenIndexCursor.id, CURSOR_ID)).for('update')
      await deleteRowsAfter(tx, undefined)
      await tx
        .update(tokenIndexCursor)
        .set({ ...fresh, updatedAt: new Date() })
        .where(eq(tokenIndexCursor.id, CURSOR_ID))
    })
    return { block: fresh.block, blockHash: null }
  }

  /** Rewinds to the newest stored block the chain still has (or to the start if none), dropping later rows. */
  async #rewind(cursor: Cursor): Promise<Cursor> {
    const fork = await findForkPoint(
      this.#db,
      this.#client,
      tokenIndexBlocks,
      cursor,
      this.#indexed.fromBlock,
    )
    this.#logger?.warn(
      { indexedBlock: cursor.block, forkBlock: fork.block },
      fork.blockHash === null
        ? 'token index: reorg deeper than the stored block hashes; indexing from scratch'
        : 'token index: reorg; rewinding to the fork point',
    )
    // Another server applied a range (or rewound) first: carry on from where it left the cursor.
    return (await rewindTo(this.#db, cursor, fork)) ? fork : this.#loadCursor()
  }

  /**
   * Fetches and applies the next range after `cursor` (at most the range's size, up to `target`).
   * Returns the new cursor, or 'fork' when the cursor block is no longer on the chain.
   */
  async #indexRange(cursor: Cursor, target: number): Promise<Cursor | 'fork'> {
    const from = cursor.block + 1
    const to = Math.min(target, from + this.#range.size - 1)
    const endBefore = (await blockAt(this.#client, to))?.hash ?? null
    let logs: TokenLog[]
    try {
      logs = await fetchTokenLogs(this.#client, this.#indexed.token, from, to)
    } catch (error) {
      // The node refused the range (too many results, span too wide, answer too big): try half of it.
      if (to > from && refusedAsTooLarge(error)) {
        this.#range.refused(to - from + 1)
        return cursor
      }
      throw error
    }
    const [end, cursorNow] = await Promise.all([
      blockAt(this.#client, to),
      cursor.blockHash === null ? null : hashAt(this.#client, cursor.block),
    ])
    if (cursorNow !== cursor.blockHash) return 'fork'
    const endAfter = end?.hash ?? null
    if (endBefore === null || endAfter === null || endAfter !== endBefore || logs.some((log) => log.removed))
      throw new ChainMovedError(`the chain changed while blocks ${from}–${to} were read`)
    // Only vote changes are dated (ADR 040).
    const times = await logBlockTimes(
      this.#client,
      logs.filter((log) => log.eventName === 'DelegateVotesChanged'),
    )

    const blockHashes = new Map<number, string>([[to, endAfter]])
    for (const log of logs) blockHashes.set(log.blockNumber, log.blockHash)
    if (blockHashes.get(to) !== endAfter)
      throw new ChainMovedError(`the logs of block ${to} are not from the chain's block ${to}`)

    const moved = await this.#db.transaction(async (tx) => {
      if (!(await lockCursorAt(tx, cursor))) return true
      const votesMoved = await applyLogs(tx, logs, times)
      await storeBlockHashes(tx, tokenIndexBlocks, blockHashes)
      await tx
        .update(tokenIndexCursor)
        .set({
          block: to,
          blockHash: endAfter,
          blockTime: Number(end?.timestamp),
          totalVotes: sql`${tokenIndexCursor.totalVotes} + ${String(votesMoved)}::numeric`,
          updatedAt: new Date(),
        })
        .where(eq(tokenIndexCursor.id, CURSOR_ID))
      return false
    })
    this.#range.applied()
    // Another server applied this range (or rewound) first: carry on from where it left the cursor.
    return moved ? this.#loadCursor() : { block: to, blockHash: endAfter }
  }
}
