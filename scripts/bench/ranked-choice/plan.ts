// The ranked-choice section's plan: how many ballots rank how many choices, how often the result is settled,
// how many reads at what concurrency, its budget (issue 25: the scale section's read budgets), and the shape
// of its figures.
import type { RankedChoiceBenchResult } from '../harness/schema.ts'

/** Ballots on the proposal: RANKED_BALLOTS overrides it for a quicker run; the budget is judged at 100,000. */
export const BALLOTS = Number(process.env.RANKED_BALLOTS ?? 100_000)
/** Choices of the proposal, each ballot ranking all of them: core's most (GOVERNANCE_LIMITS.choicesMax). */
export const CHOICES = 20
/** Settles timed per database: the first stores the result, the others read and count the same ballots again. */
export const SETTLES = 3
/** Readers of GET /api/proposals/:id: untimed warm-up reads, then the timed reads at this concurrency. */
export const READERS = { concurrency: 50, warmUp: 1000, reads: 1000 }

export const RANKED_BUDGET = {
  /** The proposal's answer with every round, gzip: the scale section's detail budget. */
  detailGzipBytes: 20 * 1024,
  /** The answer's p99 at 50 concurrent readers, per database (the scale section's read budgets). */
  p99PostgresMs: 100,
  p99PgliteMs: 300,
}

export type DatabaseRun = Extract<RankedChoiceBenchResult['databases'][number], { settle: unknown }>
