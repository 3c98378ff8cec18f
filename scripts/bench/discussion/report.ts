// The discussion section's budget (issue 24) and its tables printed for people.
import type { DiscussionBenchResult, Latency } from '../harness/schema.ts'
import { table } from '../harness/stats.ts'
import { type DatabaseRun, DISCUSSION_BUDGET } from './plan.ts'

type Line = { budget: string; value: number; limit: number; unit: string }

/** Each line of the section's budget, pass or miss by how much. */
export function discussionBudget(r: DiscussionBenchResult): (Line & { pass: boolean; miss?: string })[] {
  const lines: Line[] = []
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const comments = r.comments.toLocaleString('en-US')
  for (const run of runs) {
    lines.push({
      budget: `${run.database}: first page of the ${comments}-comment thread, gzip`,
      value: run.firstPage.gzipBytes,
      limit: DISCUSSION_BUDGET.firstPageGzipBytes,
      unit: 'B',
    })
    lines.push({
      budget: `${run.database}: first page p99 at ${run.firstPage.readers.concurrency} concurrent readers`,
      value: run.firstPage.readers.latencyMs.p99,
      limit: run.database === 'PostgreSQL' ? DISCUSSION_BUDGET.p99PostgresMs : DISCUSSION_BUDGET.p99PgliteMs,
      unit: 'ms',
    })
    // A latency or a rate of refused requests is no figure.
    lines.push({
      budget: `${run.database}: reads and posts not answered 200 / 201`,
      value: run.firstPage.readers.errors + run.posting.errors,
      limit: 0,
      unit: 'requests',
    })
  }
  for (const profile of ['desktop', 'phone'] as const) {
    const at = (count: number) =>
      r.browser.pageLoads.find((load) => load.profile === profile && load.comments === count)?.shownMs.median
    const few = at(r.smallComments)
    const many = at(r.comments)
    if (few !== undefined && many !== undefined)
      lines.push({
        budget: `${profile}: proposal page until its thread shows, ${comments} comments vs 1.2× ${r.smallComments}`,
        value: many,
        limit: Math.round(few * DISCUSSION_BUDGET.pageLoadRatio),
        unit: 'ms',
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

export function formatDiscussionReport(r: DiscussionBenchResult): string {
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const skipped = r.databases.flatMap((run) =>
    'skipped' in run ? [`${run.database}: skipped (${run.skipped})`] : [],
  )
  const comments = r.comments.toLocaleString('en-US')
  const firstPage = table([
    [`GET /api/threads/:id/items, first page (${comments} comments)`, 'items', 'bytes', 'gzip', 'seed'],
    ...runs.map((run) => [
      run.database,
      String(run.firstPage.items),
      run.firstPage.bytes.toLocaleString('en-US'),
      run.firstPage.gzipBytes.toLocaleString('en-US'),
      `${run.seedSeconds} s`,
    ]),
  ])
  const reads = table([
    ['First page, concurrent readers', 'requests', 'p50', 'p99', 'max', 'errors', 'API CPU/read'],
    ...runs.map((run) => [
      `${run.database}: ${run.firstPage.readers.concurrency} readers`,
      String(run.firstPage.readers.requests),
      ...ms(run.firstPage.readers.latencyMs),
      String(run.firstPage.readers.errors),
      `${run.firstPage.readers.cpuMsPerRequest} ms`,
    ]),
  ])
  const posting = table([
    [
      'POST /api/comments (signed-in members, key-signed)',
      'comments',
      'comments/s',
      'p50',
      'p99',
      'max',
      'errors',
      'API CPU/comment',
    ],
    ...runs.map((run) => [
      `${run.database}: ${run.posting.concurrency} concurrent`,
      String(run.posting.comments),
      String(run.posting.commentsPerSecond),
      ...ms(run.posting.latencyMs),
      String(run.posting.errors),
      `${run.posting.cpuMsPerComment} ms`,
    ]),
  ])
  const refused = runs.flatMap((run) =>
    run.posting.firstError ? [`  ${run.database}: the first refused POST: ${run.posting.firstError}`] : [],
  )
  const pages = table([
    [`Proposal page until its thread shows (${r.browser.database}, cold loads)`, 'median', 'min', 'max'],
    ...r.browser.pageLoads.map((load) => [
      `${load.profile}, ${load.comments.toLocaleString('en-US')} comments`,
      `${load.shownMs.median} ms`,
      `${load.shownMs.min} ms`,
      `${load.shownMs.max} ms`,
    ]),
  ])
  const failed = r.browser.failures.map((failure) => `  FAILED ${failure}`)
  const budget = table([
    ['Budget (issue 24)', 'measured', 'limit', 'result'],
    ...discussionBudget(r).map((line) => [
      line.budget,
      `${line.value} ${line.unit}`,
      `${line.limit} ${line.unit}`,
      line.pass ? 'pass' : `MISS: ${line.miss}`,
    ]),
  ])
  return [
    `Discussion: a proposal thread of ${comments} signed comments beside one of ${r.smallComments}; signatures made in ${r.setupSeconds.signing} s before any timing; load average ${r.loadAverage.start} at the start, ${r.loadAverage.end} at the end`,
    ...skipped,
    '',
    firstPage,
    '',
    reads,
    '',
    posting,
    ...refused,
    '',
    pages,
    ...failed,
    '',
    budget,
  ].join('\n')
}
