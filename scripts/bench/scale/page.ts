// The scale section's browser figures: a proposal page's cold load until its results show (desktop and
// phone profiles of page.ts, a fresh context each), and the browser recount ("Verify this result", the web
// worker) of a whole proposal until it reports.
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { applyThrottle, PROFILES, type ProfileName } from '../harness/browser.ts'
import type { Spread } from '../harness/schema.ts'
import { spread } from '../harness/stats.ts'

const LOADS_PER_PROFILE = 3
const RECOUNT_TIMEOUT_MS = 15 * 60_000

// Runs before any page script: the time (since navigation start) the results card first has a box and the
// voters line, i.e. the tally is on screen; checked on every DOM mutation.
const RESULTS_PROBE = `(() => {
  window.__resultsAt = null;
  const check = () => {
    if (window.__resultsAt !== null) return;
    const card = document.querySelector('[data-testid="results"]');
    if (card && card.getBoundingClientRect().width > 0 && card.querySelector('[data-testid="voters"]'))
      window.__resultsAt = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`

export type PageLoad = { profile: ProfileName; votes: number; resultsMs: Spread }

/** Cold loads of each proposal page (`pages`: votes → URL) on every profile, until the results show. */
export async function resultsLoads(
  browser: Browser,
  pages: { votes: number; url: string }[],
  failureDir: string,
): Promise<PageLoad[]> {
  const loads: PageLoad[] = []
  for (const profile of PROFILES) {
    for (const { votes, url } of pages) {
      const samples: number[] = []
      for (let i = 0; i < LOADS_PER_PROFILE; i++) {
        const context = await browser.newContext({ ...profile.context, locale: 'en-US' })
        try {
          const page = await context.newPage()
          const errors: string[] = []
          page.on('pageerror', (error) => errors.push(String(error)))
          page.on('console', (message) => {
            if (message.type() === 'error') errors.push(message.text())
          })
          await page.addInitScript({ content: RESULTS_PROBE })
          await applyThrottle(await context.newCDPSession(page), profile.throttle)
          await page.goto(url, { waitUntil: 'commit' })
          const deadline = Date.now() + 60_000
          for (;;) {
            // undefined until the probe runs (the document is only committed), null until the results show.
            const at = (await page.evaluate('window.__resultsAt')) as number | null | undefined
            if (typeof at === 'number') {
              samples.push(Math.round(at))
              break
            }
            if (Date.now() > deadline) {
              const shot = join(failureDir, `failed-scale-${profile.name}-${votes}.png`)
              await page.screenshot({ path: shot }).catch(() => undefined)
              throw new Error(
                `${url} (${profile.name}): the results did not show within 60 s (screenshot: ${shot}; errors in the page: ${errors.slice(0, 5).join(' | ') || 'none'})`,
              )
            }
            await new Promise((done) => setTimeout(done, 50))
          }
        } finally {
          await context.close()
        }
      }
      loads.push({ profile: profile.name, votes, resultsMs: spread(samples) })
    }
  }
  return loads
}

export type BrowserRecount = { seconds: number; outcome: string; progressSeen: string[] }

/** "Verify this result" on the page at `url` (desktop profile), timed from the click to its report. */
export async function browserRecount(browser: Browser, url: string): Promise<BrowserRecount> {
  const desktop = PROFILES.find((profile) => profile.name === 'desktop')
  const context = await browser.newContext({ ...desktop?.context, locale: 'en-US' })
  try {
    const page = await context.newPage()
    await page.goto(url)
    const button = page.getByRole('button', { name: 'Verify this result' })
    await button.waitFor({ timeout: 60_000 })
    const started = performance.now()
    await button.click()
    const card = page.getByTestId('verify')
    const progressSeen = new Set<string>()
    const deadline = Date.now() + RECOUNT_TIMEOUT_MS
    for (;;) {
      const text = (await card.textContent()) ?? ''
      const step = /(Checking signatures|Reading voting power from the chain|Counting): \d+ of \d+/.exec(
        text,
      )?.[1]
      if (step) progressSeen.add(step)
      if ((await page.getByTestId('recount-result').count()) > 0 || text.includes('could not run')) break
      if (Date.now() > deadline)
        throw new Error(`the browser recount did not finish within ${RECOUNT_TIMEOUT_MS / 60_000} min`)
      await new Promise((done) => setTimeout(done, 250))
    }
    const seconds = (performance.now() - started) / 1000
    const outcome = ((await card.textContent()) ?? '')
      .replace(/^.*Download the result bundle/, '')
      .trim()
      .slice(0, 300)
    return { seconds: Math.round(seconds * 10) / 10, outcome, progressSeen: [...progressSeen] }
  } finally {
    await context.close()
  }
}
