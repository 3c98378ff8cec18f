// Wallet SDKs load on demand (ADR 008), every wallet configured, in a real Chromium: loading the app
// (disconnected, or reconnecting a remembered injected wallet) reaches 127.0.0.1 only and loads no wallet SDK;
// picking Coinbase Wallet, MetaMask or WalletConnect in the connect modal loads that SDK then and starts its
// flow, with no violation of the Content-Security-Policy (so it holds every SDK host the configuration allows).
// Which chunk holds which SDK is read from the build's source maps: Vite names them after a file in the
// package ("dist-….js", "index.es-….js", "core-….js"), which says nothing reliable about the SDK.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type BrowserContext, devices, type Locator, type Page, type Request } from '@playwright/test'
import { connectButton, expect, test, WEB_DIST } from '../support/fixtures.ts'
import { connectDialog, standInRelay, TEST_WALLET_ID, walletOption } from './connect-helpers.ts'
import { EVERY_WALLET_OPTIONS, settle } from './every-wallet-helpers.ts'
import { signIn } from './sign-in-helpers.ts'

test.use(EVERY_WALLET_OPTIONS)

type Sdk = 'WalletConnect' | 'Coinbase Wallet SDK' | 'MetaMask SDK'

/** The npm packages that make up each SDK (Reown AppKit is WalletConnect's modal). */
const SDK_PACKAGES: Record<Sdk, RegExp> = {
  WalletConnect: /^@(walletconnect|reown)\//,
  'Coinbase Wallet SDK': /^(@coinbase\/wallet-sdk|cbw-sdk)$/,
  'MetaMask SDK': /^@metamask\/sdk/,
}

/** The build's script chunks that hold any SDK code, by file name, from their source maps. */
function sdkChunks(): Map<string, Sdk[]> {
  const assets = join(WEB_DIST, 'assets')
  const chunks = new Map<string, Sdk[]>()
  const maps = readdirSync(assets).filter((name) => name.endsWith('.js.map'))
  if (maps.length === 0) throw new Error(`No source maps in ${assets}: build with sourcemap on`)
  for (const name of maps) {
    const { sources } = JSON.parse(readFileSync(join(assets, name), 'utf8')) as { sources: string[] }
    const packages = new Set(
      sources.flatMap((source) => {
        const path = source.split('node_modules/').at(-1)
        if (path === source || !path) return []
        const [scope = '', pkg = ''] = path.split('/')
        return [scope.startsWith('@') ? `${scope}/${pkg}` : scope]
      }),
    )
    const sdks = (Object.keys(SDK_PACKAGES) as Sdk[]).filter((sdk) =>
      [...packages].some((pkg) => SDK_PACKAGES[sdk].test(pkg)),
    )
    if (sdks.length > 0) chunks.set(name.replace(/\.map$/, ''), sdks)
  }
  return chunks
}

const SDK_CHUNKS = sdkChunks()

/**
 * Every request of the context (popups included) and every WebSocket its pages open, by URL. A WebSocket
 * the fixtures' off-origin route refuses never opens, so it fires no `websocket` event: `offOriginRequests`
 * holds those (and every other off-origin request), and each test asserts on it.
 */
function recordTraffic(context: BrowserContext) {
  const urls: string[] = []
  let inFlight = 0
  let lastActivity = Date.now()
  const started = (url: string) => {
    urls.push(url)
    inFlight += 1
    lastActivity = Date.now()
  }
  const ended = () => {
    inFlight -= 1
    lastActivity = Date.now()
  }
  const watchPage = (page: Page) =>
    page.on('websocket', (ws) => {
      urls.push(ws.url())
      lastActivity = Date.now()
    })
  context.pages().forEach(watchPage)
  context.on('page', watchPage)
  context.on('request', (request: Request) => started(request.url()))
  context.on('requestfinished', ended)
  context.on('requestfailed', ended)
  return {
    urls,
    /** The hosts reached, sorted (http(s) and ws(s) only: data: and blob: URLs stay in the page). */
    hosts: () =>
      [
        ...new Set(urls.filter((url) => /^(http|ws)s?:/.test(url)).map((url) => new URL(url).hostname)),
      ].sort(),
    /** The SDKs whose chunks were requested, sorted. */
    sdks: () =>
      [
        ...new Set(
          urls.flatMap((url) => {
            const { pathname } = new URL(url)
            return pathname.startsWith('/assets/') ? (SDK_CHUNKS.get(pathname.slice(8)) ?? []) : []
          }),
        ),
      ].sort(),
    /**
     * Resolves once nothing has been in flight for `quietMs`: what the page starts on its own (a
     * connector's setup importing its SDK, an SDK opening its relay) has started by then. The chain's
     * 4 s polling leaves such gaps.
     */
    quiet: (quietMs = 1_000) =>
      expect
        .poll(() => inFlight === 0 && Date.now() - lastActivity >= quietMs, { intervals: [100] })
        .toBe(true),
  }
}

test('loading the app disconnected and opening the connect modal reaches 127.0.0.1 only and loads no wallet SDK', async ({
  page,
  context,
  app,
  offOriginRequests,
}) => {
  const traffic = recordTraffic(context)
  await page.goto(app.url)
  await expect(page.getByTestId('token-holders')).toHaveText('8')
  await traffic.quiet()
  expect(offOriginRequests).toEqual([])
  expect(traffic.sdks()).toEqual([])

  // Opening the modal creates every wallet's connector: none of them may start its SDK yet.
  await connectButton(page).click()
  for (const id of ['rainbow', 'coinbase', 'metaMask', 'walletConnect', TEST_WALLET_ID]) {
    await expect(walletOption(page, id)).toBeVisible()
  }
  await traffic.quiet()
  expect(offOriginRequests).toEqual([])
  expect(traffic.hosts()).toEqual(['127.0.0.1'])
  expect(traffic.sdks()).toEqual([])
})

// The test wallet is listed twice: as itself (EIP-6963, "Installed") and as RainbowKit's "Browser Wallet"
// (window.ethereum). Both are injected connectors, and each must come back on reload on its own.
for (const { option, label } of [
  { option: TEST_WALLET_ID, label: 'the EIP-6963 test wallet' },
  { option: 'injected', label: '"Browser Wallet"' },
]) {
  test(`reloading with ${label} remembered reconnects it, reaching 127.0.0.1 only and loading no wallet SDK`, async ({
    page,
    context,
    app,
    wallet,
    offOriginRequests,
  }) => {
    const traffic = recordTraffic(context)
    await page.goto(app.url)
    await connectButton(page).click()
    await walletOption(page, option).click()
    await signIn(page)
    await expect(page.getByTestId('rk-account-button')).toContainText('0xf3…2266')

    await page.reload()
    // Reconnected without a click: the account button and the account's own figures are back.
    await expect(page.getByTestId('rk-account-button')).toContainText('0xf3…2266')
    await expect(page.getByTestId('my-balance')).toBeVisible()
    expect((await wallet.state()).connected).toBe(true)
    await traffic.quiet()
    expect(offOriginRequests).toEqual([])
    expect(traffic.hosts()).toEqual(['127.0.0.1'])
    expect(traffic.sdks()).toEqual([])
  })
}

// Coinbase's keys.coinbase.com, WalletConnect's verify server and MetaMask's socket server are the
// outside world, which this test cannot reach: the fixtures block every request to them (and record it),
// so each flow is followed up to its first screen, as far as it gets offline. A host the policy refused
// would be a violation before the request ever reached that refusal.
type WalletFlow = {
  /** The wallet picked, and what its flow does first (the test's title). */
  name: string
  loads: string
  firstStep: string
  /** Its option in the connect modal. */
  option: (page: Page) => Locator
  /** The one SDK the pick loads. */
  sdk: Sdk
  /** Whether it pairs over WalletConnect's relay (a stand-in here, which records what it is sent). */
  relay?: true
  /** Picks the option and waits for the flow's first step. */
  pick: (
    picked: { page: Page; context: BrowserContext; offOriginRequests: string[]; relay: string[] },
    option: Locator,
  ) => Promise<void>
}

const hostnames = (urls: string[]) => urls.map((url) => new URL(url).hostname)

/** A wallet that RainbowKit connects over WalletConnect here: the SDK's QR code, with `title` over it. */
const overWalletConnect = (id: string, name: string, title: string): WalletFlow => ({
  name,
  loads: 'WalletConnect',
  firstStep: 'which pairs over its relay and shows the QR code to scan',
  option: (page) => walletOption(page, id),
  sdk: 'WalletConnect',
  relay: true,
  async pick({ page, relay }, option) {
    await option.click()
    const dialog = connectDialog(page)
    // The SDK first waits up to 5 s for WalletConnect's verify server (an iframe, blocked here).
    await expect(dialog.getByText(title, { exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(
      dialog.locator('svg').filter({ has: page.locator('title', { hasText: 'QR Code' }) }),
    ).toBeVisible()
    // It subscribed to its pairing topic and published the session proposal there.
    expect(relay).toEqual(expect.arrayContaining(['irn_subscribe', 'irn_publish']))
  },
})

const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']

for (const { where, use, flows } of [
  {
    where: 'without a wallet extension',
    use: { walletOptions: { absent: true } },
    flows: [
      {
        name: 'Coinbase Wallet',
        loads: 'the Coinbase Wallet SDK',
        firstStep: 'which opens its keys.coinbase.com window',
        option: (page) => walletOption(page, 'coinbase'),
        sdk: 'Coinbase Wallet SDK',
        async pick({ page, context, offOriginRequests }, option) {
          const popup = context.waitForEvent('page')
          await option.click()
          // RainbowKit waits for the wallet while the SDK connects in its own window on keys.coinbase.com.
          await expect(
            connectDialog(page).getByText('Opening Coinbase Wallet...', { exact: true }),
          ).toBeVisible()
          await popup
          await expect.poll(() => hostnames(offOriginRequests)).toContain('keys.coinbase.com')
        },
      },
      overWalletConnect('walletConnect', 'WalletConnect', 'Scan with your phone'),
      // On a desktop without their extensions RainbowKit connects MetaMask and Rainbow over WalletConnect,
      // with their own QR code.
      overWalletConnect('metaMask', 'MetaMask', 'Scan with MetaMask'),
      overWalletConnect('rainbow', 'Rainbow', 'Scan with Rainbow'),
    ] satisfies WalletFlow[],
  },
  {
    where: 'on a phone without a wallet app',
    use: { ...pixel, walletOptions: { absent: true } },
    flows: [
      {
        name: 'MetaMask',
        loads: 'the MetaMask SDK',
        firstStep: 'which tries its socket server',
        option: (page) => connectDialog(page).getByRole('button', { name: 'MetaMask' }),
        sdk: 'MetaMask SDK',
        async pick({ offOriginRequests }, option) {
          await option.click()
          // On phones RainbowKit uses MetaMask's own SDK, which opens the MetaMask app once its socket server
          // (unreachable here) has set up the channel: offline, the request to that server is the first step.
          await expect.poll(() => hostnames(offOriginRequests)).toContain('metamask-sdk.api.cx.metamask.io')
        },
      },
    ] satisfies WalletFlow[],
  },
]) {
  test.describe(where, () => {
    test.use(use)

    for (const flow of flows as WalletFlow[]) {
      test(`picking ${flow.name} loads ${flow.loads} only then, ${flow.firstStep}`, async ({
        page,
        context,
        app,
        offOriginRequests,
      }) => {
        const relay = flow.relay ? (await standInRelay(page)).methods : undefined
        const traffic = recordTraffic(context)
        await page.goto(app.url)
        await connectButton(page).click()
        const option = flow.option(page)
        await expect(option).toBeVisible()
        await traffic.quiet()
        expect(traffic.sdks()).toEqual([])
        if (relay) expect(relay).toEqual([])

        await flow.pick({ page, context, offOriginRequests, relay: relay ?? [] }, option)
        expect(traffic.sdks()).toEqual([flow.sdk])
        await settle(page)
      })
    }
  })
}
