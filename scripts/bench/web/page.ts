// Page measurements in headless Chromium, the same code for Guildhall and the reference pages: cold-load
// timings, heap and long tasks, and what the page asks the network for.
import { join } from 'node:path'
import { exposeTestWalletRpc } from '@guildhall/devchain/wallet/playwright'
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { applyThrottle, PROFILES, type Profile } from '../harness/browser.ts'
import type { RpcCount } from '../harness/schema.ts'
import { CONNECT_LABEL, type MarkName, type Marks, probe, type Selectors } from './probe.ts'

/** A cookie for the page's origin, e.g. a sign-in session. */
export type Cookie = { name: string; value: string }

/** A page under measurement; `name` names it in errors and in the screenshot taken when a mark is missed. */
export type Target = { name: string; url: string; selectors: Selectors; failureDir?: string }

/** Everything one browser context sent: app RPC, blocked off-machine requests, app JS loaded. */
type Traffic = {
  /** HTTP POSTs to the page's /rpc/<chainId>. */
  rpcPosts: number
  /** JSON-RPC methods inside those POSTs, one entry per call (batched arrays count each call). */
  rpcMethods: string[]
  /** Host of every request to a host other than 127.0.0.1 (all aborted: the bench stays offline). */
  external: string[]
  /** dist-relative paths of the page's JS files the browser received. */
  scripts: string[]
  inFlight: number
  lastActivity: number
}

/** Blocks and records off-machine requests (HTTP and WebSocket) and records the page's RPC and JS. */
async function recordTraffic(context: BrowserContext, pageOrigin: string): Promise<Traffic> {
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
    if (url.origin !== pageOrigin || request.method() !== 'POST' || !url.pathname.startsWith('/rpc/')) return
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
    if (url.origin === pageOrigin && url.pathname.endsWith('.js')) traffic.scripts.push(url.pathname.slice(1))
  })
  return traffic
}

/** True once no request has been in flight or started for `quietMs`; false if that took over `maxMs`. */
async function networkQuiet(traffic: Traffic, quietMs: number, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs
  while (Date.now() < deadline) {
    if (traffic.inFlight <= 0 && Date.now() - traffic.lastActivity >= quietMs) return true
    await new Promise((done) => setTimeout(done, 50))
  }
  return false
}

/** A fresh context (empty cache and storage) with one page, the probe, and optional extra init script. */
async function openPage(
  browser: Browser,
  profile: Profile,
  target: Target,
  initScript?: string,
  cookies: Cookie[] = [],
) {
  const context = await browser.newContext({ ...profile.context, locale: 'en-US' })
  await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: target.url })))
  const traffic = await recordTraffic(context, new URL(target.url).origin)
  const page = await context.newPage()
  // Kept so that a page that never gets ready says why (see waitForMark).
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  pageErrors.set(page, errors)
  await page.addInitScript({ content: probe(target.selectors) })
  if (initScript) {
    // The test wallet reaches its node outside the page, as an extension does (the app's CSP is 'self').
    await exposeTestWalletRpc(page)
    await page.addInitScript({ content: initScript })
  }
  const cdp = await context.newCDPSession(page)
  await applyThrottle(cdp, profile.throttle)
  return { context, page, traffic, cdp }
}

const marks = (page: Page) => page.evaluate('window.__bench') as Promise<Marks>
const pageErrors = new WeakMap<Page, string[]>()

async function waitForMark(page: Page, target: Target, mark: MarkName, timeout = 60_000): Promise<void> {
  try {
    // Short evaluations from here rather than page.waitForFunction: while a waitForFunction is pending,
    // Playwright does not answer the page's binding calls, so the test wallet (which reaches its node
    // through one) never answered and the account never showed.
    const deadline = Date.now() + timeout
    while (!(await page.evaluate(`window.__bench.${mark} !== null`))) {
      if (Date.now() > deadline) throw new Error(`${mark} still null`)
      await new Promise((done) => setTimeout(done, 100))
    }
  } catch (error) {
    const errors = pageErrors.get(page) ?? []
    const seen = errors.length ? `; errors in the page:\n  ${errors.slice(0, 10).join('\n  ')}` : ''
    let shot = ''
    if (target.failureDir) {
      const path = join(target.failureDir, `failed-${target.name}-${mark}.png`)
      if (
        await page.screenshot({ path }).then(
          () => true,
          () => false,
        )
      )
        shot = ` (screenshot: ${path})`
    }
    throw new Error(
      `${target.name}: ${mark} not reached within ${timeout / 1000} s at ${page.url()}${shot}${seen}`,
      {
        cause: error,
      },
    )
  }
}

/** Live JS heap of the page: a full garbage collection first, so the figure is what the page keeps. */
async function heapUsed(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  return usedSize
}

export type ColdLoad = {
  /** ms since navigation start: first paint, a "Connect Wallet" a person sees, the real button shown. */
  fcp: number
  connectVisible: number
  connectReady: number
  /** ms since the click on "Connect Wallet". */
  modalOpen: number
  walletList: number
  /** Bytes, after a forced GC, once the page is loaded (before the click). */
  heapBytes: number
  /** Long tasks from navigation until the click. */
  longTasks: number
  longTaskMs: number
  /** Requests to other hosts (blocked) until the click, and those the click caused. */
  externalAtLoad: number
  externalAfterClick: number
}

// "Loaded" for the click, the heap and the long tasks: ready, then no request for this long (or the cap).
const SETTLE_QUIET_MS = 500
const SETTLE_MAX_MS = 10_000

/**
 * One cold load without a wallet: first paint, "Connect Wallet" visible and ready (the real button); once
 * the page has settled (no request for 0.5 s, at most 10 s), its heap, long tasks and off-machine requests
 * so far; then a click on "Connect Wallet" timed to the dialog and to its full wallet list, and the
 * off-machine requests the click caused (until the network settles again).
 */
export async function coldLoad(browser: Browser, profile: Profile, target: Target): Promise<ColdLoad> {
  const { context, page, traffic, cdp } = await openPage(browser, profile, target)
  try {
    await page.goto(target.url, { waitUntil: 'commit' })
    await waitForMark(page, target, 'connectReady')
    await networkQuiet(traffic, SETTLE_QUIET_MS, SETTLE_MAX_MS)
    const heapBytes = await heapUsed(cdp)
    const externalAtLoad = traffic.external.length
    // A phone is tapped (touch events, then the click), a desktop clicked (pointer moves over, then click).
    const connect = page.getByRole('button', { name: CONNECT_LABEL, exact: true }).first()
    await (profile.context.hasTouch ? connect.tap() : connect.click())
    await waitForMark(page, target, 'walletList')
    await networkQuiet(traffic, SETTLE_QUIET_MS, SETTLE_MAX_MS)
    const m = await marks(page)
    if (
      m.fcp === null ||
      m.connectVisible === null ||
      m.connectReady === null ||
      m.clickAt === null ||
      m.modalOpen === null ||
      m.walletList === null
    ) {
      throw new Error(`incomplete marks: ${JSON.stringify(m)}`)
    }
    const clickAt = m.clickAt
    const beforeClick = m.longTasks.filter(([start]) => start < clickAt)
    return {
      fcp: m.fcp,
      connectVisible: m.connectVisible,
      connectReady: m.connectReady,
      modalOpen: m.modalOpen - clickAt,
      walletList: m.walletList - clickAt,
      heapBytes,
      longTasks: beforeClick.length,
      longTaskMs: beforeClick.reduce((sum, [, duration]) => sum + duration, 0),
      externalAtLoad,
      externalAfterClick: traffic.external.length - externalAtLoad,
    }
  } finally {
    await context.close()
  }
}

/**
 * One cold load without a wallet in which "Connect Wallet" is tapped (clicked on a desktop) the moment one
 * is shown, where it is shown: ms from navigation start until the connect dialog opens. What a member who
 * taps at once waits for; on Guildhall the first button shown is the stand-in, whose press waits for the
 * wallet kit.
 */
export async function tapAtFirstSight(browser: Browser, profile: Profile, target: Target): Promise<number> {
  const { context, page } = await openPage(browser, profile, target)
  try {
    await page.goto(target.url, { waitUntil: 'commit' })
    const deadline = Date.now() + 60_000
    // Short evaluations, as in waitForMark; each waits for the page's main thread, as a tap would.
    const connectAt = () =>
      page.evaluate('window.__benchConnectAt?.() ?? null') as Promise<{ x: number; y: number } | null>
    let at = await connectAt()
    while (!at) {
      if (Date.now() > deadline) throw new Error(`${target.name}: no "Connect Wallet" shown within 60 s`)
      await new Promise((done) => setTimeout(done, 20))
      at = await connectAt()
    }
    await (profile.context.hasTouch ? page.touchscreen.tap(at.x, at.y) : page.mouse.click(at.x, at.y))
    await waitForMark(page, target, 'modalOpen')
    const { modalOpen } = await marks(page)
    if (modalOpen === null) throw new Error(`${target.name}: modalOpen still null`)
    return modalOpen
  } finally {
    await context.close()
  }
}

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
  target: Target,
  options: {
    walletScript?: string
    cookies?: Cookie[]
    ready: 'connectReady' | 'accountReady'
    idleMs?: number
  },
): Promise<LoadTraffic & { idle?: RpcCount }> {
  const desktop = PROFILES[0] as Profile
  const { context, page, traffic } = await openPage(
    browser,
    desktop,
    target,
    options.walletScript,
    options.cookies,
  )
  try {
    await page.goto(target.url, { waitUntil: 'commit' })
    await waitForMark(page, target, options.ready)
    if (!(await networkQuiet(traffic, 1500, 20_000))) {
      throw new Error(`the network did not go quiet within 20 s at ${target.url}`)
    }
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
