// A range's logs written as the index's rows: per account and block, the balance, the delegate and the
// votes after the block's last event, and the members directory's rows moved to match (member-stats).
import { desc, inArray } from 'drizzle-orm'
import { type Address, zeroAddress } from 'viem'
import { type MemberChanges, moveMemberStats } from '../../member-stats/token-moves.ts'
import type { Tx } from '../../platform/db/client.ts'
import {
  tokenBalanceCheckpoints,
  tokenDelegateChanges,
  tokenVoteCheckpoints,
} from '../../platform/db/schema.ts'
import type { TokenLog } from './token-logs.ts'

/** Rows per INSERT (3 parameters each, far below PostgreSQL's 65,535). */
const INSERT_CHUNK = 1_000

/**
 * Writes the checkpoints of one range (per account and block, the state after the block's last event; vote
 * checkpoints dated with `times`) and moves the members directory's rows; returns how much the total of all
 * votes moved.
 */
export async function applyLogs(tx: Tx, logs: TokenLog[], times: Map<number, number>): Promise<bigint> {
  const ordered = [...logs].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  )
  const balances = await latestBalances(
    tx,
    new Set(
      ordered.flatMap((log) =>
        log.eventName === 'Transfer' ? [log.args.from, log.args.to].filter((a) => a !== zeroAddress) : [],
      ),
    ),
  )
  // Keyed by block and account: a later event in the same block replaces the earlier value.
  const balanceRows = new Map<string, typeof tokenBalanceCheckpoints.$inferInsert>()
  const delegateRows = new Map<string, typeof tokenDelegateChanges.$inferInsert>()
  const voteRows = new Map<string, typeof tokenVoteCheckpoints.$inferInsert>()
  // Each account's state after the range, for the members directory.
  const after: MemberChanges = { balances: new Map(), delegates: new Map(), votes: new Map() }
  for (const log of ordered) {
    const block = log.blockNumber
    if (log.eventName === 'Transfer') {
      const { from, to, value } = log.args
      for (const [account, delta] of [
        [from, -value],
        [to, value],
      ] as const) {
        if (account === zeroAddress) continue
        const balance = (balances.get(account) ?? 0n) + delta
        // ERC-20 balances cannot go negative: a missing event, so refuse to write a wrong index.
        if (balance < 0n) throw new Error(`token index: negative balance for ${account} at block ${block}`)
        balances.set(account, balance)
        after.balances.set(account, balance)
        balanceRows.set(`${block}:${account}`, { account, block, balance })
      }
    } else if (log.eventName === 'DelegateChanged') {
      const { delegator, toDelegate } = log.args
      delegateRows.set(`${block}:${delegator}`, { delegator, block, delegate: toDelegate })
      after.delegates.set(delegator, toDelegate)
    } else {
      const { delegate, newVotes } = log.args
      const blockTime = times.get(block)
      if (blockTime === undefined) throw new Error(`token index: no time for block ${block}`)
      voteRows.set(`${block}:${delegate}`, { delegate, block, votes: newVotes, blockTime })
      after.votes.set(delegate, newVotes)
    }
  }
  for (const rows of chunks([...balanceRows.values()])) await tx.insert(tokenBalanceCheckpoints).values(rows)
  for (const rows of chunks([...delegateRows.values()])) await tx.insert(tokenDelegateChanges).values(rows)
  for (const rows of chunks([...voteRows.values()])) await tx.insert(tokenVoteCheckpoints).values(rows)
  return moveMemberStats(tx, after)
}

/** Each account's latest indexed balance (absent: never held any). */
async function latestBalances(tx: Tx, accounts: Set<Address>): Promise<Map<Address, bigint>> {
  const t = tokenBalanceCheckpoints
  const balances = new Map<Address, bigint>()
  const all = [...accounts]
  for (let i = 0; i < all.length; i += INSERT_CHUNK) {
    const rows = await tx
      .selectDistinctOn([t.account], { account: t.account, balance: t.balance })
      .from(t)
      .where(inArray(t.account, all.slice(i, i + INSERT_CHUNK)))
      .orderBy(t.account, desc(t.block))
    for (const row of rows) balances.set(row.account as Address, row.balance)
  }
  return balances
}

/** `rows` in slices of INSERT_CHUNK, one INSERT each. */
function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) yield rows.slice(i, i + INSERT_CHUNK)
}
