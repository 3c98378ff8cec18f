// Lighthouse (npm `lighthouse`, run programmatically) against the served app in the system Chromium: each
// page in LIGHTHOUSE_PAGES under the desktop and mobile presets. Collects category scores, the key
// metrics and the audits that keep a category below 100, and writes each HTML report to
// bench-results/lighthouse/<page>-<preset>.html.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { launch } from 'chrome-launcher'
import lighthouse, { type Config, desktopConfig, type Flags } from 'lighthouse'
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js'
import { CHROMIUM_ARGS, findChromium } from '../../../e2e/support/chromium.ts'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { type FailingAudit, failingAudits, ITEMS_PER_AUDIT, offOriginRequests } from './audits.ts'

const root = resolve(import.meta.dirname, '../../..')
const reportDir = join(root, 'bench-results', 'lighthouse')

/** The first active proposal of the demo data the bench's server was seeded with. */
async function activeProposalPath(appUrl: string): Promise<string> {
  const response = await fetch(new URL('/api/proposals?state=active', appUrl))
  const { proposals } = (await response.json()) as { proposals: { id: string }[] }
  const [first] = proposals
  if (!first) throw new Error('the bench server has no active proposal to audit')
  return `/proposals/${first.id}`
}

/** The pages audited: the Overview, and an active proposal of the demo data (results, vote panel). */
const LIGHTHOUSE_PAGES: ReadonlyArray<{
  name: string
  path: string | ((appUrl: string) => Promise<string>)
  note?: string
}> = [
  { name: 'overview', path: '/' },
  { name: 'proposal', path: activeProposalPath },
]

const PRESETS = ['desktop', 'mobile'] as const
type Preset = (typeof PRESETS)[number]
/** Desktop: Lighthouse's desktop config; mobile: its default config (Moto G Power, slow 4G, 4x CPU). */
const PRESET_CONFIGS: Record<Preset, Config | undefined> = { desktop: desktopConfig, mobile: undefined }

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const
type Category = (typeof CATEGORIES)[number]

/**
 * Runs per page and preset. Simulated throttling turns a few ms of observed timing into large swings of
 * the score (the same build scored 91 and 100 on the mobile Overview in consecutive runs), so each line is
 * the median run, as Lighthouse's docs advise: the one nearest the median FCP and TTI.
 */
const LIGHTHOUSE_RUNS = 5

/** The first-page budget (ADR 014): Lighthouse's part. */
const LIGHTHOUSE_BUDGET = { mobilePerformance: 95, accessibility: 100 }

const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const
type Metric = keyof typeof METRICS

/**
 * The system Chromium, headless, kept off the network: every host but 127.0.0.1 fails to resolve, so
 * off-origin requests fail at once rather than reaching the internet or waiting on a timeout.
 */
const CHROMIUM_FLAGS = [
  '--headless=new',
  ...CHROMIUM_ARGS,
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
]

interface LighthouseRun {
  page: string
  preset: Preset
  url: string
  /** 0–100, null when Lighthouse could not score the category; of the median run. */
  scores: Record<Category, number | null>
  /** The performance score of every valid run, in order (the median run's is in `scores`). */
  performanceScores: Array<number | null>
  /** FCP, LCP, TBT and SI in ms; CLS unitless. */
  metrics: Record<Metric, number | null>
  failing: Record<Category, FailingAudit[]>
  /** Requests to hosts other than 127.0.0.1, all failed by the host resolver rules. */
  offOrigin: string[]
  /** Lighthouse's own warnings (e.g. a host too slow for reliable simulated throttling). */
  warnings: string[]
  /** An error Lighthouse met while loading the page (e.g. NO_FCP), which voids the scores. */
  runtimeError?: string
  benchmarkIndex?: number
  report: string
  seconds: number
}

interface LighthouseResult {
  lighthouseVersion: string
  userAgent: string
  pageNotes: string[]
  runs: LighthouseRun[]
  seconds: number
}

async function auditPage(url: string, preset: Preset, chromiumPath: string) {
  // A fresh browser per run, so no run inherits another's caches, service workers or processes.
  // chrome-launcher's own SIGINT handler would exit the process before the caller's clean-up ran; the
  // browser sits in its own process group, so a signal to ours must stop it explicitly.
  const chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: 'silent',
    handleSIGINT: false,
  })
  const stopChrome = () => chrome.kill()
  process.once('SIGINT', stopChrome)
  process.once('SIGTERM', stopChrome)
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'html',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    }
    const result = await lighthouse(url, flags, PRESET_CONFIGS[preset])
    if (!result) throw new Error(`Lighthouse returned no result for ${url} (${preset})`)
    const html = Array.isArray(result.report) ? result.report[0] : result.report
    return { lhr: result.lhr, html: html ?? '' }
  } finally {
    process.removeListener('SIGINT', stopChrome)
    process.removeListener('SIGTERM', stopChrome)
    chrome.kill()
  }
}

/** Lighthouse on every page × preset against the served app at `appUrl`. */
async function runLighthouse(options: {
  appUrl: string
  chromiumPath: string
  log: (message: string) => void
}): Promise<LighthouseResult> {
  const started = Date.now()
  mkdirSync(reportDir, { recursive: true })
  const runs: LighthouseRun[] = []
  let lighthouseVersion = ''
  let userAgent = ''
  for (const page of LIGHTHOUSE_PAGES) {
    for (const preset of PRESETS) {
      const path = typeof page.path === 'string' ? page.path : await page.path(options.appUrl)
      const url = new URL(path, options.appUrl).href
      const runStarted = Date.now()
      const audits: Array<Awaited<ReturnType<typeof auditPage>>> = []
      for (let n = 1; n <= LIGHTHOUSE_RUNS; n++) {
        options.log(`Lighthouse: ${page.name} (${path}), ${preset}, run ${n}/${LIGHTHOUSE_RUNS}`)
        audits.push(await auditPage(url, preset, options.chromiumPath))
      }
      // A run without FCP or TTI (Lighthouse's NO_FCP, seen now and then) has no place among the medians;
      // its error is reported with the chosen run's warnings. With no valid run, the first one reports.
      const valid = filterToValidRuns(audits.map((audit) => audit.lhr))
      const medianLhr = valid.length > 0 ? computeMedianRun(valid) : audits[0]?.lhr
      const { lhr, html } =
        audits.find((audit) => audit.lhr === medianLhr) ?? (audits[0] as (typeof audits)[0])
      const failedRuns = audits.flatMap(({ lhr: each }, i) =>
        valid.includes(each)
          ? []
          : [`run ${i + 1} of ${LIGHTHOUSE_RUNS} left out: ${each.runtimeError?.code ?? 'no FCP or TTI'}`],
      )
      lighthouseVersion = lhr.lighthouseVersion
      userAgent = lhr.environment.hostUserAgent
      const report = join(reportDir, `${page.name}-${preset}.html`)
      writeFileSync(report, html)
      const score = (category: Category) => {
        const value = lhr.categories[category]?.score
        return typeof value === 'number' ? Math.round(value * 100) : null
      }
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? null
      runs.push({
        page: page.name,
        preset,
        url,
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as LighthouseRun['scores'],
        performanceScores: audits.flatMap(({ lhr: each }) => {
          if (!valid.includes(each)) return []
          const value = each.categories.performance?.score
          return [typeof value === 'number' ? Math.round(value * 100) : null]
        }),
        metrics: Object.fromEntries(
          Object.entries(METRICS).map(([key, id]) => [key, metric(id)]),
        ) as LighthouseRun['metrics'],
        failing: Object.fromEntries(
          CATEGORIES.map((c) => [c, score(c) === 100 ? [] : failingAudits(lhr, c, Object.values(METRICS))]),
        ) as LighthouseRun['failing'],
        offOrigin: offOriginRequests(lhr),
        warnings: [...failedRuns, ...lhr.runWarnings],
        ...(lhr.runtimeError
          ? { runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` }
          : {}),
        ...(lhr.environment.benchmarkIndex ? { benchmarkIndex: lhr.environment.benchmarkIndex } : {}),
        report: relative(root, report),
        seconds: (Date.now() - runStarted) / 1000,
      })
    }
  }
  return {
    lighthouseVersion,
    userAgent,
    pageNotes: LIGHTHOUSE_PAGES.flatMap((page) => (page.note ? [page.note] : [])),
    runs,
    seconds: (Date.now() - started) / 1000,
  }
}

function cell(value: number | null, format: (n: number) => string): string {
  return value === null ? '—' : format(value)
}

/** min–max of the scores Lighthouse gave. */
function range(scores: Array<number | null>): string {
  const given = scores.filter((score) => score !== null)
  return given.length ? `${Math.min(...given)}–${Math.max(...given)}` : '—'
}

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`)

/** Scores and metrics as a table, the budget verdict, then each failing audit with the runs it fails in. */
function formatLighthouseReport(result: LighthouseResult): string {
  const header = ['page', 'preset', 'perf', 'a11y', 'best-pr.', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'budget']
  const rows = result.runs.map((run) => {
    const overBudget: string[] = []
    const perf = run.scores.performance
    const a11y = run.scores.accessibility
    if (run.preset === 'mobile' && (perf ?? 0) < LIGHTHOUSE_BUDGET.mobilePerformance) overBudget.push('perf')
    if ((a11y ?? 0) < LIGHTHOUSE_BUDGET.accessibility) overBudget.push('a11y')
    return [
      run.page,
      run.preset,
      cell(perf, (n) => `${n} (${range(run.performanceScores)})`),
      cell(a11y, String),
      cell(run.scores['best-practices'], String),
      cell(run.metrics.fcp, ms),
      cell(run.metrics.lcp, ms),
      cell(run.metrics.tbt, ms),
      cell(run.metrics.cls, (n) => n.toFixed(3)),
      cell(run.metrics.si, ms),
      overBudget.length ? `✗ ${overBudget.join(', ')}` : '✓',
    ]
  })
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]?.length ?? 0)))
  const line = (row: string[]) => row.map((text, i) => text.padEnd(widths[i] ?? 0)).join('  ')
  const lines = [
    `Lighthouse ${result.lighthouseVersion} (${result.userAgent})`,
    `budget: performance ≥ ${LIGHTHOUSE_BUDGET.mobilePerformance} (mobile preset), accessibility ${LIGHTHOUSE_BUDGET.accessibility}`,
    // Simulated throttling scales the main-thread work it observes, so a slow or busy host lowers scores.
    `host benchmark index: ${result.runs.map((run) => run.benchmarkIndex ?? '?').join(', ')}`,
    `each line: the median of ${LIGHTHOUSE_RUNS} runs (nearest the median FCP and TTI); perf: its score (min–max of the ${LIGHTHOUSE_RUNS})`,
    ...result.pageNotes.map((note) => `note: ${note}`),
    '',
    line(header),
    ...rows.map(line),
  ]

  // The same audit usually fails in several runs: list it once, with the runs and the union of items.
  // An element or resource is listed once, with its finding in the first run that names it.
  const byAudit = new Map<
    string,
    { category: Category; audit: FailingAudit; runs: string[]; items: FailingAudit['items'] }
  >()
  for (const run of result.runs) {
    for (const category of CATEGORIES) {
      for (const audit of run.failing[category]) {
        const key = `${category}/${audit.id}`
        const entry = byAudit.get(key) ?? { category, audit, runs: [], items: [] }
        entry.runs.push(`${run.page}-${run.preset}${audit.displayValue ? ` (${audit.displayValue})` : ''}`)
        for (const item of audit.items) {
          if (!entry.items.some((other) => other.target === item.target)) entry.items.push(item)
        }
        byAudit.set(key, entry)
      }
    }
  }
  if (byAudit.size) {
    lines.push('', 'Failing audits:')
    for (const { category, audit, runs, items } of byAudit.values()) {
      lines.push(`- [${category}] ${audit.id}: ${audit.title}`, `    in ${runs.join(', ')}`)
      for (const { target, finding } of items.slice(0, ITEMS_PER_AUDIT)) {
        lines.push(`    · ${target}${finding ? ` — ${finding}` : ''}`)
      }
      if (items.length > ITEMS_PER_AUDIT) lines.push(`    · … ${items.length - ITEMS_PER_AUDIT} more`)
    }
  }
  const offOrigin = [...new Set(result.runs.flatMap((run) => run.offOrigin.map((url) => new URL(url).host)))]
  lines.push(
    '',
    offOrigin.length
      ? `off-origin requests (failed by the host resolver rules; audits such as errors-in-console may count them): ${offOrigin.join(', ')}`
      : 'no request left 127.0.0.1, so blocking the internet affected no audit',
  )
  for (const run of result.runs) {
    const label = `${run.page}-${run.preset}`
    if (run.runtimeError) lines.push(`error (${label}): ${run.runtimeError}`)
    for (const warning of run.warnings) lines.push(`warning (${label}): ${warning}`)
  }
  lines.push(
    '',
    `HTML reports: ${result.runs.map((run) => run.report).join(', ')}`,
    `Lighthouse took ${Math.round(result.seconds)} s (${result.runs.map((run) => `${Math.round(run.seconds)} s`).join(' + ')})`,
  )
  return lines.join('\n')
}

/** The `lighthouse` section: Lighthouse on the Overview and a proposal page, desktop and mobile presets. */
export async function lighthouseSection(ctx: BenchContext): Promise<SectionResult> {
  const chromiumPath = findChromium()
  if (!chromiumPath) throw new Error('no Chromium found: install one or set CHROMIUM_PATH')
  const { appUrl } = await ctx.startStack(await ctx.webDist())
  const result = await runLighthouse({ appUrl, chromiumPath, log: ctx.step })
  const misses = result.runs.filter(
    (run) =>
      (run.preset === 'mobile' && (run.scores.performance ?? 0) < LIGHTHOUSE_BUDGET.mobilePerformance) ||
      (run.scores.accessibility ?? 0) < LIGHTHOUSE_BUDGET.accessibility,
  ).length
  return { json: { lighthouse: result }, report: formatLighthouseReport(result), misses }
}
