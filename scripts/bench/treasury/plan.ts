// The treasury section's plan: how many transfers each treasury gets and how they are spread over time and
// kinds, how many reads at what concurrency, and its budget (issue 23).

/** Transfers of the large treasury: TREASURY_TRANSFERS overrides it for a quicker run; the budget is judged at 100,000. */
export const TRANSFERS = Number(process.env.TREASURY_TRANSFERS ?? 100_000)
/** The small treasury the page load is compared with. */
export const SMALL_TRANSFERS = 100
/**
 * Both histories are spread over the same rounds, a few days apart on the chain's clock, so the charts have a
 * year of days and months to draw whatever the size; each round is a few transactions per treasury.
 */
export const ROUNDS = 100
export const ROUND_SECONDS = 4 * 24 * 3600
/** Rounds between ETH sent to each Safe: ten deposits, the same for both, for the native coin's chart. */
export const ETH_DEPOSIT_EVERY = 10
/**
 * Every this many transfers one leaves in a Safe execution of its own (an `ExecutionSuccess` with a decoded
 * ERC-20 transfer, the rows a DAO's payouts make); a treasury with fewer transfers has one.
 */
const EXECUTED_EVERY = 1000
/** Distinct payees of the outgoing transfers: a DAO pays the same contributors again and again. */
export const PAYEES = 1000
/** Blocks per eth_getLogs for the index: a round is ≈ 1000 Transfer logs in 3 blocks. */
export const INDEX_MAX_RANGE = 10

/** History readers: untimed warm-up reads, then the timed reads at this concurrency. */
export const HISTORY_READERS = { concurrency: 20, warmUp: 1000, reads: 600 }
/** Pages deep into the history, following `next`, for the deep-page figure. */
export const DEEP_PAGES = 20

export const TREASURY_BUDGET = {
  /** History page p99 at 20 concurrent readers, per database (the scale section's detail budgets). */
  historyP99PostgresMs: 100,
  historyP99PgliteMs: 300,
  /** The Treasury page's load at 100,000 transfers against the 100-transfer treasury's. */
  pageLoadRatio: 1.2,
}

export type TransferKind = 'incoming' | 'outgoing' | 'executed'

/** Transfer i of a treasury of `count`: in which round, and of which kind. */
export function transferPlan(count: number): { round: number; kind: TransferKind }[] {
  return Array.from({ length: count }, (_, i) => ({
    round: Math.floor((i * ROUNDS) / count),
    kind:
      i % EXECUTED_EVERY === EXECUTED_EVERY - 1 || (count < EXECUTED_EVERY && i === count - 1)
        ? 'executed'
        : i % 2 === 0
          ? 'incoming'
          : 'outgoing',
  }))
}
