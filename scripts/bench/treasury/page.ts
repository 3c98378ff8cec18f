// The treasury section's browser figures: the Treasury page's cold load until its content shows (the
// harness's desktop and phone profiles, a fresh context each, the two treasuries' pages interleaved so a
// burst of load from elsewhere hits both alike), and which JS the Overview and the Treasury page load.
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { loadUntilShown, PROFILES, shownProbe } from '../harness/browser.ts'
import { chunksFrom, sizeOf } from '../harness/bundle.ts'
import type { TreasuryBenchResult } from '../harness/schema.ts'
import { spread } from '../harness/stats.ts'

const LOADS_PER_PROFILE = 5
const LOAD_TIMEOUT_MS = 60_000

/** What "shown" means: an asset row, the history's first row and the balance chart each have a box. */
const TREASURY_READY_SELECTORS = [
  '[data-testid="treasury-asset"]',
  '[data-testid="treasury-history"] [data-testid="treasury-row"]',
  '[data-testid="treasury-balance-chart"] svg',
]

type TreasuryPageLoad = TreasuryBenchResult['browser']['pageLoads'][number]

/** Cold loads of each treasury's page (`pages`: transfers → URL) on every profile, interleaved. */
export async function treasuryLoads(
  browser: Browser,
  pages: { transfers: number; url: string }[],
  failureDir: string,
): Promise<TreasuryPageLoad[]> {
  const loads: TreasuryPageLoad[] = []
  for (const profile of PROFILES) {
    const samples = pages.map(() => [] as number[])
    for (let i = 0; i < LOADS_PER_PROFILE; i++) {
      for (const [p, { transfers, url }] of pages.entries()) {
        const context = await browser.newContext({ ...profile.context, locale: 'en-US' })
        try {
          const failure = join(failureDir, `failed-treasury-${profile.name}-${transfers}.png`)
          samples[p]?.push(await loadUntilShown(context, profile, url, TREASURY_READY_SELECTORS, failure))
        } finally {
          await context.close()
        }
      }
    }
    for (const [p, { transfers }] of pages.entries())
      loads.push({ profile: profile.name, transfers, shownMs: spread(samples[p] ?? []) })
  }
  return loads
}

/**
 * The app's JS files (dist-relative) a desktop cold load of `url` received until the page was ready and the
 * network had been quiet for 1.5 s, as the web section counts its JS at load: ready is RainbowKit's
 * "Connect Wallet" button shown for the Overview, the treasury shown for the Treasury page.
 */
async function jsLoaded(browser: Browser, url: string, ready: 'connect' | 'treasury'): Promise<string[]> {
  const context = await browser.newContext({ ...PROFILES[0]?.context, locale: 'en-US' })
  try {
    const origin = new URL(url).origin
    const scripts = new Set<string>()
    let inFlight = 0
    let lastActivity = Date.now()
    context.on('request', () => {
      inFlight++
      lastActivity = Date.now()
    })
    const settled = () => {
      inFlight--
      lastActivity = Date.now()
    }
    context.on('requestfinished', settled)
    context.on('requestfailed', settled)
    context.on('response', (response) => {
      const at = new URL(response.url())
      if (at.origin === origin && at.pathname.endsWith('.js')) scripts.add(at.pathname.slice(1))
    })
    const page = await context.newPage()
    await page.addInitScript({ content: shownProbe(TREASURY_READY_SELECTORS) })
    await page.goto(url, { waitUntil: 'commit' })
    const deadline = Date.now() + LOAD_TIMEOUT_MS
    if (ready === 'connect')
      await page.locator('[data-testid="rk-connect-button"]').first().waitFor({ timeout: LOAD_TIMEOUT_MS })
    while (ready === 'treasury' && typeof (await page.evaluate('window.__shownAt')) !== 'number') {
      if (Date.now() > deadline) throw new Error(`${url}: the treasury did not show`)
      await new Promise((done) => setTimeout(done, 50))
    }
    // Lazy chunks a page fetches once ready count too: loaded with the page, not on a click.
    while (inFlight > 0 || Date.now() - lastActivity < 1500) {
      if (Date.now() > deadline) throw new Error(`${url}: the network did not go quiet`)
      await new Promise((done) => setTimeout(done, 50))
    }
    return [...scripts].filter((file) => file.startsWith('assets/')).sort()
  } finally {
    await context.close()
  }
}

type TreasuryJs = NonNullable<TreasuryBenchResult['browser']['js']>

/** Which JS the Overview and the Treasury page load, from `origin` serving the build in `dist`. */
export async function treasuryJs(browser: Browser, origin: string, dist: string): Promise<TreasuryJs> {
  const overview = await jsLoaded(browser, new URL('/', origin).toString(), 'connect')
  const treasury = await jsLoaded(browser, new URL('/treasury', origin).toString(), 'treasury')
  const own = chunksFrom(dist, (key) => key.includes('features/treasury/'))
  if (own.length === 0) throw new Error(`${dist}: no chunk from features/treasury/ in the build's manifest`)
  if (!own.every((file) => treasury.includes(file)))
    throw new Error(`the Treasury page did not load its own chunks (${own.join(', ')})`)
  const treasuryOnly = treasury.filter((file) => !overview.includes(file))
  return {
    overview: { ...sizeOf(dist, overview), list: overview },
    treasuryOnly: { ...sizeOf(dist, treasuryOnly), list: treasuryOnly },
    leakedToOverview: own.filter((file) => overview.includes(file)),
  }
}
