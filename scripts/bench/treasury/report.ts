// The treasury section's budget (issue 23) and its tables printed for people.
import type { Latency, TreasuryBenchResult } from '../harness/schema.ts'
import { table } from '../harness/stats.ts'
import { SMALL_TRANSFERS, TREASURY_BUDGET } from './plan.ts'

type Run = Extract<TreasuryBenchResult['databases'][number], { history: unknown }>
type Line = { budget: string; value: number; limit: number; unit: string }

const KIB = 1024
const kib = (bytes: number) => Math.round((bytes / KIB) * 10) / 10
/** The first page's JS budget (ADR 014), as the web section judges it. */
const JS_AT_LOAD_KIB = 300

/** Each line of the section's budget, pass or miss by how much. */
export function treasuryBudget(r: TreasuryBenchResult): (Line & { pass: boolean; miss?: string })[] {
  const lines: Line[] = []
  const runs = r.databases.filter((run): run is Run => !('skipped' in run))
  for (const run of runs)
    for (const reads of run.history)
      lines.push({
        budget: `${run.database}: history, ${reads.page} page, p99 at 20 concurrent readers`,
        value: reads.latencyMs.p99,
        limit:
          run.database === 'PostgreSQL'
            ? TREASURY_BUDGET.historyP99PostgresMs
            : TREASURY_BUDGET.historyP99PgliteMs,
        unit: 'ms',
      })
  for (const profile of ['desktop', 'phone'] as const) {
    const at = (transfers: number) =>
      r.browser.pageLoads.find((load) => load.profile === profile && load.transfers === transfers)?.shownMs
        .median
    const few = at(r.smallTransfers)
    const many = at(r.transfers)
    if (few !== undefined && many !== undefined)
      lines.push({
        budget: `${profile}: Treasury page shown, ${r.transfers.toLocaleString('en-US')} transfers vs 1.2× ${r.smallTransfers}`,
        value: many,
        limit: Math.round(few * TREASURY_BUDGET.pageLoadRatio),
        unit: 'ms',
      })
  }
  const js = r.browser.js
  if (js) {
    lines.push({
      budget: "Overview: the treasury feature's chunks loaded",
      value: js.leakedToOverview.length,
      limit: 0,
      unit: 'files',
    })
    lines.push({
      budget: 'Overview: JS at load, gzip (the first-page budget)',
      value: kib(js.overview.gzip),
      limit: JS_AT_LOAD_KIB,
      unit: 'KiB',
    })
  }
  return lines.map((line) => {
    const pass = line.value <= line.limit
    return pass
      ? { ...line, pass }
      : { ...line, pass, miss: `${Math.round((line.value - line.limit) * 10) / 10} ${line.unit} over` }
  })
}

const ms = (l: Latency) => [`${l.p50} ms`, `${l.p99} ms`, `${l.max} ms`]

export function formatTreasuryReport(r: TreasuryBenchResult): string {
  const runs = r.databases.filter((run): run is Run => !('skipped' in run))
  const skipped = r.databases.flatMap((run) =>
    'skipped' in run ? [`${run.database}: skipped (${run.skipped})`] : [],
  )
  const syncRows = [
    ...runs.map((run) => ({
      label: `${run.database}, ${run.sync.transfers.toLocaleString('en-US')}`,
      sync: run.sync,
    })),
    {
      label: `${r.browser.database}, ${r.browser.smallSync.transfers.toLocaleString('en-US')}`,
      sync: r.browser.smallSync,
    },
  ]
  const sync = table([
    [
      'Treasury index catch-up (database, transfers)',
      'seconds',
      'transfers/s',
      'slowest read meanwhile',
      'CSV rows',
      'CSV',
      'CSV time',
    ],
    ...syncRows.map(({ label, sync: s }) => [
      label,
      `${s.seconds} s`,
      s.transfersPerSecond.toLocaleString('en-US'),
      `${s.longestAnswerMs} ms`,
      s.csv.rows.toLocaleString('en-US'),
      `${kib(s.csv.bytes).toLocaleString('en-US')} KiB`,
      `${s.csv.seconds} s`,
    ]),
  ])
  const reads = table([
    [
      `GET /api/treasury/history (${r.transfers.toLocaleString('en-US')} transfers), 20 concurrent`,
      'requests',
      'p50',
      'p99',
      'max',
      'errors',
      'API CPU/req',
    ],
    ...runs.flatMap((run) =>
      run.history.map((h) => [
        `${run.database}: ${h.page} page`,
        String(h.requests),
        ...ms(h.latencyMs),
        String(h.errors),
        `${h.cpuMsPerRequest} ms`,
      ]),
    ),
  ])
  const pages = table([
    [`Treasury page until shown (${r.browser.database}, cold loads)`, 'median', 'min', 'max'],
    ...r.browser.pageLoads.map((load) => [
      `${load.profile}, ${load.transfers.toLocaleString('en-US')} transfers`,
      `${load.shownMs.median} ms`,
      `${load.shownMs.min} ms`,
      `${load.shownMs.max} ms`,
    ]),
  ])
  const js = r.browser.js
  const jsLines = js
    ? [
        `JS at load, gzip: Overview ${kib(js.overview.gzip)} KiB (${js.overview.files} files); the Treasury page adds ${kib(js.treasuryOnly.gzip)} KiB (${js.treasuryOnly.list.join(', ')})`,
        `Treasury chunks the Overview loaded: ${js.leakedToOverview.length === 0 ? 'none' : js.leakedToOverview.join(', ')}`,
      ]
    : ['JS at load: not measured (below)']
  const failed = r.browser.failures.map((failure) => `  FAILED ${failure}`)
  const budget = table([
    ['Budget (issue 23)', 'measured', 'limit', 'result'],
    ...treasuryBudget(r).map((line) => [
      line.budget,
      `${line.value} ${line.unit}`,
      `${line.limit} ${line.unit}`,
      line.pass ? 'pass' : `MISS: ${line.miss}`,
    ]),
  ])
  return [
    `Treasury: ${r.transfers.toLocaleString('en-US')} and ${SMALL_TRANSFERS} token transfers of two Safes on the chain in ${r.setupSeconds} s; load average ${r.loadAverage.start} at the start, ${r.loadAverage.end} at the end`,
    ...skipped,
    '',
    sync,
    '',
    reads,
    '',
    pages,
    ...jsLines,
    ...failed,
    '',
    budget,
  ].join('\n')
}
