// Native coin the Safe's events cannot show (sent inside a batch on an L1 Safe whose transaction could not be
// read, by a module, or received without a SafeReceived): the balance the chain reports is compared with the
// balance the indexed moves give, and each block where they part is found by halving the range, so the
// difference is shown in the block it happened in, as "moved in ways this page cannot see".
import type { Address, PublicClient } from 'viem'
import { blockAt } from '../../platform/indexer/blocks.ts'
import type { TreasuryRow } from './rows.ts'

/** Blocks at most given their own unexplained row per range; beyond, the rest of the range is one row. */
const MAX_UNEXPLAINED_PER_RANGE = 32

export async function unexplainedRows(
  client: PublicClient,
  {
    safe,
    from,
    to,
    before,
    rows,
    nativeSymbol,
  }: {
    safe: Address
    from: number
    to: number
    /** The Safe's native balance after block from − 1, as indexed. */
    before: bigint
    /** The range's rows: their native moves are the ones the index knows. */
    rows: readonly TreasuryRow[]
    nativeSymbol: string
  },
): Promise<TreasuryRow[]> {
  const known = new Map<number, bigint>()
  for (const row of rows)
    if (row.token === null && row.amount !== null && row.sign !== 0)
      known.set(row.block, (known.get(row.block) ?? 0n) + BigInt(row.sign) * row.amount)
  const knownThrough = (start: number, end: number) => {
    let sum = 0n
    for (const [block, delta] of known) if (block >= start && block <= end) sum += delta
    return sum
  }
  const balanceAt = (block: number) => client.getBalance({ address: safe, blockNumber: BigInt(block) })

  const found: { block: number; difference: bigint }[] = []
  // Blocks start…end, whose balance before is `start` and after is `end`, as the chain reports them.
  const search = async (start: number, end: number, balanceBefore: bigint, balanceAfter: bigint) => {
    const difference = balanceAfter - balanceBefore - knownThrough(start, end)
    if (difference === 0n) return
    if (start === end || found.length >= MAX_UNEXPLAINED_PER_RANGE) {
      found.push({ block: end, difference })
      return
    }
    const middle = Math.floor((start + end) / 2)
    const balanceMiddle = await balanceAt(middle)
    await search(start, middle, balanceBefore, balanceMiddle)
    await search(middle + 1, end, balanceMiddle, balanceAfter)
  }
  await search(from, to, before, await balanceAt(to))

  const unexplained: TreasuryRow[] = []
  for (const { block, difference } of found) {
    const time = await blockAt(client, block)
    if (!time) throw new Error(`treasury index: block ${block} is gone`)
    const out = difference < 0n
    unexplained.push({
      block,
      logIndex: -1,
      sub: 0,
      timestamp: Number(time.timestamp),
      transactionHash: null,
      kind: 'unexplained',
      sign: out ? -1 : 1,
      token: null,
      amount: out ? -difference : difference,
      counterparty: null,
      detail: `${nativeSymbol} ${out ? 'left the Safe' : 'reached the Safe'}: moved in ways this page cannot see`,
      safeTxHash: null,
      safeNonce: null,
    })
  }
  return unexplained
}
