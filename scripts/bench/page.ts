// Page measurements in headless Chromium: cold-load timings and what the page asks the network for.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'

export type Profile = {
  name: 'desktop' | 'phone'
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

/** What the probe records in the page, in ms since navigation start (performance.now()). */
type Marks = {
  fcp: number | null
  connectReady: number | null
  accountReady: number | null
  clickAt: number | null
  modalOpen: number | null
}

// Runs before any page script. A string, not a function, so no bundler helper leaks into the page.
// "Ready" = RainbowKit's button without the aria-hidden/opacity-0 wrapper it renders before mounting;
// conditions are checked on every DOM mutation and at the end of every transition/animation.
const PROBE = `(() => {
  const marks = (window.__bench = { fcp: null, connectReady: null, accountReady: null, clickAt: null, modalOpen: null });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') marks.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  const shown = (selector) => {
    const element = document.querySelector(selector);
    if (!element || element.closest('[aria-hidden="true"]')) return false;
    for (let node = element; node; node = node.parentElement) if (getComputedStyle(node).opacity !== '1') return false;
    return true;
  };
  const modalOpen = () => [...document.querySelectorAll('[role="dialog"]')].some(
    (dialog) => dialog.textContent.includes('Connect a Wallet') && dialog.getBoundingClientRect().width > 0,
  );
  const check = () => {
    const now = performance.now();
    if (marks.connectReady === null && shown('[data-testid="rk-connect-button"]')) marks.connectReady = now;
    if (marks.accountReady === null && shown('[data-testid="rk-account-button"]')) marks.accountReady = now;
    if (marks.clickAt !== null && marks.modalOpen === null && modalOpen()) marks.modalOpen = now;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  for (const type of ['transitionend', 'animationend']) document.addEventListener(type, check, true);
  document.addEventListener('click', () => { if (marks.clickAt === null) marks.clickAt = performance.now(); }, true);
})();`

/** Everything one browser context sent: app RPC, blocked off-machine requests, app JS loaded. */
export type Traffic = {
  /** HTTP POSTs to the app's /rpc/<chainId>. */
  rpcPosts: number
  /** JSON-RPC methods inside those POSTs, one entry per call (batched arrays count each call). */
  rpcMethods: string[]
  /** Host of every request to a host other than 127.0.0.1 (all aborted: the bench stays offline). */
  external: string[]
  /** dist-relative paths of the app's JS files the browser received. */
  scripts: string[]
  inFlight: number
  lastActivity: number
}

/** Blocks and records off-machine requests (HTTP and WebSocket) and records the app's RPC and JS. */
async function recordTraffic(context: BrowserContext, appOrigin: string): Promise<Traffic> {
  const traffic: Traffic = {
    rpcPosts: 0,
    rpcMethods: [],
    external: [],
    scripts: [],
    inFlight: 0,
    lastActivity: Date.now(),
  }
  const offMachine = (url: URL) => url.hostname !== '127.0.0.1'
  await context.route(offMachine, (route) => {
    traffic.external.push(new URL(route.request().url()).host)
    return route.abort('blockedbyclient')
  })
  await context.routeWebSocket(offMachine, (ws) => {
    traffic.external.push(`${new URL(ws.url()).host} (WebSocket)`)
    return ws.close({ code: 1000, reason: 'offline bench' })
  })
  context.on('request', (request) => {
    traffic.inFlight++
    traffic.lastActivity = Date.now()
    const url = new URL(request.url())
    if (url.origin !== appOrigin || request.method() !== 'POST' || !url.pathname.startsWith('/rpc/')) return
    traffic.rpcPosts++
    const body: unknown = request.postDataJSON()
    for (const call of Array.isArray(body) ? body : [body]) {
      traffic.rpcMethods.push(String((call as { method?: unknown } | null)?.method ?? '?'))
    }
  })
  const settled = () => {
    traffic.inFlight--
    traffic.lastActivity = Date.now()
  }
  context.on('requestfinished', settled)
  context.on('requestfailed', settled)
  context.on('response', (response) => {
    const url = new URL(response.url())
    if (url.origin === appOrigin && url.pathname.endsWith('.js')) traffic.scripts.push(url.pathname.slice(1))
  })
  return traffic
}

/** Resolves once no request has been in flight or started for `quietMs` (gives up after `maxMs`). */
async function networkQuiet(traffic: Traffic, quietMs = 1500, maxMs = 20_000): Promise<void> {
  const deadline = Date.now() + maxMs
  while (Date.now() < deadline) {
    if (traffic.inFlight <= 0 && Date.now() - traffic.lastActivity >= quietMs) return
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error(`the network did not go quiet within ${maxMs / 1000} s`)
}

async function applyThrottle(context: BrowserContext, page: Page, throttle: Profile['throttle']) {
  if (!throttle) return
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpuRate })
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: throttle.latencyMs,
    downloadThroughput: throttle.bytesPerSecond,
    uploadThroughput: throttle.bytesPerSecond,
  })
}

/** A fresh context (empty cache and storage) with one page, the probe, and optional extra init script. */
async function openPage(browser: Browser, profile: Profile, appOrigin: string, initScript?: string) {
  const context = await browser.newContext({ ...profile.context, locale: 'en-US' })
  const traffic = await recordTraffic(context, appOrigin)
  const page = await context.newPage()
  // Kept so that a page that never gets ready says why (see waitForMark).
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  pageErrors.set(page, errors)
  await page.addInitScript({ content: PROBE })
  if (initScript) await page.addInitScript({ content: initScript })
  await applyThrottle(context, page, profile.throttle)
  return { context, page, traffic }
}

const marks = (page: Page) => page.evaluate('window.__bench') as Promise<Marks>
const pageErrors = new WeakMap<Page, string[]>()

async function waitForMark(page: Page, mark: keyof Marks, timeout = 60_000): Promise<void> {
  try {
    await page.waitForFunction(`window.__bench.${mark} !== null`, undefined, { polling: 100, timeout })
  } catch (error) {
    const errors = pageErrors.get(page) ?? []
    const seen = errors.length ? `; errors in the page:\n  ${errors.slice(0, 10).join('\n  ')}` : ''
    throw new Error(`${mark} not reached within ${timeout / 1000} s at ${page.url()}${seen}`, {
      cause: error,
    })
  }
}

export type LoadTimings = { fcp: number; connectReady: number; modalOpen: number }

/** One cold load: first paint, Connect Wallet ready, then click it and time the connect modal. */
export async function coldLoadTimings(browser: Browser, profile: Profile, url: string): Promise<LoadTimings> {
  const { context, page } = await openPage(browser, profile, new URL(url).origin)
  try {
    await page.goto(url, { waitUntil: 'commit' })
    await waitForMark(page, 'connectReady')
    await page.getByTestId('rk-connect-button').click()
    await waitForMark(page, 'modalOpen')
    const m = await marks(page)
    if (m.fcp === null || m.connectReady === null || m.clickAt === null || m.modalOpen === null) {
      throw new Error(`incomplete marks: ${JSON.stringify(m)}`)
    }
    return { fcp: m.fcp, connectReady: m.connectReady, modalOpen: m.modalOpen - m.clickAt }
  } finally {
    await context.close()
  }
}

export type RpcCount = { posts: number; calls: number; methods: Record<string, number> }

export type LoadTraffic = { rpc: RpcCount; external: string[]; scripts: string[] }

const countMethods = (methods: string[]) =>
  Object.fromEntries(
    [...new Set(methods)].sort().map((method) => [method, methods.filter((m) => m === method).length]),
  )

const rpcSince = (traffic: Traffic, posts = 0, calls = 0): RpcCount => ({
  posts: traffic.rpcPosts - posts,
  calls: traffic.rpcMethods.length - calls,
  methods: countMethods(traffic.rpcMethods.slice(calls)),
})

/**
 * One cold load (desktop profile) until the wallet UI is ready and the network has been quiet for 1.5 s;
 * with `idleMs`, then keeps the page open that long and also counts the RPC made meanwhile.
 */
export async function loadTraffic(
  browser: Browser,
  url: string,
  options: { walletScript?: string; ready: 'connectReady' | 'accountReady'; idleMs?: number },
): Promise<LoadTraffic & { idle?: RpcCount }> {
  const desktop = PROFILES[0] as Profile
  const { context, page, traffic } = await openPage(
    browser,
    desktop,
    new URL(url).origin,
    options.walletScript,
  )
  try {
    await page.goto(url, { waitUntil: 'commit' })
    await waitForMark(page, options.ready)
    await networkQuiet(traffic)
    const atLoad: LoadTraffic = {
      rpc: rpcSince(traffic),
      external: [...traffic.external],
      scripts: [...new Set(traffic.scripts)],
    }
    if (!options.idleMs) return atLoad
    const posts = traffic.rpcPosts
    const calls = traffic.rpcMethods.length
    // The measurement window itself: a fixed span of idle time, not a wait for a condition.
    await new Promise((done) => setTimeout(done, options.idleMs))
    return { ...atLoad, idle: rpcSince(traffic, posts, calls) }
  } finally {
    await context.close()
  }
}
