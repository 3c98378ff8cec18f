// Reorgs: the index keeps the hashes of its newest blocks (token_index_blocks), and when the chain no longer
// has the cursor's block it finds the fork point (platform/indexer/fork-point.ts) and drops every row after it.
import { eq, sql } from 'drizzle-orm'
import { rebuildMemberStats } from '../../member-stats/token-moves.ts'
import type { Db, Tx } from '../../platform/db/client.ts'
import {
  tokenBalanceCheckpoints,
  tokenDelegateChanges,
  tokenIndexBlocks,
  tokenIndexCursor,
  tokenVoteCheckpoints,
} from '../../platform/db/schema.ts'
import { CURSOR_ID, type Cursor, lockCursorAt } from './cursor.ts'

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
