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
/**
 * Readers of GET /api/proposals/:id: untimed warm-up reads, then the timed reads at this concurrency; 5,000
 * of them, since 1,000 last under a second here and one pause of the process (a collection, a background
 * job's query) then covers the whole last percent.
 */
export const READERS = { concurrency: 50, warmUp: 1000, reads: 5000 }
/**
 * Then the same readers while votes arrive, one a second (Ada, Ben and Cleo re-ranking in turn, signed before
 * any timing): each makes the stored result stale, so readers meet the re-settles (at most one per 2 s per
 * proposal, ADR 060) as they would in a closing hour.
 */
export const WHILE_VOTING = { votes: 30, everyMs: 1000 }

export const RANKED_BUDGET = {
  /** The proposal's answer with every round, gzip: the scale section's detail budget. */
  detailGzipBytes: 20 * 1024,
  /** The answer's p99 at 50 concurrent readers, per database (the scale section's read budgets). */
  p99PostgresMs: 100,
  p99PgliteMs: 300,
}

export type DatabaseRun = Extract<RankedChoiceBenchResult['databases'][number], { settle: unknown }>
