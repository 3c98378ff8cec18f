// The treasury index's answers: the history a page at a time (newest first, keyset-paged, filtered), every
// row of a filter for the CSV, and the charts' figures.
import {
  TREASURY_BALANCE_POINTS_MAX,
  type TreasuryCharts,
  type TreasuryHistoryDirection,
  type TreasuryHistoryItem,
  type TreasuryHistoryKind,
} from '@guildhall/core'
import { and, asc, desc, eq, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import type { Address, Hash } from 'viem'
import type { Db } from '../../platform/db/client.ts'
import {
  treasuryCursor,
  treasuryDailyBalances,
  treasuryEvents,
  treasuryMonthlyFlows,
} from '../../platform/db/schema.ts'
import { cursorCodec, cursorField, keysetPage, rowsForPage } from '../../platform/http/keyset-page.ts'
import { NATIVE_KEY } from './figures.ts'

/** The proposal whose queued Safe transaction each of these hashes is (execution-api fills it in). */
export type ExecutionProposals = (safeTxHashes: Hash[]) => Promise<Map<Hash, { id: Hash; title: string }>>

export type HistoryFilter = {
  direction?: TreasuryHistoryDirection | undefined
  /** undefined: every token; null: the native coin. */
  token?: Address | null | undefined
  from?: number | undefined
  to?: number | undefined
}

const historyCursor = cursorCodec('t', [cursorField.int8, cursorField.logIndex, cursorField.int4] as const)

function directionCondition(direction: TreasuryHistoryDirection): SQL | undefined {
  const unexplained = (sign: number) =>
    and(eq(treasuryEvents.kind, 'unexplained'), eq(treasuryEvents.sign, sign))
  switch (direction) {
    case 'incoming':
      return or(eq(treasuryEvents.kind, 'incoming'), unexplained(1))
    case 'outgoing':
      return or(eq(treasuryEvents.kind, 'outgoing'), unexplained(-1))
    case 'settings':
      return eq(treasuryEvents.kind, 'settings')
    case 'executions':
      return inArray(treasuryEvents.kind, ['execution', 'execution-failed'])
  }
}

function filterConditions(filter: HistoryFilter): (SQL | undefined)[] {
  return [
    filter.direction === undefined ? undefined : directionCondition(filter.direction),
    filter.token === undefined
      ? undefined
      : filter.token === null
        ? isNull(treasuryEvents.token)
        : eq(treasuryEvents.token, filter.token),
    filter.from === undefined ? undefined : gte(treasuryEvents.timestamp, filter.from),
    filter.to === undefined ? undefined : lte(treasuryEvents.timestamp, filter.to),
  ]
}

type EventRow = typeof treasuryEvents.$inferSelect

export class TreasuryReads {
  readonly #db: Db
  readonly #executionProposals: ExecutionProposals | undefined

  constructor(db: Db, executionProposals?: ExecutionProposals) {
    this.#db = db
    this.#executionProposals = executionProposals
  }

  /** The last indexed block, or null before the first range. */
  async indexedBlock(): Promise<number | null> {
    const [row] = await this.#db
      .select({ block: treasuryCursor.block, blockHash: treasuryCursor.blockHash })
      .from(treasuryCursor)
    return row?.blockHash ? row.block : null
  }

  /** A page of the history, newest first; `cursor` as the previous page's `next` (a 400 `bad_cursor` otherwise). */
  async historyPage(
    filter: HistoryFilter,
    { cursor, limit }: { cursor?: string | undefined; limit: number },
  ): Promise<{ items: TreasuryHistoryItem[]; next: string | null }> {
    const after = cursor === undefined ? undefined : historyCursor.decode(cursor)
    const rows = await this.#db
      .select()
      .from(treasuryEvents)
      .where(
        and(
          ...filterConditions(filter),
          after === undefined
            ? undefined
            : sql`(${treasuryEvents.block}, ${treasuryEvents.logIndex}, ${treasuryEvents.sub}) < (${Number(after[0])}, ${after[1]}, ${after[2]})`,
        ),
      )
      .orderBy(desc(treasuryEvents.block), desc(treasuryEvents.logIndex), desc(treasuryEvents.sub))
      .limit(rowsForPage(limit))
    const { page, next } = keysetPage(rows, limit, (last) =>
      historyCursor.encode([BigInt(last.block), last.logIndex, last.sub]),
    )
    return { items: await this.#items(page), next }
  }

  async #items(rows: EventRow[]): Promise<TreasuryHistoryItem[]> {
    const executions = rows.filter(
      (row) => row.sub === 0 && row.kind.startsWith('execution') && row.safeTxHash,
    )
    const proposals =
      this.#executionProposals && executions.length > 0
        ? await this.#executionProposals(executions.map((row) => row.safeTxHash as Hash))
        : new Map<Hash, { id: Hash; title: string }>()
    return rows.map((row) => {
      const isExecution = row.sub === 0 && (row.kind === 'execution' || row.kind === 'execution-failed')
      const proposal = row.safeTxHash ? (proposals.get(row.safeTxHash as Hash) ?? null) : null
      return {
        id: `${row.block}-${row.logIndex}-${row.sub}`,
        blockNumber: row.block,
        logIndex: row.logIndex,
        timestamp: row.timestamp,
        transactionHash: row.transactionHash as Hash | null,
        kind: row.kind as TreasuryHistoryKind,
        token: row.token as Address | null,
        amount: row.amount === null ? null : String(row.amount),
        counterparty: row.counterparty as Address | null,
        detail: row.detail,
        safeTxHash: row.safeTxHash as Hash | null,
        safeNonce: row.safeNonce,
        proposal,
        outsideGuildhall: isExecution && proposal === null,
      }
    })
  }

  /** Every row of a filter, newest first, a page at a time (the CSV). */
  async *historyRows(filter: HistoryFilter, pageSize = 500): AsyncGenerator<TreasuryHistoryItem[]> {
    let cursor: string | undefined
    for (;;) {
      const { items, next } = await this.historyPage(filter, { cursor, limit: pageSize })
      if (items.length > 0) yield items
      if (next === null) return
      cursor = next
    }
  }

  /** The balance at the end of each of the last 366 days it changed (oldest first), and money in/out per month. */
  async charts(token: Address | null): Promise<TreasuryCharts> {
    const key = token ?? NATIVE_KEY
    const [days, months] = await Promise.all([
      this.#db
        .select({ day: treasuryDailyBalances.day, balance: treasuryDailyBalances.balance })
        .from(treasuryDailyBalances)
        .where(eq(treasuryDailyBalances.token, key))
        .orderBy(desc(treasuryDailyBalances.day))
        .limit(TREASURY_BALANCE_POINTS_MAX),
      this.#db
        .select()
        .from(treasuryMonthlyFlows)
        .where(eq(treasuryMonthlyFlows.token, key))
        .orderBy(asc(treasuryMonthlyFlows.month)),
    ])
    return {
      token,
      balance: days.reverse().map((row) => ({ timestamp: row.day, balance: String(row.balance) })),
      flows: months.map((row) => ({
        month: row.month,
        incoming: String(row.incoming),
        outgoing: String(row.outgoing),
      })),
    }
  }
}
