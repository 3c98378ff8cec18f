// The browser profiles every section measures pages with (desktop, and a throttled phone), how a
// profile's throttling is applied to a page, and a page's cold load until chosen elements show.
import type { BrowserContext, BrowserContextOptions, CDPSession } from 'playwright-core'

export type ProfileName = 'desktop' | 'phone'

export type Profile = {
  name: ProfileName
  context: BrowserContextOptions
  /** CPU slowdown and network shaping through the DevTools protocol; none = the machine as it is. */
  throttle?: { cpuRate: number; latencyMs: number; bytesPerSecond: number }
}

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36'

export const PROFILES: Profile[] = [
  { name: 'desktop', context: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    context: {
      viewport: { width: 390, height: 844 },
      userAgent: PHONE_UA,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 3,
    },
    throttle: { cpuRate: 4, latencyMs: 150, bytesPerSecond: 200_000 },
  },
]

export async function applyThrottle(cdp: CDPSession, throttle: Profile['throttle']) {
  if (!throttle) return
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpuRate })
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: throttle.latencyMs,
    downloadThroughput: throttle.bytesPerSecond,
    uploadThroughput: throttle.bytesPerSecond,
  })
}

const LOAD_TIMEOUT_MS = 60_000

/**
 * Runs before any page script: the time (since navigation start) every one of `selectors` first has a box,
 * checked on every DOM mutation.
 */
export const shownProbe = (selectors: string[]) => `(() => {
  window.__shownAt = null;
  const selectors = ${JSON.stringify(selectors)};
  const shown = (selector) => {
    const element = document.querySelector(selector);
    return element !== null && element.getBoundingClientRect().width > 0;
  };
  const check = () => {
    if (window.__shownAt === null && selectors.every(shown)) window.__shownAt = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`

/**
 * Loads `url` in a new page of `context` (throttled as `profile` says) until every one of `selectors` has a
 * box; the ms since navigation start. On a timeout it saves a screenshot at `failure` and names the page's
 * errors.
 */
export async function loadUntilShown(
  context: BrowserContext,
  profile: Profile,
  url: string,
  selectors: string[],
  failure: string,
): Promise<number> {
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.addInitScript({ content: shownProbe(selectors) })
  await applyThrottle(await context.newCDPSession(page), profile.throttle)
  await page.goto(url, { waitUntil: 'commit' })
  const deadline = Date.now() + LOAD_TIMEOUT_MS
  for (;;) {
    // undefined until the probe runs (the document is only committed), null until the page shows.
    const at = (await page.evaluate('window.__shownAt')) as number | null | undefined
    if (typeof at === 'number') return Math.round(at)
    if (Date.now() > deadline) {
      await page.screenshot({ path: failure }).catch(() => undefined)
      throw new Error(
        `${url}: ${selectors.join(', ')} did not show within ${LOAD_TIMEOUT_MS / 1000} s (screenshot: ${failure}; errors in the page: ${errors.slice(0, 5).join(' | ') || 'none'})`,
      )
    }
    // Short evaluations: a pending waitForFunction holds the page's bindings.
    await new Promise((done) => setTimeout(done, 50))
  }
}
