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
// With no section named, every section runs. Builds go under bench-results/ (web-dist, reference/*), so a
// rebuild of apps/web/dist meanwhile (e2e runs) cannot change the files under measurement; `--no-build`
// reuses the previous bench builds. `--check` exits 1 when a budget line misses.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { PublicConfig } from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { startNameService } from '@guildhall/devchain/name-service'
import { type Browser, chromium } from 'playwright-core'
import { seedDemoDatabase } from '../apps/api/src/demo/governance-seed.ts'
import { demoEnv, startDemoChain } from '../apps/api/src/demo/local-chain.ts'
import { startServer } from '../apps/api/src/server.ts'
import { parseEnv } from '../apps/api/src/settings/env.ts'
import { CHROMIUM_ARGS, findChromium } from '../e2e/support/chromium.ts'
import { scaleSection } from './bench/scale.ts'
import { benchJsonSchema } from './bench/schema.ts'
import { governanceSection, lighthouseSection, namesSection, signInSection } from './bench/sections.ts'
import { webSection } from './bench/web.ts'

const root = resolve(import.meta.dirname, '..')
const outDir = join(root, 'bench-results')

/** What a section gets: shared, lazily started parts, each started at most once and cleaned up at the end. */
export type BenchContext = {
  outDir: string
  noBuild: boolean
  step: (message: string) => void
  /** Undo steps, run last-first on success, error and Ctrl-C. */
  cleanups: Array<() => Promise<unknown>>
  /** The production build of apps/web, in bench-results/web-dist (built once per run). */
  webDist: () => Promise<string>
  /**
   * anvil with the demo DAO, the local name service and the app server configured like scripts/start.ts
   * (`npm start`), on free ports.
   */
  startStack: (
    webDist: string,
    env?: Record<string, string>,
  ) => Promise<{ anvil: { url: string }; appUrl: string; publicConfig: PublicConfig }>
  /** One headless Chromium for the whole run. */
  browser: () => Promise<Browser>
}

/** A section's part of bench.json (merged at the top level), its report, and its budget misses. */
export type SectionResult = { json: object; report: string; misses: number }

// The sections, in the order they run; each is `(ctx: BenchContext) => Promise<SectionResult>`.
const SECTIONS: Record<string, (ctx: BenchContext) => Promise<SectionResult>> = {
  web: webSection,
  lighthouse: lighthouseSection,
  'sign-in': signInSection,
  governance: governanceSection,
  names: namesSection,
  scale: scaleSection,
}

const cleanups: BenchContext['cleanups'] = []
async function cleanUp() {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step().catch(() => {})
}

const step = (message: string) => console.log(`… ${message}`)
const once = <T>(start: () => Promise<T>) => {
  let started: Promise<T> | undefined
  return () => {
    started ??= start()
    return started
  }
}

function buildWeb(noBuild: boolean): () => Promise<string> {
  const dist = join(outDir, 'web-dist')
  return once(async () => {
    if (noBuild) {
      if (!existsSync(join(dist, '.vite/manifest.json')))
        throw new Error('no earlier bench build: drop --no-build')
      return dist
    }
    step('building the web app (npm run build -w @guildhall/web, into bench-results/web-dist)')
    // The manifest (.vite/manifest.json) gives the static import graph; the app's own build does without.
    const args = [
      'run',
      'build',
      '-w',
      '@guildhall/web',
      '--',
      '--outDir',
      dist,
      '--emptyOutDir',
      '--manifest',
    ]
    const child = spawn('npm', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const status = await new Promise<number | null>((done) => child.on('close', done))
    if (status !== 0) {
      console.error(output)
      throw new Error('the production build failed')
    }
    return dist
  })
}

async function startStack(webDist: string, env: Record<string, string> = {}) {
  step('starting anvil, deploying the demo DAO and the local name service, starting the app server')
  const { anvil, deployment } = await startDemoChain()
  cleanups.push(() => anvil.stop())
  // As `npm start` has it: the server's name lookups answer with the demo members' names and avatars.
  const nameService = await startNameService()
  cleanups.push(() => nameService.stop())
  const port = await getFreePort()
  const settings = parseEnv({
    ...demoEnv({ anvilUrl: anvil.url, deployment, nameService, webDist }),
    PORT: String(port),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    ...env,
  })
  const server = await startServer(settings)
  cleanups.push(server.close)
  // The demo's proposals and votes, so pages (Lighthouse's proposal page among them) show real content.
  await seedDemoDatabase(settings, server.database)
  return { anvil, appUrl: `${settings.publicConfig.appUrl}/`, publicConfig: settings.publicConfig }
}

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
  const executablePath = findChromium()
  if (!executablePath) throw new Error('no Chromium found: install one or set CHROMIUM_PATH')
  const ctx: BenchContext = {
    outDir,
    noBuild: args.noBuild,
    step,
    cleanups,
    webDist: buildWeb(args.noBuild),
    startStack,
    browser: once(async () => {
      const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, handleSIGINT: false })
      cleanups.push(() => browser.close())
      return browser
    }),
  }

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
    step(`section ${name}`)
    const section = await (SECTIONS[name] as (typeof SECTIONS)[string])(ctx)
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
