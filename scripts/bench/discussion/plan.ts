// The discussion section's plan: how many comments the large thread has and how they nest, how many reads and
// posts at what concurrency, its budget (issue 24), and the shape of its figures.
import type { DiscussionBenchResult } from '../harness/schema.ts'

/** Comments of the large thread: DISCUSSION_COMMENTS overrides it for a quicker run; the budget is judged at 10,000. */
export const COMMENTS = Number(process.env.DISCUSSION_COMMENTS ?? 10_000)
/** The small thread the page load is compared with. */
export const SMALL_COMMENTS = 10
/**
 * The comments' authors: the demo members Ada … Hugo (anvil accounts 1 to 8), who all hold tokens, so the
 * posting policy (`members`) lets each of them post over HTTP too.
 */
export const AUTHORS = [1, 2, 3, 4, 5, 6, 7, 8]

/** Thread readers: untimed warm-up reads, then the timed reads of the first page at this concurrency. */
export const READERS = { concurrency: 50, warmUp: 1000, reads: 1000 }
/** Comments POSTed over HTTP, as the votes' ingest is measured (1,000 at 50 concurrent); fewer in a quick run. */
export const POSTS = { comments: Math.min(1000, COMMENTS), concurrency: 50 }

export const DISCUSSION_BUDGET = {
  /** The thread's first page (GET /api/threads/:id/items), gzip: the proposal detail's budget. */
  firstPageGzipBytes: 20 * 1024,
  /** The first page's p99 at 50 concurrent readers, per database (the scale section's read budgets). */
  p99PostgresMs: 100,
  p99PgliteMs: 300,
  /** The proposal page until its thread shows, 10,000 comments against 10. */
  pageLoadRatio: 1.2,
}

export type DatabaseRun = Extract<DiscussionBenchResult['databases'][number], { firstPage: unknown }>
