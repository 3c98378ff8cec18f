// Spending per proposal category (GET /api/treasury/spending): what the Safe paid out through executed
// proposals, ETH values and ERC-20 transfers of their signed actions, grouped by the category each
// proposal was signed with ('' when it has none); and, as category null, what it paid out in executions the
// app did not queue, from the treasury index's outgoing rows.
import { decodeAction, type TreasurySpending } from '@guildhall/core'
import { and, eq, isNotNull, notInArray, or, sql } from 'drizzle-orm'
import type { Address } from 'viem'
import { proposals, safeExecutions, treasuryEvents } from '../platform/db/schema.ts'
import type { ExecutionDeps } from './deps.ts'

export async function spendingByCategory(deps: ExecutionDeps): Promise<TreasurySpending> {
  const { db } = deps.governance.database
  // Executed: settled so by a read of the proposal's execution, or already in the treasury index (its
  // ExecutionSuccess carries the derived hash), whichever comes first; nobody has to open the proposal.
  const indexed = db
    .select({ safeTxHash: treasuryEvents.safeTxHash, transaction: treasuryEvents.transactionHash })
    .from(treasuryEvents)
    .where(eq(treasuryEvents.kind, 'execution'))
    .as('indexed')
  const rows = await db
    .select({
      id: proposals.id,
      message: proposals.message,
      transaction: sql<string | null>`coalesce(${safeExecutions.outcomeTransaction}, ${indexed.transaction})`,
    })
    .from(safeExecutions)
    .innerJoin(proposals, eq(proposals.id, safeExecutions.proposalId))
    .leftJoin(indexed, eq(indexed.safeTxHash, safeExecutions.safeTxHash))
    .where(or(eq(safeExecutions.state, 'executed'), isNotNull(indexed.safeTxHash)))
  const totals = new Map<
    string,
    { category: string; token: Address | null; amount: bigint; proposals: Set<string> }
  >()
  const add = (category: string, token: Address | null, amount: bigint, proposal: string) => {
    const key = `${category}\u0000${token ?? 'native'}`
    const entry = totals.get(key) ?? { category, token, amount: 0n, proposals: new Set<string>() }
    entry.amount += amount
    entry.proposals.add(proposal)
    totals.set(key, entry)
  }
  for (const { id, message } of rows) {
    if (message.version !== 2) continue
    for (const action of message.actions) {
      if (BigInt(action.value) > 0n) add(message.category, null, BigInt(action.value), id)
      const decoded = decodeAction(action, { safe: deps.safe })
      if (decoded.kind === 'erc20-transfer' && decoded.amount)
        add(message.category, action.target, BigInt(decoded.amount), id)
    }
  }
  const ours = rows.flatMap((row) => (row.transaction ? [row.transaction] : []))
  const outside = await db
    .select({ token: treasuryEvents.token, amount: sql<string>`sum(${treasuryEvents.amount})::text` })
    .from(treasuryEvents)
    .where(
      and(
        eq(treasuryEvents.kind, 'outgoing'),
        isNotNull(treasuryEvents.amount),
        ours.length > 0 ? notInArray(treasuryEvents.transactionHash, ours) : undefined,
      ),
    )
    .groupBy(treasuryEvents.token)
  const outsideRows = outside.map((row) => ({
    category: null,
    token: (row.token as Address | null) ?? null,
    amount: row.amount,
    proposals: 0,
  }))
  return {
    categories: [
      ...[...totals.values()]
        .sort((a, b) => a.category.localeCompare(b.category) || (a.token ?? '').localeCompare(b.token ?? ''))
        .map((entry) => ({
          category: entry.category,
          token: entry.token,
          amount: String(entry.amount),
          proposals: entry.proposals.size,
        })),
      ...outsideRows,
    ],
  }
}
