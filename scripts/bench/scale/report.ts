// The scale section's tables printed for people.
import type { InstancesRun, Latency, ScaleInstances } from '../harness/schema.ts'
import { round1, table } from '../harness/stats.ts'
import { scaleBudget } from './budget.ts'
import { type DatabaseRun, DEEP_AFTER, HOLDERS, POSTS_WHILE_READING, type ScaleBenchResult } from './plan.ts'

const ms = (l: Latency) => [`${l.p50} ms`, `${l.p99} ms`, `${l.max} ms`]

function formatInstances(i: ScaleInstances): string {
  if ('skipped' in i) return `Vote ingest with 1 and 3 instances: skipped (${i.skipped})`
  const label = (run: InstancesRun) =>
    `${run.instances} instance${run.instances > 1 ? 's' : ''}${run.proxy === 'none' ? ', direct' : ` behind ${run.proxy}`}`
  const cpu = (n: number | null) => (n === null ? '–' : `${n} ms`)
  /** The cores the measured processes kept busy over the run: CPU per vote × votes per second. */
  const busy = (run: InstancesRun) => {
    const { apiServers, databaseServer, proxy, loadGenerator } = run.cpuMsPerVote
    return round1(
      ((apiServers + (databaseServer ?? 0) + (proxy ?? 0) + loadGenerator) * run.votesPerSecond) / 1000,
    )
  }
  const throughput = table([
    [
      `Vote ingest, ${i.database}: ${i.votes} re-votes at ${i.concurrency} concurrent`,
      'votes/s',
      'p50',
      'p99',
      'max',
      'non-201',
    ],
    ...i.runs.map((run) => [
      label(run),
      String(run.votesPerSecond),
      ...ms(run.latencyMs),
      String(run.errors),
    ]),
  ])
  const where = table([
    [
      'CPU per vote; PostgreSQL sessions (mean)',
      'API',
      i.database,
      'HAProxy',
      'load gen.',
      'cores busy',
      'running',
      'tally row',
      'advisory',
      'other lock',
      'idle in tx',
    ],
    ...i.runs.map((run) => [
      label(run),
      cpu(run.cpuMsPerVote.apiServers),
      cpu(run.cpuMsPerVote.databaseServer),
      cpu(run.cpuMsPerVote.proxy),
      cpu(run.cpuMsPerVote.loadGenerator),
      String(busy(run)),
      String(run.postgresSessions.running),
      String(run.postgresSessions.waitingOnTallyRow),
      String(run.postgresSessions.waitingOnAdvisoryLock),
      String(run.postgresSessions.waitingOnOtherLock),
      String(run.postgresSessions.idleInTransaction),
    ]),
  ])
  const one = i.runs.find((run) => run.instances === 1 && run.proxy !== 'none')
  const many = i.runs.find((run) => run.instances > 1)
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100
  const lockWaits = (run: InstancesRun) =>
    round1(
      run.postgresSessions.waitingOnTallyRow +
        run.postgresSessions.waitingOnAdvisoryLock +
        run.postgresSessions.waitingOnOtherLock,
    )
  const compared =
    one && many
      ? [
          `  Measured, ${label(many)} against 1: ${ratio(many.votesPerSecond, one.votesPerSecond)}× the votes/s, ${ratio(many.latencyMs.p99, one.latencyMs.p99)}× the p99, ${ratio(many.cpuMsPerVote.apiServers, one.cpuMsPerVote.apiServers)}× the API CPU per vote; lock waits ${lockWaits(one)} → ${lockWaits(many)}.`,
        ]
      : []
  return [
    throughput,
    where,
    `  ${i.cores} cores run every process above and whatever else the machine runs: more instances cannot add throughput`,
    `  here, the rows show what spreading one proposal's votes over processes costs.`,
    ...compared,
    `  Each new instance took ${i.warmUpVotes} votes first (untimed); every vote replaced a ballot; rate limits counted in ${i.database}.`,
    '  cores busy = the four CPU columns × votes/s.',
  ].join('\n')
}

export function formatScaleReport(r: ScaleBenchResult): string {
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const skipped = r.databases
    .filter((run) => 'skipped' in run)
    .map((run) => `  ${run.database}: skipped (${(run as { skipped: string }).skipped})`)
  const setup = `Scale: ${r.votes.toLocaleString('en-US')} signed votes on one proposal, ${r.holders.toLocaleString('en-US')} delegated holders (signing ${r.setupSeconds.signing} s, 0 when cached; holders on the chain ${r.setupSeconds.holders} s)`
  const prepared = table([
    ['Setup per database', 'index events', 'index time', 'seed time'],
    ...runs.map((run) => [
      run.database,
      run.index.events.toLocaleString('en-US'),
      `${run.index.seconds} s`,
      `${run.seedSeconds} s`,
    ]),
  ])
  const reads = table([
    [
      `GET /api/proposals/:id (${r.votes.toLocaleString('en-US')} votes)`,
      'requests',
      'p50',
      'p99',
      'max',
      'errors',
    ],
    ...runs.flatMap((run) => [
      [`${run.database}: ${run.detail.bytes} B, ${run.detail.gzipBytes} B gzip`, '', '', '', '', ''],
      ...run.detail.readers.map((level) => [
        `  ${level.concurrency} concurrent`,
        String(level.requests),
        ...ms(level.latencyMs),
        String(level.errors),
      ]),
    ]),
  ])
  const list = table([
    ['GET /api/proposals/:id/votes, one reader', 'p50', 'p99', 'max'],
    ...runs.flatMap((run) => [
      [`${run.database}: first page`, ...ms(run.votesList.firstPage)],
      [`${run.database}: after ${DEEP_AFTER.toLocaleString('en-US')}`, ...ms(run.votesList.deepPage)],
      [`${run.database}: log page (GET /api/governance/log)`, ...ms(run.logPage)],
    ]),
  ])
  const writes = table([
    ['Vote POSTs', 'votes', 'votes/s', 'p50', 'p99', 'max', 'non-201'],
    ...runs.flatMap((run) => [
      [
        `${run.database}: ${POSTS_WHILE_READING.concurrency} posting while ${POSTS_WHILE_READING.readers} readers loop`,
        String(run.postWhileReading.votes),
        '',
        ...ms(run.postWhileReading.latencyMs),
        String(run.postWhileReading.errors),
      ],
      [
        `  (the readers: ${run.postWhileReading.readerRequests} reads, ${run.postWhileReading.readerErrors} failed)`,
        '',
        '',
        ...ms(run.postWhileReading.readerLatencyMs),
        '',
      ],
      [
        `${run.database}: ingest at ${run.ingest.concurrency} concurrent, 1 instance`,
        String(run.ingest.votes),
        String(run.ingest.votesPerSecond),
        ...ms(run.ingest.latencyMs),
        String(run.ingest.errors),
      ],
    ]),
  ])
  const instances = formatInstances(r.instances)
  const exportsTable = table([
    ['GET /api/proposals/:id/bundle', 'size', 'time', 'API RSS before → peak'],
    ...runs.flatMap((run) => [
      ...run.exports.map((e) => [
        `${run.database}: ${e.votes.toLocaleString('en-US')} votes`,
        `${round1(e.bytes / 1024 / 1024)} MiB`,
        `${e.seconds} s`,
        `${e.baseRssMiB} → ${e.peakRssMiB} MiB`,
      ]),
      ...(run.cappedExport
        ? [
            [
              `${run.database}: ${HOLDERS.toLocaleString('en-US')} votes, heap capped at ${run.cappedExport.heapLimitMiB} MiB`,
              `${round1(run.cappedExport.bytes / 1024 / 1024)} MiB`,
              run.cappedExport.completed ? `${run.cappedExport.seconds} s` : 'FAILED',
              '',
            ],
          ]
        : []),
    ]),
  ])
  const directory = table([
    [`GET /api/members (${r.holders.toLocaleString('en-US')} holders), one reader`, 'p50', 'p99', 'max'],
    ...runs.flatMap((run) =>
      run.directory
        ? [
            ...run.directory.sorted.flatMap((order) => [
              [`${run.database}: by ${order.sort}, first page`, ...ms(order.firstPage)],
              [`${run.database}: by ${order.sort}, 40 pages in`, ...ms(order.deepPage)],
            ]),
            [`${run.database}: searched by the start of an address`, ...ms(run.directory.searched)],
            [`${run.database}: searched, by participation`, ...ms(run.directory.searchedSorted)],
            ...(run.directory.searchedByName
              ? [[`${run.database}: searched by the start of a name`, ...ms(run.directory.searchedByName)]]
              : []),
          ]
        : [],
    ),
  ])
  const pages = table([
    [
      `Proposal page until the results show (${r.browser.database}, median of 3 cold loads)`,
      'median',
      'min',
      'max',
    ],
    ...r.browser.pageLoads.map((load) => [
      `${load.profile}, ${load.votes.toLocaleString('en-US')} votes`,
      `${load.resultsMs.median} ms`,
      `${load.resultsMs.min} ms`,
      `${load.resultsMs.max} ms`,
    ]),
  ])
  const recount = r.browser.recount
    ? `Browser recount ("Verify this result", desktop, ${r.votes.toLocaleString('en-US')}+ votes): ${r.browser.recount.seconds} s; progress shown: ${r.browser.recount.progressSeen.join(', ') || 'none'}; said: ${r.browser.recount.outcome}`
    : 'Browser recount: not measured (below)'
  const failed = r.browser.failures.map((failure) => `  FAILED ${failure}`)
  const budget = table([
    ['Budget (issue 14)', 'measured', 'limit', 'result'],
    ...scaleBudget(r).map((line) => [
      line.budget,
      `${line.value} ${line.unit}`,
      `${line.limit} ${line.unit}`,
      line.pass ? 'pass' : `MISS: ${line.miss}`,
    ]),
  ])
  return [
    setup,
    ...skipped,
    '',
    prepared,
    '',
    reads,
    '',
    list,
    '',
    writes,
    '',
    instances,
    '',
    exportsTable,
    '',
    directory,
    '',
    pages,
    recount,
    ...failed,
    '',
    budget,
  ].join('\n')
}
