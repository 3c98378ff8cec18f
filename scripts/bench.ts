// `npm run bench [-- <section>…] [--no-build] [--check]`: measures Guildhall's production build in
// headless Chromium, section by section, prints a report and writes bench-results/bench.json.
//   web         Guildhall's Overview as `npm start` serves it beside a bare RainbowKit page (the same wallets
//               but the development wallet) and a plain-wagmi floor page: bundle, load timings, connect
//               modal, heap, long tasks, network; the first-page budget (ADRs 014, 039).
//   lighthouse  Lighthouse on the Overview and a proposal page, desktop and mobile presets.
//   sign-in     verify latency, throughput and CPU per verification, PGlite and PostgreSQL.
//   governance  vote ingest (PGlite, PostgreSQL), tally time, token index speed, voting-power lookups.
//   names       a cold refresh of 1,000 addresses' names: lookups per second and per RPC call.
//   scale       100,000 signed votes on one proposal, 100,000 holders: reads, votes under load, exports.
//   treasury    a treasury Safe with 100,000 token transfers: index catch-up, history reads, the Treasury page
//               against a 100-transfer treasury's, and its JS only on its page.
//   discussion  a proposal thread of 10,000 signed comments: its first page's size and p99 at 50 readers,
//               comments posted per second, the proposal page against a 10-comment thread's.
//   ranked-choice  100,000 signed ballots ranking 20 choices on one proposal: time to settle its rounds, the
//               proposal's size and p99 at 50 readers, memory.
//   closing-hour  the closing hour's budget (issue 26): 10,000 voters on one proposal at 200 concurrent on
//               PostgreSQL (1 and 3 instances) and PGlite against the signature floor, 1,000 live streams,
//               the log lock's hold, sign-in, the production server's start.
// With no section named, every section runs. Builds go under bench-results/ (web-dist, reference/*), so a
// rebuild of apps/web/dist meanwhile (e2e runs) cannot change the files under measurement; `--no-build`
// reuses the previous bench builds. `--check` exits 1 when a budget line misses.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { findChromium } from '../e2e/support/chromium.ts'
import { closingHourSection } from './bench/closing-hour/section.ts'
import { discussionSection } from './bench/discussion/section.ts'
import { governanceSection } from './bench/governance/section.ts'
import { benchContext, type Section } from './bench/harness/context.ts'
import { benchJsonSchema } from './bench/harness/schema.ts'
import { lighthouseSection } from './bench/lighthouse/section.ts'
import { namesSection } from './bench/names/section.ts'
import { rankedChoiceSection } from './bench/ranked-choice/section.ts'
import { scaleSection } from './bench/scale/section.ts'
import { signInSection } from './bench/sign-in/section.ts'
import { treasurySection } from './bench/treasury/section.ts'
import { webSection } from './bench/web/section.ts'

const root = resolve(import.meta.dirname, '..')
const outDir = join(root, 'bench-results')

// The sections, in the order they run; each is a module of scripts/bench/ that imports only the harness.
const SECTIONS: Record<string, Section> = {
  web: webSection,
  lighthouse: lighthouseSection,
  'sign-in': signInSection,
  governance: governanceSection,
  names: namesSection,
  scale: scaleSection,
  treasury: treasurySection,
  discussion: discussionSection,
  'ranked-choice': rankedChoiceSection,
  'closing-hour': closingHourSection,
}

/** The run's undo steps (the harness's); nothing to undo before the context exists. */
let cleanUp = async () => {}

function parseArgs(argv: string[]) {
  const flags = argv.filter((arg) => arg.startsWith('--'))
  const unknownFlag = flags.find((flag) => !['--no-build', '--check'].includes(flag))
  if (unknownFlag) throw new Error(`unknown option ${unknownFlag} (known: --no-build, --check)`)
  const named = argv.filter((arg) => !arg.startsWith('--'))
  const unknown = named.find((name) => !(name in SECTIONS))
  if (unknown) throw new Error(`unknown section "${unknown}" (known: ${Object.keys(SECTIONS).join(', ')})`)
  return {
    sections: Object.keys(SECTIONS).filter((name) => named.length === 0 || named.includes(name)),
    noBuild: flags.includes('--no-build'),
    check: flags.includes('--check'),
  }
}

async function main() {
  const started = Date.now()
  const args = parseArgs(process.argv.slice(2))
  const chromiumPath = findChromium()
  if (!chromiumPath) throw new Error('no Chromium found: install one or set CHROMIUM_PATH')
  const run = benchContext({ outDir, noBuild: args.noBuild, chromiumPath })
  const { ctx } = run
  cleanUp = run.cleanUp

  const date = new Date().toISOString()
  // A run of some sections keeps the other sections' figures from the last run; `sections` dates each.
  const jsonPath = join(outDir, 'bench.json')
  const everySection = args.sections.length === Object.keys(SECTIONS).length
  const previous = !everySection && existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, 'utf8')) : {}
  const json: Record<string, unknown> = {
    ...previous,
    date,
    chromium: '',
    sections: { ...previous.sections },
  }
  const reports: string[] = []
  let misses = 0
  for (const name of args.sections) {
    ctx.step(`section ${name}`)
    const section = await (SECTIONS[name] as Section)(ctx)
    Object.assign(json, section.json)
    ;(json.sections as Record<string, string>)[name] = date
    reports.push(section.report)
    misses += section.misses
  }
  json.chromium = (await ctx.browser()).version()
  await cleanUp()

  mkdirSync(outDir, { recursive: true })
  // A section that wrote something else than the documented shape is a bench bug: say which field.
  const checked = benchJsonSchema.safeParse(json)
  if (!checked.success)
    throw new Error(`bench.json does not have its documented shape: ${checked.error.message}`)
  writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`)
  console.log(`\n${reports.join('\n\n')}\n`)
  console.log(`Wrote bench-results/bench.json (bench took ${Math.round((Date.now() - started) / 1000)} s)`)
  if (args.check && misses > 0) {
    console.error(`${misses} budget line(s) missed`)
    process.exitCode = 1
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the browser, servers and anvil…`)
    cleanUp().finally(() => process.exit(130))
  })
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error)
  await cleanUp()
  process.exit(1)
})
