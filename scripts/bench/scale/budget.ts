// The scale section's budget (issue 14): each line measured against its limit, pass or miss by how much.
import type { DatabaseRun, ScaleBenchResult } from './plan.ts'
import { SCALE_BUDGET, SMALL_VOTES } from './plan.ts'

type Line = { budget: string; value: number; limit: number; unit: string }
export function scaleBudget(r: ScaleBenchResult): (Line & { pass: boolean; miss?: string })[] {
  const lines: Line[] = []
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const pg = runs.find((run) => run.database === 'PostgreSQL')
  for (const run of runs) {
    const hundred = run.detail.readers.find((level) => level.concurrency === 100)
    lines.push({
      budget: `${run.database}: detail answer gzip`,
      value: run.detail.gzipBytes,
      limit: SCALE_BUDGET.detailGzipBytes,
      unit: 'B',
    })
    if (hundred)
      lines.push({
        budget: `${run.database}: detail p99 at 100 concurrent readers`,
        value: hundred.latencyMs.p99,
        limit: run.database === 'PostgreSQL' ? SCALE_BUDGET.p99PostgresMs : SCALE_BUDGET.p99PgliteMs,
        unit: 'ms',
      })
    lines.push({
      budget: `${run.database}: vote POST p99 while 20 readers load`,
      value: run.postWhileReading.latencyMs.p99,
      limit: SCALE_BUDGET.postWhileReadingMs,
      unit: 'ms',
    })
  }
  for (const profile of ['desktop', 'phone'] as const) {
    const at = (votes: number) =>
      r.browser.pageLoads.find((load) => load.profile === profile && load.votes === votes)?.resultsMs.median
    const few = at(SMALL_VOTES)
    const many = at(r.votes)
    if (few !== undefined && many !== undefined)
      lines.push({
        budget: `${profile}: page until results, ${r.votes.toLocaleString('en-US')} votes vs 1.2× ${SMALL_VOTES}`,
        value: many,
        limit: Math.round(few * SCALE_BUDGET.pageLoadRatio),
        unit: 'ms',
      })
  }
  const capped = pg?.cappedExport
  if (capped)
    lines.push({
      // The heap a server needs to stream the bundle, against the bundle's own size: met only if it streams.
      budget: `PostgreSQL: heap that streams the ${r.votes.toLocaleString('en-US')}-vote bundle vs its size`,
      value: capped.completed ? capped.heapLimitMiB : Number.MAX_SAFE_INTEGER,
      limit: Math.floor(capped.bytes / 1024 / 1024),
      unit: 'MiB',
    })
  const pglite = runs.find((run) => run.database === 'PGlite')
  if (pglite && pg)
    lines.push({
      budget: 'PGlite ingest p99 at 50 concurrent vs 2× PostgreSQL',
      value: pglite.ingest.latencyMs.p99,
      limit: SCALE_BUDGET.ingestRatio * pg.ingest.latencyMs.p99,
      unit: 'ms',
    })
  return lines.map((line) => {
    const pass = line.value <= line.limit
    return pass
      ? { ...line, pass }
      : {
          ...line,
          pass,
          miss: `${line.value - line.limit} ${line.unit} over (${Math.round((line.value / line.limit) * 100) / 100}×)`,
        }
  })
}
