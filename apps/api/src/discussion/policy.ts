// Who may post (DISCUSSION_POSTERS): by default signed-in members with voting power or tokens above zero at
// the token index's latest block, read from the directory's row (member_stats), which the index moves.
import { eq } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { memberStats, tokenIndexCursor } from '../platform/db/schema.ts'
import { TOKEN_INDEX_CURSOR_ID } from '../token/token-index.ts'
import type { DiscussionDeps } from './deps.ts'

/**
 * An account's voting power and tokens at the token index's latest block (zeros without a row), and that
 * block (null before the index has a cursor), read in one statement; a flag's weight too (moderation.ts),
 * stored with the block so a thread recount can read the same from the chain.
 */
export async function stakeOf(
  db: Db,
  address: Address,
): Promise<{ votes: bigint; balance: bigint; block: number | null }> {
  const [row] = await db
    .select({ block: tokenIndexCursor.block, votes: memberStats.votes, balance: memberStats.balance })
    .from(tokenIndexCursor)
    .leftJoin(memberStats, eq(memberStats.address, address))
    .where(eq(tokenIndexCursor.id, TOKEN_INDEX_CURSOR_ID))
  return { votes: row?.votes ?? 0n, balance: row?.balance ?? 0n, block: row?.block ?? null }
}

/** Why `address` may not post, or null: the posting policy alone (a lock is the thread's own). */
export async function postingProblem(
  deps: DiscussionDeps,
  address: Address | undefined,
): Promise<string | null> {
  if (!address) return 'Sign in to take part in the discussion.'
  if (deps.posters === 'signed-in') return null
  const { votes, balance } = await stakeOf(deps.governance.database.db, address)
  return votes > 0n || balance > 0n
    ? null
    : 'Posting is open to members with voting power or tokens; this account has neither.'
}
