// The scale section's plan: how many holders and votes, how many reads and writes of each kind at what
// concurrency, which holders re-vote in which phase, its budget (issue 14), and the shape of its figures.
import type { DirectoryLatency, Latency, ScaleInstances } from '../harness/schema.ts'
import type { BrowserRecount, PageLoad } from './page.ts'

/** Votes (and holders): SCALE_VOTES overrides it for a quicker run; the budget is judged at 100,000. */
export const HOLDERS = Number(process.env.SCALE_VOTES ?? 100_000)
export const SMALL_VOTES = 100
export const READER_LEVELS = [1, 20, 100]
/** Requests per reader level: enough for a p99 (at least 100 samples) without minutes per level. */
export const READS_PER_LEVEL: Record<number, number> = { 1: 100, 20: 600, 100: 3000 }
/**
 * Untimed reads first, at 20 concurrent: a server in a DAO's closing hour has been serving for hours, and a
 * fresh Node process needs a few thousand requests before its code is optimized (measured: 2,000 reads/s in
 * its first thousand at 100 concurrent, 9,500 after five thousand).
 */
export const WARM_UP_READS = 3000
/** The deep page starts after this many votes: 50,000 of 100,000, half of a smaller run. */
export const DEEP_AFTER = Math.min(50_000, Math.floor(HOLDERS / 2))
/**
 * The V8 heap (old space) of the capped export's server: below the bundle's size at 100,000 votes (80 MiB) and
 * above what the idle API holds (about 40 MiB: 40 does not start), so only a streaming export completes.
 */
export const CAPPED_HEAP_MIB = 64
export const LIST_READS = 100
export const POSTS_WHILE_READING = { votes: 60, concurrency: 4, readers: 20 }
export const INGEST = { votes: 1000, concurrency: 50 }
/**
 * The instances comparison re-sends the ingest's votes, signed anew, through each setup; each new instance
 * first takes a few votes of other holders directly (untimed), so no run pays for a process's first requests.
 */
export const CLUSTER = { instances: 3, warmUpVotes: 100, warmUpConcurrency: 10 }
/** Re-voting holders, from the end of the list, a different set for each use: the POSTs under readers, the ingest, the warm-ups. */
export const WHILE_READING_FROM = HOLDERS - POSTS_WHILE_READING.votes
export const INGEST_FROM = WHILE_READING_FROM - INGEST.votes
export const WARM_UP_FROM = INGEST_FROM - CLUSTER.instances * CLUSTER.warmUpVotes
/** Blocks per eth_getLogs in the index run: ≈ 750 events a block, so ≈ 7,500 logs a request. */
export const INDEX_MAX_RANGE = 10

export const SCALE_BUDGET = {
  detailGzipBytes: 20 * 1024,
  p99PostgresMs: 100,
  p99PgliteMs: 300,
  postWhileReadingMs: 500,
  pageLoadRatio: 1.2,
  ingestRatio: 2,
}

export type DatabaseRun = {
  database: string
  index: { events: number; seconds: number }
  seedSeconds: number
  detail: {
    bytes: number
    gzipBytes: number
    readers: { concurrency: number; requests: number; latencyMs: Latency; errors: number }[]
  }
  votesList: { firstPage: Latency; deepPage: Latency }
  postWhileReading: {
    votes: number
    latencyMs: Latency
    errors: number
    readerRequests: number
    readerLatencyMs: Latency
    readerErrors: number
  }
  ingest: { votes: number; concurrency: number; votesPerSecond: number; latencyMs: Latency; errors: number }
  exports: { votes: number; seconds: number; bytes: number; peakRssMiB: number; baseRssMiB: number }[]
  /** GET /api/members at the holders' count (directory.ts). */
  directory?: DirectoryLatency
  /** PostgreSQL only: the large bundle from a server with a capped heap. */
  cappedExport?: { heapLimitMiB: number; completed: boolean; bytes: number; seconds: number }
  logPage: Latency
}
export type ScaleBenchResult = {
  holders: number
  votes: number
  setupSeconds: { signing: number; holders: number }
  databases: (DatabaseRun | { database: string; skipped: string })[]
  /** On the PostgreSQL server (PGlite's when PostgreSQL is missing). */
  browser: { database: string; pageLoads: PageLoad[]; recount: BrowserRecount | null; failures: string[] }
  instances: ScaleInstances
}
