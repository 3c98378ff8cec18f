// Reorgs: the index keeps the hashes of its newest blocks, and when the chain no longer has the cursor's
// block it finds the newest stored block the chain still has (the fork point) and drops every row after it.
import { desc, eq, lt, lte, sql } from 'drizzle-orm'
import type { PublicClient } from 'viem'
import { rebuildMemberStats } from '../../member-stats/token-moves.ts'
import type { Db, Tx } from '../../platform/db/client.ts'
import {
  tokenBalanceCheckpoints,
  tokenDelegateChanges,
  tokenIndexBlocks,
  tokenIndexCursor,
  tokenVoteCheckpoints,
} from '../../platform/db/schema.ts'
import { FORK_SEARCH_CONCURRENCY, hashAt } from './chain-blocks.ts'
import { CURSOR_ID, type Cursor, lockCursorAt } from './cursor.ts'

/** Stored block hashes kept for finding a fork point; a reorg deeper than all of them re-indexes from scratch. */
export const RETAINED_BLOCK_HASHES = 256

/** Stores the hashes of a range's blocks (its end, and each block with a log), in the range's transaction. */
export async function storeBlockHashes(tx: Tx, blockHashes: Map<number, string>): Promise<void> {
  // Only the newest hashes can be needed for a fork point; older ones would only grow the table.
  const blockRows = [...blockHashes]
    .sort(([a], [b]) => b - a)
    .slice(0, RETAINED_BLOCK_HASHES)
    .map(([number, hash]) => ({ number, hash }))
  await tx.insert(tokenIndexBlocks).values(blockRows)
  await tx
    .delete(tokenIndexBlocks)
    .where(
      lt(
        tokenIndexBlocks.number,
        sql`(select ${tokenIndexBlocks.number} from ${tokenIndexBlocks} order by ${tokenIndexBlocks.number} desc offset ${RETAINED_BLOCK_HASHES - 1} limit 1)`,
      ),
    )
}

/** The newest stored block at or before `cursor` that the chain still has; the start when there is none. */
export async function findForkPoint(
  db: Db,
  client: PublicClient,
  cursor: Cursor,
  fromBlock: number,
): Promise<Cursor> {
  const stored = await db
    .select()
    .from(tokenIndexBlocks)
    .where(lte(tokenIndexBlocks.number, cursor.block))
    .orderBy(desc(tokenIndexBlocks.number))
  for (let i = 0; i < stored.length; i += FORK_SEARCH_CONCURRENCY) {
    const batch = stored.slice(i, i + FORK_SEARCH_CONCURRENCY)
    const canonical = await Promise.all(batch.map((block) => hashAt(client, block.number)))
    for (const [j, block] of batch.entries()) {
      if (canonical[j] === block.hash) return { block: block.number, blockHash: block.hash }
    }
  }
  return { block: fromBlock - 1, blockHash: null }
}

/**
 * Moves the cursor from `cursor` back to `fork`, dropping every row after it, in one transaction; false
 * when the cursor was no longer at `cursor` (another server applied a range or rewound first).
 */
export async function rewindTo(db: Db, cursor: Cursor, fork: Cursor): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await lockCursorAt(tx, cursor))) return false
    await deleteRowsAfter(tx, fork.block)
    await tx
      .update(tokenIndexCursor)
      .set({ block: fork.block, blockHash: fork.blockHash, blockTime: null, updatedAt: new Date() })
      .where(eq(tokenIndexCursor.id, CURSOR_ID))
    return true
  })
}

/** Deletes indexed rows of blocks after `block` (all of them when undefined). */
export async function deleteRowsAfter(tx: Tx, block: number | undefined): Promise<void> {
  for (const table of [tokenBalanceCheckpoints, tokenDelegateChanges, tokenVoteCheckpoints]) {
    await tx.delete(table).where(block === undefined ? undefined : sql`${table.block} > ${block}`)
  }
  await tx
    .delete(tokenIndexBlocks)
    .where(block === undefined ? undefined : sql`${tokenIndexBlocks.number} > ${block}`)
  await rebuildMemberStats(tx, block)
}
