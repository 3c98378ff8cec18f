// The treasury index's range loop, the token index's pattern (token/index/sync.ts): from the cursor to
// head − confirmations a range at a time, each range's logs read and checked against the chain (the range
// end's hash before and after, the cursor block's hash), turned into rows, reconciled with the Safe's
// native balance, then applied in one transaction with the figures and the cursor. A reorg is rewound to
// the fork point (platform/indexer/fork-point.ts); a refused range is halved (platform/indexer/log-range.ts).
import { eq, gt } from 'drizzle-orm'
import { type Address, erc20Abi, type PublicClient, parseAbi } from 'viem'
import type { Db, Tx } from '../../platform/db/client.ts'
import {
  treasuryBalances,
  treasuryBlocks,
  treasuryCursor,
  treasuryDailyBalances,
  treasuryEvents,
  treasuryMonthlyFlows,
} from '../../platform/db/schema.ts'
import { blockAt, hashAt, logBlockTimes } from '../../platform/indexer/blocks.ts'
import { type Cursor, findForkPoint, storeBlockHashes } from '../../platform/indexer/fork-point.ts'
import { LogRange, refusedAsTooLarge } from '../../platform/indexer/log-range.ts'
import { applyFigures, NATIVE_KEY, rebuildFigures } from './figures.ts'
import { fetchTreasuryLogs, type TreasuryLog } from './logs.ts'
import { unexplainedRows } from './reconcile.ts'
import { rowsOfLogs } from './rows.ts'

const CURSOR_ID = 'treasury'
const nonceAbi = parseAbi(['function nonce() view returns (uint256)'])

/** What the index is built for: a cursor row for another Safe, chain, token list or start block is not its own. */
export type TreasuryIndexed = { chainId: number; safe: Address; tokens: Address[]; fromBlock: number }

export type TreasurySyncResult = {
  /** Every event up to and including this block is in the index (fromBlock − 1 when none is). */
  indexedBlock: number
  /** The block the sync aimed for: chain head − confirmations. */
  targetBlock: number
  /** Set when a reorg was found: the block the index was rewound to before indexing again. */
  rewoundTo: number | null
}

export type TreasuryIndexLogger = { warn(details: object, message: string): void }

type TreasuryCursor = Cursor & { nextNonce: number | null }

class ChainMovedError extends Error {
  override name = 'ChainMovedError'
}

export type TreasurySyncOptions = {
  db: Db
  client: PublicClient
  indexed: TreasuryIndexed
  confirmations: number
  maxRange: number
  nativeSymbol: string
  logger: TreasuryIndexLogger | undefined
  stopped: () => boolean
}

/** Rows per INSERT: 13 parameters each, well inside PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 2_000

/** Locks the cursor row for this transaction; false when it is no longer at `expected` (another writer). */
async function lockCursorAt(tx: Tx, expected: Cursor): Promise<boolean> {
  const [row] = await tx
    .select({ block: treasuryCursor.block, blockHash: treasuryCursor.blockHash })
    .from(treasuryCursor)
    .where(eq(treasuryCursor.id, CURSOR_ID))
    .for('update')
  return row?.block === expected.block && row.blockHash === expected.blockHash
}

/** Deletes the rows of blocks after `block` (all of them when undefined). */
async function deleteRowsAfter(tx: Tx, block: number | undefined): Promise<void> {
  if (block === undefined) {
    for (const table of [
      treasuryEvents,
      treasuryBlocks,
      treasuryDailyBalances,
      treasuryMonthlyFlows,
      treasuryBalances,
    ])
      await tx.delete(table)
    return
  }
  await tx.delete(treasuryEvents).where(gt(treasuryEvents.block, block))
  await tx.delete(treasuryBlocks).where(gt(treasuryBlocks.number, block))
  await rebuildFigures(tx)
}

export class TreasurySync {
  readonly #db: Db
  readonly #client: PublicClient
  readonly #indexed: TreasuryIndexed
  readonly #confirmations: number
  readonly #range: LogRange
  readonly #nativeSymbol: string
  readonly #logger: TreasuryIndexLogger | undefined
  readonly #stopped: () => boolean

  constructor(options: TreasurySyncOptions) {
    this.#db = options.db
    this.#client = options.client
    this.#indexed = options.indexed
    this.#confirmations = options.confirmations
    this.#range = new LogRange(options.maxRange)
    this.#nativeSymbol = options.nativeSymbol
    this.#logger = options.logger
    this.#stopped = options.stopped
  }

  async run(): Promise<TreasurySyncResult> {
    let cursor = await this.#loadCursor()
    const head = Number(await this.#client.getBlockNumber({ cacheTime: 0 }))
    const targetBlock = head - this.#confirmations
    let rewoundTo: number | null = null
    if (cursor.blockHash !== null && (await hashAt(this.#client, cursor.block)) !== cursor.blockHash) {
      cursor = await this.#rewind(cursor)
      rewoundTo = cursor.block
    }
    while (cursor.block < targetBlock && !this.#stopped()) {
      const next = await this.#indexRange(cursor, targetBlock)
      if (next === 'fork') {
        cursor = await this.#rewind(cursor)
        rewoundTo = cursor.block
      } else {
        cursor = next
      }
    }
    return { indexedBlock: cursor.block, targetBlock, rewoundTo }
  }

  get #tokens(): string {
    return this.#indexed.tokens.join(',')
  }

  /** The cursor for this configuration; created, or reset (all rows dropped) when it was for another. */
  async #loadCursor(): Promise<TreasuryCursor> {
    const fresh = {
      id: CURSOR_ID,
      chainId: this.#indexed.chainId,
      safe: this.#indexed.safe,
      tokens: this.#tokens,
      fromBlock: this.#indexed.fromBlock,
      block: this.#indexed.fromBlock - 1,
      blockHash: null,
      nextNonce: null,
    }
    await this.#db.insert(treasuryCursor).values(fresh).onConflictDoNothing()
    const [row] = await this.#db.select().from(treasuryCursor).where(eq(treasuryCursor.id, CURSOR_ID))
    if (!row) throw new Error('treasury index cursor missing after insert')
    if (
      row.chainId === fresh.chainId &&
      row.safe === fresh.safe &&
      row.tokens === fresh.tokens &&
      row.fromBlock === fresh.fromBlock
    )
      return { block: row.block, blockHash: row.blockHash, nextNonce: row.nextNonce }
    this.#logger?.warn(
      { was: { chainId: row.chainId, safe: row.safe, tokens: row.tokens, fromBlock: row.fromBlock } },
      'treasury index: another Safe, chain, token list or start block is configured; indexing from scratch',
    )
    await this.#db.transaction(async (tx) => {
      await tx.select().from(treasuryCursor).where(eq(treasuryCursor.id, CURSOR_ID)).for('update')
      await deleteRowsAfter(tx, undefined)
      await tx
        .update(treasuryCursor)
        .set({ ...fresh, updatedAt: new Date() })
        .where(eq(treasuryCursor.id, CURSOR_ID))
    })
    return { block: fresh.block, blockHash: null, nextNonce: null }
  }

  async #rewind(cursor: TreasuryCursor): Promise<TreasuryCursor> {
    const fork = await findForkPoint(this.#db, this.#client, treasuryBlocks, cursor, this.#indexed.fromBlock)
    this.#logger?.warn(
      { indexedBlock: cursor.block, forkBlock: fork.block },
      fork.blockHash === null
        ? 'treasury index: reorg deeper than the stored block hashes; indexing from scratch'
        : 'treasury index: reorg; rewinding to the fork point',
    )
    if (fork.blockHash === null) {
      const rewound = await this.#db.transaction(async (tx) => {
        if (!(await lockCursorAt(tx, cursor))) return false
        await deleteRowsAfter(tx, undefined)
        await tx
          .update(treasuryCursor)
          .set({ block: fork.block, blockHash: null, nextNonce: null, updatedAt: new Date() })
          .where(eq(treasuryCursor.id, CURSOR_ID))
        return true
      })
      return rewound ? { ...fork, nextNonce: null } : this.#loadCursor()
    }
    // The Safe's nonce after the fork block, as the chain has it (each execution on the dropped blocks is gone).
    const nextNonce = await this.#nonceAt(fork.block)
    const rewound = await this.#db.transaction(async (tx) => {
      if (!(await lockCursorAt(tx, cursor))) return false
      await deleteRowsAfter(tx, fork.block)
      await tx
        .update(treasuryCursor)
        .set({ block: fork.block, blockHash: fork.blockHash, nextNonce, updatedAt: new Date() })
        .where(eq(treasuryCursor.id, CURSOR_ID))
      return true
    })
    return rewound ? { ...fork, nextNonce } : this.#loadCursor()
  }

  /** The Safe's nonce after `block`; 0 before the Safe exists. */
  async #nonceAt(block: number): Promise<number> {
    if (block < 0) return 0
    const code = await this.#client.getCode({ address: this.#indexed.safe, blockNumber: BigInt(block) })
    if (!code || code === '0x') return 0
    const nonce = await this.#client.readContract({
      address: this.#indexed.safe,
      abi: nonceAbi,
      functionName: 'nonce',
      blockNumber: BigInt(block),
    })
    return Number(nonce)
  }

  /** The Safe's balances (native and each token) after `block`, where the index starts. */
  async #startBalances(block: number): Promise<{ token: string; start: bigint; balance: bigint }[]> {
    const at = block < 0 ? undefined : BigInt(block)
    const native =
      at === undefined ? 0n : await this.#client.getBalance({ address: this.#indexed.safe, blockNumber: at })
    const tokens = await Promise.all(
      this.#indexed.tokens.map(async (token) => {
        if (at === undefined) return 0n
        const code = await this.#client.getCode({ address: token, blockNumber: at })
        if (!code || code === '0x') return 0n
        return this.#client.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [this.#indexed.safe],
          blockNumber: at,
        })
      }),
    )
    return [
      { token: NATIVE_KEY, start: native, balance: native },
      ...this.#indexed.tokens.map((token, i) => ({
        token,
        start: tokens[i] ?? 0n,
        balance: tokens[i] ?? 0n,
      })),
    ]
  }

  async #indexRange(cursor: TreasuryCursor, target: number): Promise<TreasuryCursor | 'fork'> {
    const from = cursor.block + 1
    const to = Math.min(target, from + this.#range.size - 1)
    const endBefore = (await blockAt(this.#client, to))?.hash ?? null
    let logs: TreasuryLog[]
    try {
      logs = await fetchTreasuryLogs(this.#client, this.#indexed, from, to)
    } catch (error) {
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

    // The first range: where the Safe stood before it.
    const start = cursor.nextNonce === null ? await this.#startBalances(from - 1) : null
    const nonce = cursor.nextNonce ?? (await this.#nonceAt(from - 1))
    const times = await logBlockTimes(this.#client, logs)
    const { rows, nonce: nextNonce } = await rowsOfLogs(logs, {
      client: this.#client,
      chainId: this.#indexed.chainId,
      safe: this.#indexed.safe,
      nonce,
      times,
    })
    const nativeBefore =
      start?.[0]?.balance ??
      (
        await this.#db
          .select({ balance: treasuryBalances.balance })
          .from(treasuryBalances)
          .where(eq(treasuryBalances.token, NATIVE_KEY))
      )[0]?.balance ??
      0n
    const unexplained = await unexplainedRows(this.#client, {
      safe: this.#indexed.safe,
      from,
      to,
      before: nativeBefore,
      rows,
      nativeSymbol: this.#nativeSymbol,
    })
    const all = [...rows, ...unexplained].sort(
      (a, b) => a.block - b.block || a.logIndex - b.logIndex || a.sub - b.sub,
    )

    const blockHashes = new Map<number, string>([[to, endAfter]])
    for (const log of logs) blockHashes.set(log.blockNumber, log.blockHash)
    if (blockHashes.get(to) !== endAfter)
      throw new ChainMovedError(`the logs of block ${to} are not from the chain's block ${to}`)

    const moved = await this.#db.transaction(async (tx) => {
      if (!(await lockCursorAt(tx, cursor))) return true
      if (start) await tx.insert(treasuryBalances).values(start)
      for (let i = 0; i < all.length; i += INSERT_CHUNK)
        await tx.insert(treasuryEvents).values(all.slice(i, i + INSERT_CHUNK))
      await applyFigures(tx, all)
      await storeBlockHashes(tx, treasuryBlocks, blockHashes)
      await tx
        .update(treasuryCursor)
        .set({ block: to, blockHash: endAfter, nextNonce, updatedAt: new Date() })
        .where(eq(treasuryCursor.id, CURSOR_ID))
      return false
    })
    this.#range.applied()
    return moved ? this.#loadCursor() : { block: to, blockHash: endAfter, nextNonce }
  }
}
