// The Content-Security-Policy the server sends, in a real Chromium: every page and every wallet flow runs
// under it without a single violation, and it really restricts (an inline script does not run). Every
// wallet is configured, so the policy holds every SDK host the configuration allows. WalletConnect's relay
// is the outside world: it is stood in for (connect-helpers.ts), as in wallet-sdks-on-demand.spec.ts.
import { POPULAR_WALLET_IDS } from '@guildhall/core'
import { type BrowserContext, devices, type Page } from '@playwright/test'
import { type App, connectButton, expect, member, test } from '../support/fixtures.ts'
import { connectDialog, standInRelay, TEST_WALLET_ID, walletOption } from './connect-helpers.ts'

test.use({
  appEnv: {
    WALLETS: POPULAR_WALLET_IDS.join(','),
    WALLETCONNECT_PROJECT_ID: 'YOUR_PROJECT_ID',
    SIGN_IN: 'on',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  },
})

interface Violation {
  url: string
  directive: string
  blocked: string
  sample: string
}

/**
 * Every `securitypolicyviolation` event of every page and frame of the context, popups included, as the
 * browser fires them: from an init script (which the policy does not govern) to the test process.
 */
async function recordViolations(context: BrowserContext): Promise<Violation[]> {
  const violations: Violation[] = []
  await context.exposeBinding('__reportCspViolation', (_source, violation: Violation) => {
    violations.push(violation)
  })
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (v: unknown) => void }).__reportCspViolation
    document.addEventListener('securitypolicyviolation', (event) =>
      report({
        url: event.documentURI,
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      }),
    )
  })
  return violations
}

/** Waits until nothing is in flight for a second, so what a page starts on its own has been tried. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
}

const verifyDialog = (page: Page) => page.getByRole('dialog').filter({ hasText: 'Verify your account' })

/** Connects the injected test wallet and signs in. */
async function connectAndSignIn(page: Page, app: App, path = '/') {
  await page.goto(`${app.url}${path}`)
  await connectButton(page).click()
  await walletOption(page, TEST_WALLET_ID).click()
  await expect(verifyDialog(page)).toBeVisible()
  const sign = page.getByTestId('rk-auth-message-button')
  await expect(sign).toHaveText('Sign message')
  await sign.click()
  await expect(page.getByTestId('signed-in-as')).toBeVisible()
}

const votePanel = (page: Page) => page.getByTestId('vote-panel')

test('the policy restricts scripts: an inline script injected into the page does not run, and is reported', async ({
  page,
  context,
  app,
}) => {
  const violations = await recordViolations(context)
  const response = await page.goto(app.url)
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
  await expect(page.getByTestId('token-holders')).toHaveText('8')

  const ran = await page.evaluate(async () => {
    const w = window as typeof window & { inlineRan?: boolean; handlerRan?: boolean }
    const script = document.createElement('script')
    script.textContent = 'window.inlineRan = true'
    document.body.append(script)
    // An inline event handler, as injected markup would carry it.
    const image = document.createElement('img')
    image.setAttribute('onerror', 'window.handlerRan = true')
    image.src = 'data:,not-an-image'
    document.body.append(image)
    await new Promise((resolve) => setTimeout(resolve, 500))
    return { inline: w.inlineRan === true, handler: w.handlerRan === true }
  })
  expect(ran).toEqual({ inline: false, handler: false })
  expect(violations.map((v) => v.directive).sort()).toEqual(['script-src-attr', 'script-src-elem'])
})

test.describe('as Ada, a member', () => {
  test.use({ walletOptions: { accounts: [member(1)] } })

  test("every page loads under the policy without a violation, the public config's JSON block included", async ({
    page,
    context,
    app,
  }) => {
    const violations = await recordViolations(context)
    // A proposal to visit, written by a signed-in member (the Sessions page needs the session too).
    await connectAndSignIn(page, app, '/proposals')
    await page.getByRole('link', { name: 'New proposal' }).click()
    await page.getByLabel('Title').fill('Fix the lights')
    await page.getByLabel(/Description/).fill('## Why\n\nThe hall is **dark**.')
    await page.getByRole('button', { name: 'Sign and submit' }).click()
    await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
    const proposalPath = new URL(page.url()).pathname

    for (const { path, heading } of [
      { path: '/', heading: 'Guildhall Test DAO' },
      { path: '/proposals', heading: 'Proposals' },
      { path: proposalPath, heading: 'Fix the lights' },
      { path: '/proposals/new', heading: 'New proposal' },
      { path: '/account/sessions', heading: 'Your sessions' },
      { path: '/no-such-page', heading: 'Page not found' },
    ]) {
      await page.goto(`${app.url}${path}`)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      // The config reached the app through its <script type="application/json"> block.
      await expect(page.getByTestId('rk-account-button')).toBeVisible()
      await settle(page)
    }
    expect(violations).toEqual([])
  })

  test('connect, sign in, write a proposal and vote: no violation', async ({ page, context, app }) => {
    const violations = await recordViolations(context)
    await connectAndSignIn(page, app, '/proposals')
    await page.getByRole('link', { name: 'New proposal' }).click()
    await page.getByLabel('Title').fill('Repaint the door')
    await page.getByLabel(/Description/).fill('Blue, this time.')
    await page.getByRole('button', { name: 'Sign and submit' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Repaint the door' })).toBeVisible()
    await votePanel(page).getByLabel('For').check()
    await votePanel(page).getByRole('button', { name: 'Vote' }).click()
    await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted For')
    // The account modal (RainbowKit's styles, its recent transactions) and back.
    await page.getByTestId('rk-account-button').click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
    await settle(page)
    expect(violations).toEqual([])
  })
})

test.describe('as Finn, an undelegated member', () => {
  test.use({ walletOptions: { accounts: [member(6)] } })

  test('connect, sign in and delegate to myself: no violation', async ({ page, context, app }) => {
    const violations = await recordViolations(context)
    await connectAndSignIn(page, app)
    await page.getByTestId('delegation').getByRole('button', { name: 'Delegate to myself' }).click()
    await expect(page.getByTestId('delegation-progress')).toHaveText('Delegation confirmed.')
    await expect(page.getByTestId('my-delegate')).toHaveText('Yourself')
    await settle(page)
    expect(violations).toEqual([])
  })
})

// Coinbase's keys.coinbase.com, WalletConnect's verify server and MetaMask's socket server are the outside
// world: the fixtures refuse every request to them. A host the policy refused would be a violation here
// before the request ever reached that refusal.
test.describe('without a wallet extension', () => {
  test.use({ walletOptions: { absent: true } })

  test('picking Coinbase Wallet starts its SDK, which opens its window: no violation', async ({
    page,
    context,
    app,
    offOriginRequests,
  }) => {
    const violations = await recordViolations(context)
    await page.goto(app.url)
    await connectButton(page).click()
    const popup = context.waitForEvent('page')
    await walletOption(page, 'coinbase').click()
    await expect(connectDialog(page).getByText('Opening Coinbase Wallet...', { exact: true })).toBeVisible()
    await popup
    await expect
      .poll(() => offOriginRequests.map((url) => new URL(url).hostname))
      .toContain('keys.coinbase.com')
    await settle(page)
    expect(violations).toEqual([])
  })

  for (const { id, name, title } of [
    { id: 'walletConnect', name: 'WalletConnect', title: 'Scan with your phone' },
    { id: 'metaMask', name: 'MetaMask', title: 'Scan with MetaMask' },
    { id: 'rainbow', name: 'Rainbow', title: 'Scan with Rainbow' },
  ]) {
    test(`picking ${name} pairs over WalletConnect's relay and shows the QR code: no violation`, async ({
      page,
      context,
      app,
    }) => {
      const violations = await recordViolations(context)
      const relay = await standInRelay(page)
      await page.goto(app.url)
      await connectButton(page).click()
      await walletOption(page, id).click()
      // The SDK first waits up to 5 s for WalletConnect's verify server (an iframe, refused here).
      await expect(connectDialog(page).getByText(title, { exact: true })).toBeVisible({ timeout: 20_000 })
      expect(relay).toEqual(expect.arrayContaining(['irn_subscribe', 'irn_publish']))
      await settle(page)
      expect(violations).toEqual([])
    })
  }
})

test.describe('on a phone without a wallet app', () => {
  const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']
  test.use({ ...pixel, walletOptions: { absent: true } })

  test('picking MetaMask starts the MetaMask SDK, which tries its socket server: no violation', async ({
    page,
    context,
    app,
    offOriginRequests,
  }) => {
    const violations = await recordViolations(context)
    await page.goto(app.url)
    await connectButton(page).click()
    await connectDialog(page).getByRole('button', { name: 'MetaMask' }).click()
    await expect
      .poll(() => offOriginRequests.map((url) => new URL(url).hostname))
      .toContain('metamask-sdk.api.cx.metamask.io')
    await settle(page)
    expect(violations).toEqual([])
  })
})
