// `npm run bench`: builds the web app for production, serves it like `npm start` (anvil + demo DAO + API)
// on free ports, and measures bundle size, cold-load timings in headless Chromium and network use.
// Prints a table and writes bench-results/bench.json. The build goes to bench-results/web-dist, so a
// rebuild of apps/web/dist meanwhile (e2e runs) cannot change the files under measurement; `--no-build`
// reuses the previous bench build.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { deployDemoDao } from '@guildhall/devchain/demo-dao'
import { testWalletInitScript } from '@guildhall/devchain/wallet/inject'
import { chromium } from 'playwright-core'
import type { Hex } from 'viem'
import { parseEnv } from '../apps/api/src/env.ts'
import { startServer } from '../apps/api/src/server.ts'
import { CHROMIUM_ARGS, findChromium } from '../e2e/support/chromium.ts'
import { allJs, indexHtmlJs, sizeOf, staticGraphJs } from './bench/bundle.ts'
import { coldLoadTimings, type LoadTimings, type LoadTraffic, loadTraffic, PROFILES } from './bench/page.ts'
import { type BenchResult, formatReport, type NetworkAtLoad, spread } from './bench/report.ts'
import { demoEnv } from './demo-env.ts'

const root = resolve(import.meta.dirname, '..')
const outDir = join(root, 'bench-results')
const dist = join(outDir, 'web-dist')
const COLD_LOADS = 5
const IDLE_MS = 20_000

/** Undo steps, run last-first on success, error and Ctrl-C. */
const cleanups: Array<() => Promise<unknown>> = []
async function cleanUp() {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step().catch(() => {})
}

const step = (message: string) => console.log(`… ${message}`)

function build() {
  step('building the web app (npm run build -w @guildhall/web, into bench-results/web-dist)')
  // The manifest (.vite/manifest.json) gives the static import graph; the app's own build does without.
  const args = ['run', 'build', '-w', '@guildhall/web', '--', '--outDir', dist, '--emptyOutDir', '--manifest']
  const result = spawnSync('npm', args, { cwd: root, encoding: 'utf8' })
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr)
    throw new Error('the production build failed')
  }
}

/** The development-wallet accounts exactly as `npm start` offers them: demo members by name, deployer last. */
/** anvil with the demo DAO and the app server configured like scripts/start.ts, on free ports. */
async function startStack() {
  step('starting anvil, deploying the demo DAO, starting the app server')
  const anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  cleanups.push(() => anvil.stop())
  const deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  const port = await getFreePort()
  const settings = parseEnv({
    ...demoEnv({ anvilUrl: anvil.url, deployment, webDist: dist }),
    PORT: String(port),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
  })
  const server = await startServer(settings)
  cleanups.push(server.close)
  return { anvil, appUrl: `${settings.publicConfig.appUrl}/` }
}

function network(load: LoadTraffic): NetworkAtLoad {
  const hosts: Record<string, number> = {}
  for (const host of load.external) hosts[host] = (hosts[host] ?? 0) + 1
  return { rpc: load.rpc, external: { count: load.external.length, hosts } }
}

async function main() {
  const started = Date.now()
  if (!process.argv.includes('--no-build')) build()
  else if (!existsSync(join(dist, '.vite/manifest.json')))
    throw new Error('no earlier bench build: drop --no-build')
  const executablePath = findChromium()
  if (!executablePath) throw new Error('no Chromium found: install one or set CHROMIUM_PATH')

  const { anvil, appUrl } = await startStack()
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, handleSIGINT: false })
  cleanups.push(() => browser.close())

  step('disconnected load: requests and JS loaded')
  const disconnected = await loadTraffic(browser, appUrl, { ready: 'connectReady' })

  const pages: BenchResult['pages'] = {}
  for (const profile of PROFILES) {
    const runs: LoadTimings[] = []
    for (let i = 1; i <= COLD_LOADS; i++) {
      step(`${profile.name} cold load ${i}/${COLD_LOADS}`)
      runs.push(await coldLoadTimings(browser, profile, appUrl))
    }
    pages[profile.name] = {
      fcp: spread(runs.map((run) => run.fcp)),
      connectReady: spread(runs.map((run) => run.connectReady)),
      modalOpen: spread(runs.map((run) => run.modalOpen)),
    }
  }

  step(`connected load, then ${IDLE_MS / 1000} s idle`)
  // A wallet that already authorised the site on an earlier visit; Ada (account 1, a member) active.
  const walletScript = testWalletInitScript({
    chains: [{ chainId: LOCAL_CHAIN_ID, rpcUrl: anvil.url, name: 'Local chain' }],
    accounts: [anvilAccounts[1], ...anvilAccounts.filter((_, i) => i !== 1)].map((a) => a?.address as Hex),
    connected: true,
    persist: false,
  })
  const connected = await loadTraffic(browser, appUrl, {
    walletScript,
    ready: 'accountReady',
    idleMs: IDLE_MS,
  })
  const idle = connected.idle ?? { posts: 0, calls: 0, methods: {} }
  const perMinute = 60_000 / IDLE_MS

  const loaded = disconnected.scripts.filter((file) => file.startsWith('assets/'))
  const staticGraph = staticGraphJs(dist)
  const fromHtml = indexHtmlJs(dist)
  if (fromHtml.length !== staticGraph.length || fromHtml.some((file) => !staticGraph.includes(file))) {
    console.warn(`note: index.html references ${fromHtml.join(', ')}; the manifest's static graph differs`)
  }
  const result: BenchResult = {
    date: new Date().toISOString(),
    chromium: browser.version(),
    bundle: {
      loadedAtPageLoad: { ...sizeOf(dist, loaded), list: loaded.sort() },
      staticGraph: { ...sizeOf(dist, staticGraph), list: staticGraph.sort() },
      allJs: sizeOf(dist, allJs(dist)),
    },
    pages,
    network: {
      disconnected: network(disconnected),
      connected: network(connected),
      idleConnected: {
        ...idle,
        seconds: IDLE_MS / 1000,
        postsPerMinute: Math.round(idle.posts * perMinute),
        callsPerMinute: Math.round(idle.calls * perMinute),
      },
    },
  }
  await cleanUp()

  mkdirSync(outDir, { recursive: true })
  writeFileSync(join(outDir, 'bench.json'), `${JSON.stringify(result, null, 2)}\n`)
  console.log(`\n${formatReport(result)}\n`)
  console.log(`Wrote bench-results/bench.json (bench took ${Math.round((Date.now() - started) / 1000)} s)`)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the browser, app server and anvil…`)
    cleanUp().finally(() => process.exit(130))
  })
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error)
  await cleanUp()
  process.exit(1)
})
