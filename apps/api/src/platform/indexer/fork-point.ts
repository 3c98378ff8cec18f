// Reorgs, as the indexes (the token's, the treasury's) find them: each keeps the hashes of its newest blocks
// in a table of its own (number, hash), and when the chain no longer has its cursor's block, the newest
// stored block the chain still has is the fork point it rewinds to.
import { desc, lt, lte, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { PublicClient } from 'viem'
import type { Db, Tx } from '../db/client.ts'
import { hashAt } from './blocks.ts'

/** Stored block hashes kept for finding a fork point; a reorg deeper than all of them re-indexes from scratch. */
export const RETAINED_BLOCK_HASHES = 256
/** Blocks fetched at once looking for a fork point. */
const FORK_SEARCH_CONCURRENCY = 8

/** An index's table of block hashes: `number` (its key) and `hash`. */
export type BlockHashTable = PgTable & { number: PgColumn; hash: PgColumn }

/** The last indexed block and its hash (null before the first range). */
export type Cursor = { block: number; blockHash: string | null }

/** Stores the hashes of a range's blocks (its end, and each block with a log), in the range's transaction. */
export async function storeBlockHashes(
  tx: Tx,
  table: BlockHashTable,
  blockHashes: Map<number, string>,
): Promise<void> {
  // Only the newest hashes can be needed for a fork point; older ones would only grow the table.
  const blockRows = [...blockHashes]
    .sort(([a], [b]) => b - a)
    .slice(0, RETAINED_BLOCK_HASHES)
    .map(([number, hash]) => ({ number, hash }))
  // biome-ignore lint/suspicious/noExplicitAny: the table is any index's (number, hash) table
  await tx.insert(table).values(blockRows as any)
  await tx
    .delete(table)
    .where(
      lt(
        table.number,
        sql`(select ${table.number} from ${table} order by ${table.number} desc offset ${RETAINED_BLOCK_HASHES - 1} limit 1)`,
      ),
    )
}

/** The newest stored block at or before `cursor` that the chain still has; the start when there is none. */
export async function findForkPoint(
  db: Db,
  client: PublicClient,
  table: BlockHashTable,
  cursor: Cursor,
  fromBlock: number,
): Promise<Cursor> {
  const stored = (await db
    .select({ number: table.number, hash: table.hash })
    .from(table)
    .where(lte(table.number, cursor.block))
    .orderBy(desc(table.number))) as { number: number; hash: string }[]
  for (let i = 0; i < stored.length; i += FORK_SEARCH_CONCURRENCY) {
    const batch = stored.slice(i, i + FORK_SEARCH_CONCURRENCY)
    const canonical = await Promise.all(batch.map((block) => hashAt(client, block.number)))
    for (const [j, block] of batch.entries()) {
      if (canonical[j] === block.hash) return { block: block.number, blockHash: block.hash }
    }
  }
  return { block: fromBlock - 1, blockHash: null }
}
