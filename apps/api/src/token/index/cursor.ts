// The token index's cursor row (token_index_cursor): how far the index stands, and for which token. Every
// write of the index first locks it (lockCursorAt), so a range or a rewind is applied once, by one server.
import { and, eq, type SQL } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Tx } from '../../platform/db/client.ts'
import { tokenIndexCursor } from '../../platform/db/schema.ts'
import type { Cursor } from '../../platform/indexer/fork-point.ts'

export const CURSOR_ID = 'governance-token'

export type { Cursor } from '../../platform/indexer/fork-point.ts'

/** What an index is built for: a cursor row for another chain, token or start block is not its own. */
export type IndexedToken = { chainId: number; token: Address; fromBlock: number }

/** The condition selecting the cursor row of `indexed` (none when the row is another configuration's). */
export function ownCursor(indexed: IndexedToken): SQL | undefined {
  return and(
    eq(tokenIndexCursor.id, CURSOR_ID),
    eq(tokenIndexCursor.chainId, indexed.chainId),
    eq(tokenIndexCursor.token, indexed.token),
    eq(tokenIndexCursor.fromBlock, indexed.fromBlock),
  )
}

/** Locks the cursor row for this transaction; false when it is no longer at `expected` (another writer). */
export async function lockCursorAt(tx: Tx, expected: Cursor): Promise<boolean> {
  const [row] = await tx
    .select({ block: tokenIndexCursor.block, blockHash: tokenIndexCursor.blockHash })
    .from(tokenIndexCursor)
    .where(eq(tokenIndexCursor.id, CURSOR_ID))
    .for('update')
  return row?.block === expected.block && row.blockHash === expected.blockHash
}
