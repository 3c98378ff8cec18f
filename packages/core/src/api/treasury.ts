/**
 * The treasury's read API: the DAO's Safe as it stands (GET /api/treasury), its history as the server's
 * index of it holds it (/history, /history.csv), the charts drawn from the index's daily and monthly
 * figures (/charts), and spending per proposal category (/spending).
 */
import { type Address, checksumAddress, isAddress } from 'viem'
import { bytes32Schema, checksummedAddressSchema, decimalStringSchema } from '../primitives.ts'
import { z } from '../zod.ts'
import { cursorParamSchema, cursorSchema, pageLimit } from './lists.ts'

/** What the page warns about: each can move funds without the signers, block them, or weaken them. */
const TREASURY_WARNING_KINDS = ['module', 'guard', 'owner-not-member', 'threshold-one'] as const

const treasuryAssetSchema = z.strictObject({
  /** The token's address; null: the chain's native coin. */
  token: z.nullable(checksummedAddressSchema),
  symbol: z.string(),
  decimals: z.int().check(z.gte(0), z.lte(255)),
  /** The Safe's and the listed addresses' balance together, in the token's base units. */
  balance: decimalStringSchema,
  /** Only where the operator configured an on-chain price feed (PRICE_FEEDS); null otherwise. */
  value: z.nullable(z.strictObject({ amount: z.string(), currency: z.string() })),
})
export type TreasuryAsset = z.infer<typeof treasuryAssetSchema>

/** GET /api/treasury: the Safe read live, at `blockNumber`. 503 `safe_unavailable` when it cannot be read. */
export const treasurySummarySchema = z.strictObject({
  /** Whether the server has a treasury Safe (TREASURY_SAFE); false: the rest is empty. */
  configured: z.boolean(),
  safe: z.nullable(
    z.strictObject({
      address: checksummedAddressSchema,
      /** The Safe's name where the name service gives one; null otherwise. */
      name: z.nullable(z.string()),
      /** The contract's VERSION(), e.g. "1.5.0". */
      version: z.string(),
      owners: z.array(checksummedAddressSchema),
      threshold: z.int().check(z.gte(0)),
      nonce: z.int().check(z.gte(0)),
      modules: z.array(checksummedAddressSchema),
      /** The transaction guard; null: none. */
      guard: z.nullable(checksummedAddressSchema),
    }),
  ),
  /** Plain addresses shown with the Safe's assets (TREASURY_ADDRESSES). */
  addresses: z.array(checksummedAddressSchema),
  /** The block everything here was read at. */
  blockNumber: z.int().check(z.gte(0)),
  warnings: z.array(
    z.strictObject({
      kind: z.enum(TREASURY_WARNING_KINDS),
      /** The module, guard or owner the warning names; null for the threshold. */
      address: z.nullable(checksummedAddressSchema),
      message: z.string(),
    }),
  ),
  assets: z.array(treasuryAssetSchema),
})
export type TreasurySummary = z.infer<typeof treasurySummarySchema>

/** The history filter's directions, as the page offers them (Safe{Wallet}'s, plus settings). */
export const TREASURY_HISTORY_DIRECTIONS = ['incoming', 'outgoing', 'settings', 'executions'] as const
export type TreasuryHistoryDirection = (typeof TREASURY_HISTORY_DIRECTIONS)[number]

/**
 * What a history row is. `execution-failed`: the Safe emitted ExecutionFailure (the nonce was used, nothing
 * moved). `unexplained`: native coin that left the Safe in ways its events cannot show (a batch on a non-L2
 * Safe), found by comparing the balance with the indexed moves.
 */
const TREASURY_HISTORY_KINDS = [
  'incoming',
  'outgoing',
  'settings',
  'execution',
  'execution-failed',
  'unexplained',
] as const
export type TreasuryHistoryKind = (typeof TREASURY_HISTORY_KINDS)[number]

/** The native coin, where a query names a token: `token=native`. */
export const NATIVE_TOKEN_PARAM = 'native'

/** A token as a query names it: an address (any case) or `native`; parsed to an address, or null for native. */
const treasuryTokenParamSchema = z.pipe(
  z
    .string()
    .check(
      z.refine(
        (value) => value === NATIVE_TOKEN_PARAM || isAddress(value, { strict: false }),
        `must be a token address (0x followed by 40 hex digits) or ${NATIVE_TOKEN_PARAM}`,
      ),
    ),
  z.transform((value: string): Address | null =>
    value === NATIVE_TOKEN_PARAM ? null : checksumAddress(value as Address),
  ),
)

/** Unix seconds, as a query carries them. */
const unixSecondsParam = z.coerce.number().check(z.int(), z.gte(0), z.lte(2 ** 40))

const historyFilterShape = {
  direction: z.optional(z.enum(TREASURY_HISTORY_DIRECTIONS)),
  token: z.optional(treasuryTokenParamSchema),
  from: z.optional(unixSecondsParam),
  to: z.optional(unixSecondsParam),
}
const fromNotAfterTo = z.refine<{ from?: number | undefined; to?: number | undefined }>(
  (q) => q.from === undefined || q.to === undefined || q.from <= q.to,
  { message: '`from` must not be after `to`', path: ['from'] },
)

/**
 * GET /api/treasury/history?direction=&token=&from=&to=&cursor=&limit= : newest first. `from` and `to` are
 * unix seconds, both included; `token` an address or `native`.
 */
export const treasuryHistoryQuerySchema = z
  .strictObject({ ...historyFilterShape, cursor: z.optional(cursorParamSchema), limit: pageLimit(25, 100) })
  .check(fromNotAfterTo)

/** GET /api/treasury/history.csv?direction=&token=&from=&to= : every row of the filter, newest first. */
export const treasuryHistoryCsvQuerySchema = z.strictObject(historyFilterShape).check(fromNotAfterTo)

const treasuryHistoryItemSchema = z.strictObject({
  /** Stable across pages: `<blockNumber>-<logIndex>` (unexplained rows: `<blockNumber>-u`). */
  id: z.string(),
  blockNumber: z.int().check(z.gte(0)),
  /** The log's index in its block; an unexplained row carries -1 (it stands for no one log). */
  logIndex: z.int().check(z.gte(-1)),
  timestamp: z.int(),
  /** The transaction; null for an unexplained row (it spans a range of blocks). */
  transactionHash: z.nullable(bytes32Schema),
  kind: z.enum(TREASURY_HISTORY_KINDS),
  /** null: the native coin (or no token: settings and executions). */
  token: z.nullable(checksummedAddressSchema),
  /** In the token's base units; null where nothing moved. */
  amount: z.nullable(decimalStringSchema),
  /** Who sent (incoming) or received (outgoing); null where there is no one. */
  counterparty: z.nullable(checksummedAddressSchema),
  /** The row in words, e.g. "AddedOwner 0x…", "Threshold 2". */
  detail: z.string(),
  /** The executed Safe transaction's hash (executions, and the moves inside them). */
  safeTxHash: z.nullable(bytes32Schema),
  safeNonce: z.nullable(z.int().check(z.gte(0))),
  /** The proposal whose queued transaction this execution carried out; null: none. */
  proposal: z.nullable(z.strictObject({ id: bytes32Schema, title: z.string() })),
  /** An execution the app did not queue ("executed outside Guildhall"). */
  outsideGuildhall: z.boolean(),
})
export type TreasuryHistoryItem = z.infer<typeof treasuryHistoryItemSchema>

/** GET /api/treasury/history */
export const treasuryHistoryPageSchema = z.strictObject({
  items: z.array(treasuryHistoryItemSchema),
  next: z.nullable(cursorSchema),
})

/** The most balance points GET /api/treasury/charts answers: a year of days. */
export const TREASURY_BALANCE_POINTS_MAX = 366

/** GET /api/treasury/charts?token= (absent: the native coin) */
export const treasuryChartsQuerySchema = z.strictObject({
  token: z.optional(treasuryTokenParamSchema),
})

/** GET /api/treasury/charts: the Safe's balance at the end of each day (oldest first), and money in/out per month. */
export const treasuryChartsSchema = z.strictObject({
  token: z.nullable(checksummedAddressSchema),
  balance: z
    .array(z.strictObject({ timestamp: z.int(), balance: decimalStringSchema }))
    .check(z.maxLength(TREASURY_BALANCE_POINTS_MAX)),
  flows: z.array(
    z.strictObject({
      month: z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/)),
      incoming: decimalStringSchema,
      outgoing: decimalStringSchema,
    }),
  ),
})
export type TreasuryCharts = z.infer<typeof treasuryChartsSchema>

/** GET /api/treasury/spending: what executed proposals paid out, per category and token. */
export const treasurySpendingSchema = z.strictObject({
  categories: z.array(
    z.strictObject({
      /** The proposals' category ('' for those signed without one); null: executions outside Guildhall. */
      category: z.nullable(z.string()),
      /** null: the native coin. */
      token: z.nullable(checksummedAddressSchema),
      amount: decimalStringSchema,
      proposals: z.int().check(z.gte(0)),
    }),
  ),
})
export type TreasurySpending = z.infer<typeof treasurySpendingSchema>
