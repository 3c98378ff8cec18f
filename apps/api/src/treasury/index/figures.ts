// The figures the charts read, kept with the rows so a chart reads a page, not the history: the Safe's
// balance of each token at the end of each day it changed, and money in and out per month. Native coin is
// the token '' here.
import { asc, inArray, sql } from 'drizzle-orm'
import type { Tx } from '../../platform/db/client.ts'
import {
  treasuryBalances,
  treasuryDailyBalances,
  treasuryEvents,
  treasuryMonthlyFlows,
} from '../../platform/db/schema.ts'

/** What the figures read of a row. */
type FigureRow = { token: string | null; amount: bigint | null; sign: number; timestamp: number }

const DAY = 86_400
export const NATIVE_KEY = ''
const dayOf = (timestamp: number) => Math.floor(timestamp / DAY) * DAY
const monthOf = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 7)

/** Adds rows (in history order, after every row already applied) to the balances, days and months. */
export async function applyFigures(tx: Tx, rows: readonly FigureRow[]): Promise<void> {
  const moving = rows.filter((row) => row.amount !== null && row.sign !== 0)
  if (moving.length === 0) return
  const keys = [...new Set(moving.map((row) => row.token ?? NATIVE_KEY))]
  const stored = await tx.select().from(treasuryBalances).where(inArray(treasuryBalances.token, keys))
  const balances = new Map(stored.map((row) => [row.token, row.balance]))
  const days = new Map<string, { token: string; day: number; balance: bigint }>()
  const months = new Map<string, { token: string; month: string; incoming: bigint; outgoing: bigint }>()
  for (const row of moving) {
    const token = row.token ?? NATIVE_KEY
    const amount = row.amount as bigint
    const balance = (balances.get(token) ?? 0n) + BigInt(row.sign) * amount
    balances.set(token, balance)
    const day = dayOf(row.timestamp)
    days.set(`${token}:${day}`, { token, day, balance })
    const month = monthOf(row.timestamp)
    const flow = months.get(`${token}:${month}`) ?? { token, month, incoming: 0n, outgoing: 0n }
    if (row.sign > 0) flow.incoming += amount
    else flow.outgoing += amount
    months.set(`${token}:${month}`, flow)
  }
  await tx
    .insert(treasuryBalances)
    .values(keys.map((token) => ({ token, start: 0n, balance: balances.get(token) ?? 0n })))
    .onConflictDoUpdate({ target: treasuryBalances.token, set: { balance: sql`excluded.balance` } })
  await tx
    .insert(treasuryDailyBalances)
    .values([...days.values()])
    .onConflictDoUpdate({
      target: [treasuryDailyBalances.token, treasuryDailyBalances.day],
      set: { balance: sql`excluded.balance` },
    })
  await tx
    .insert(treasuryMonthlyFlows)
    .values([...months.values()])
    .onConflictDoUpdate({
      target: [treasuryMonthlyFlows.token, treasuryMonthlyFlows.month],
      set: {
        incoming: sql`${treasuryMonthlyFlows.incoming} + excluded.incoming`,
        outgoing: sql`${treasuryMonthlyFlows.outgoing} + excluded.outgoing`,
      },
    })
}

/** Rows replayed at a time when the figures are rebuilt. */
const REBUILD_CHUNK = 5_000

/**
 * Rebuilds every figure from the rows left (after a rewind): balances back to their start, then every row
 * replayed in order through applyFigures, so ranges and rewinds keep the figures one way.
 */
export async function rebuildFigures(tx: Tx): Promise<void> {
  await tx.delete(treasuryDailyBalances)
  await tx.delete(treasuryMonthlyFlows)
  await tx.update(treasuryBalances).set({ balance: sql`${treasuryBalances.start}` })
  let after: { block: number; logIndex: number; sub: number } | null = null
  for (;;) {
    const chunk = await tx
      .select({
        block: treasuryEvents.block,
        logIndex: treasuryEvents.logIndex,
        sub: treasuryEvents.sub,
        token: treasuryEvents.token,
        amount: treasuryEvents.amount,
        sign: treasuryEvents.sign,
        timestamp: treasuryEvents.timestamp,
      })
      .from(treasuryEvents)
      .where(
        after === null
          ? undefined
          : sql`(${treasuryEvents.block}, ${treasuryEvents.logIndex}, ${treasuryEvents.sub}) > (${after.block}, ${after.logIndex}, ${after.sub})`,
      )
      .orderBy(asc(treasuryEvents.block), asc(treasuryEvents.logIndex), asc(treasuryEvents.sub))
      .limit(REBUILD_CHUNK)
    await applyFigures(tx, chunk)
    const last = chunk.at(-1)
    if (!last || chunk.length < REBUILD_CHUNK) return
    after = { block: last.block, logIndex: last.logIndex, sub: last.sub }
  }
}
