// What every section of `npm run bench` gets (BenchContext) and gives back (SectionResult), and the one
// place that starts the shared parts: the web build, the app's stack as `npm start` runs it, the browser.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseEnv, startServer } from '@guildhall/api'
import { demoEnv, seedDemoDatabase, startDemoChain } from '@guildhall/api/demo'
import type { PublicConfig } from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { startNameService } from '@guildhall/devchain/name-service'
import { type Browser, chromium } from 'playwright-core'
import { CHROMIUM_ARGS } from '../../../e2e/support/chromium.ts'

const root = resolve(import.meta.dirname, '../../..')

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

export type Section = (ctx: BenchContext) => Promise<SectionResult>

const step = (message: string) => console.log(`… ${message}`)
const once = <T>(start: () => Promise<T>) => {
  let started: Promise<T> | undefined
  return () => {
    started ??= start()
    return started
  }
}

function buildWeb(outDir: string, noBuild: boolean): () => Promise<string> {
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

/**
 * The context of one run, and `cleanUp`, which runs its undo steps (also on Ctrl-C: the caller's signal
 * handler calls it).
 */
export function benchContext(options: { outDir: string; noBuild: boolean; chromiumPath: string }) {
  const cleanups: BenchContext['cleanups'] = []
  const cleanUp = async () => {
    for (let undo = cleanups.pop(); undo; undo = cleanups.pop()) await undo().catch(() => {})
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

  const ctx: BenchContext = {
    outDir: options.outDir,
    noBuild: options.noBuild,
    step,
    cleanups,
    webDist: buildWeb(options.outDir, options.noBuild),
    startStack,
    browser: once(async () => {
      const browser = await chromium.launch({
        executablePath: options.chromiumPath,
        args: CHROMIUM_ARGS,
        handleSIGINT: false,
      })
      cleanups.push(() => browser.close())
      return browser
    }),
  }
  return { ctx, cleanUp }
}
