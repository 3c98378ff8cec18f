// The ranked-choice section's budget (issue 25: the scale section's read budgets) and its tables printed for
// people.
import type { Latency, RankedChoiceBenchResult } from '../harness/schema.ts'
import { table } from '../harness/stats.ts'
import { type DatabaseRun, RANKED_BUDGET } from './plan.ts'

type Line = { budget: string; value: number; limit: number; unit: string }

/** Each line of the section's budget, pass or miss by how much. */
export function rankedBudget(r: RankedChoiceBenchResult): (Line & { pass: boolean; miss?: string })[] {
  const lines: Line[] = []
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const ballots = r.ballots.toLocaleString('en-US')
  for (const run of runs) {
    lines.push({
      budget: `${run.database}: GET /api/proposals/:id with its rounds (${ballots} ballots), gzip`,
      value: run.detail.gzipBytes,
      limit: RANKED_BUDGET.detailGzipBytes,
      unit: 'B',
    })
    lines.push({
      budget: `${run.database}: its p99 at ${run.readers.concurrency} concurrent readers`,
      value: run.readers.latencyMs.p99,
      limit: run.database === 'PostgreSQL' ? RANKED_BUDGET.p99PostgresMs : RANKED_BUDGET.p99PgliteMs,
      unit: 'ms',
    })
    lines.push({
      budget: `${run.database}: its p99 while a vote arrives every second`,
      value: run.whileVoting.readLatencyMs.p99,
      limit: run.database === 'PostgreSQL' ? RANKED_BUDGET.p99PostgresMs : RANKED_BUDGET.p99PgliteMs,
      unit: 'ms',
    })
    // A latency of refused requests is no figure.
    lines.push({
      budget: `${run.database}: reads not answered 200, votes not 201`,
      value: run.readers.errors + run.whileVoting.readErrors + run.whileVoting.voteErrors,
      limit: 0,
      unit: 'requests',
    })
  }
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

const ms = (l: Latency) => [`${l.p50} ms`, `${l.p99} ms`, `${l.max} ms`]

export function formatRankedReport(r: RankedChoiceBenchResult): string {
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const skipped = r.databases.flatMap((run) =>
    'skipped' in run ? [`${run.database}: skipped (${run.skipped})`] : [],
  )
  const ballots = r.ballots.toLocaleString('en-US')
  const settles = table([
    [
      `settleRankedResult (${ballots} ballots × ${r.choices} choices)`,
      'median',
      'min',
      'max',
      'rounds',
      'winner',
      'result',
      'RSS before → peak',
      'JS heap before → peak',
      'seed',
    ],
    ...runs.map((run) => [
      run.database,
      `${run.settle.ms.median} ms`,
      `${run.settle.ms.min} ms`,
      `${run.settle.ms.max} ms`,
      String(run.settle.rounds),
      `${run.settle.winners.join(', ') || 'none'} (${run.settle.outcome})`,
      `${run.settle.resultBytes.toLocaleString('en-US')} B`,
      `${run.settle.rssMiB.base} → ${run.settle.rssMiB.peak} MiB`,
      `${run.settle.heapMiB.base} → ${run.settle.heapMiB.peak} MiB`,
      `${run.seedSeconds} s`,
    ]),
  ])
  const reads = table([
    [
      'GET /api/proposals/:id, concurrent readers',
      'bytes',
      'gzip',
      'requests',
      'mean',
      'p50',
      'p99',
      'max',
      'errors',
      'API CPU/read',
      'API RSS',
    ],
    ...runs.map((run) => [
      `${run.database}: ${run.readers.concurrency} readers`,
      run.detail.bytes.toLocaleString('en-US'),
      run.detail.gzipBytes.toLocaleString('en-US'),
      String(run.readers.requests),
      `${run.readers.meanMs} ms`,
      ...ms(run.readers.latencyMs),
      String(run.readers.errors),
      `${run.readers.cpuMsPerRequest} ms`,
      `${run.serverRssMiB} MiB`,
    ]),
  ])
  const whileVoting = table([
    ['While a vote arrives every second', 'requests', 'mean', 'p50', 'p99', 'max', 'errors'],
    ...runs.flatMap((run) => [
      [
        `${run.database}: GET /api/proposals/:id, ${run.readers.concurrency} readers`,
        String(run.whileVoting.reads),
        `${run.whileVoting.readMeanMs} ms`,
        ...ms(run.whileVoting.readLatencyMs),
        String(run.whileVoting.readErrors),
      ],
      [
        `${run.database}: POST /api/proposals/:id/votes`,
        String(run.whileVoting.votes),
        '',
        ...ms(run.whileVoting.voteLatencyMs),
        String(run.whileVoting.voteErrors),
      ],
    ]),
  ])
  const refused = runs.flatMap((run) =>
    run.whileVoting.firstError ? [`  ${run.database}: the first error: ${run.whileVoting.firstError}`] : [],
  )
  const budget = table([
    ['Budget (issue 25)', 'measured', 'limit', 'result'],
    ...rankedBudget(r).map((line) => [
      line.budget,
      `${line.value} ${line.unit}`,
      `${line.limit} ${line.unit}`,
      line.pass ? 'pass' : `MISS: ${line.miss}`,
    ]),
  ])
  return [
    `Ranked choice: one proposal, ${ballots} signed ballots each ranking all ${r.choices} choices; signatures ${r.setupSeconds.signing === 0 ? 'from the cache' : `made in ${r.setupSeconds.signing} s before any timing`}; load average ${r.loadAverage.start} at the start, ${r.loadAverage.end} at the end`,
    ...skipped,
    '',
    settles,
    '',
    reads,
    '',
    whileVoting,
    ...refused,
    '',
    budget,
  ].join('\n')
}
