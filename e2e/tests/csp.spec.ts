// The Content-Security-Policy the server sends, every wallet configured, in a real Chromium: no page or flow
// causes a single violation (the fixtures' `expectedCspViolations` fails the test on any), and the policy really
// restricts (an injected inline script or handler does not run). The wallets' SDK flows under the same policy:
// wallet-sdks.spec.ts.
import type { Page } from '@playwright/test'
import { type App, connectButton, expect, member, test } from '../support/fixtures.ts'
import { closeAccountModal, openAccountModal, TEST_WALLET_ID, walletOption } from './connect-helpers.ts'
import { EVERY_WALLET_OPTIONS, settle } from './every-wallet-helpers.ts'
import { votePanel } from './governance-helpers.ts'
import { signIn } from './sign-in-helpers.ts'

test.use(EVERY_WALLET_OPTIONS)

/** Connects the injected test wallet and signs in. */
async function connectAndSignIn(page: Page, app: App, path = '/') {
  await page.goto(`${app.url}${path}`)
  await connectButton(page).click()
  await walletOption(page, TEST_WALLET_ID).click()
  await signIn(page)
}

test.describe('with an inline script and an inline handler injected', () => {
  // The policy reports both, once each: the fixtures check these are the only violations.
  test.use({ expectedCspViolations: ['script-src-attr', 'script-src-elem'] })

  test('the policy restricts scripts: neither runs, and both are reported', async ({ page, app }) => {
    const response = await page.goto(app.url)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';")
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
  })
})

test.describe('with eval attempted and a WebAssembly module compiled', () => {
  // The eval is reported once; the WebAssembly compiles without a report ('wasm-unsafe-eval', ADR 083).
  test.use({ expectedCspViolations: ['script-src'] })

  test('the policy lets our WebAssembly compile and still refuses eval', async ({ page, app }) => {
    await page.goto(app.url)
    await expect(page.getByTestId('token-holders')).toHaveText('8')
    const outcome = await page.evaluate(async () => {
      // The smallest module: the magic bytes and version 1.
      const compiled = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => 'compiled',
        (error: Error) => error.name,
      )
      let evaluated: string
      try {
        // biome-ignore lint/security/noGlobalEval: the test proves that the policy refuses it
        evaluated = String(globalThis.eval('1 + 1'))
      } catch (error) {
        evaluated = (error as Error).name
      }
      await new Promise((resolve) => setTimeout(resolve, 500))
      return { compiled, evaluated }
    })
    expect(outcome).toEqual({ compiled: 'compiled', evaluated: 'EvalError' })
  })
})

test.describe('as Ada, a member', () => {
  test.use({ walletOptions: { accounts: [member(1)] } })

  test("every page loads under the policy without a violation, the public config's JSON block included", async ({
    page,
    app,
  }) => {
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
  })

  test('connect, sign in, write a proposal and vote: no violation', async ({ page, app }) => {
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
    await openAccountModal(page)
    await closeAccountModal(page)
    await settle(page)
  })
})

test.describe('as Finn, an undelegated member', () => {
  test.use({ walletOptions: { accounts: [member(6)] } })

  test('connect, sign in and delegate to myself: no violation', async ({ page, app }) => {
    await connectAndSignIn(page, app)
    await page.getByTestId('delegation').getByRole('button', { name: 'Delegate to myself' }).click()
    await expect(page.getByTestId('delegation-progress')).toHaveText('Delegation confirmed.')
    await expect(page.getByTestId('my-delegate')).toHaveText('Yourself')
    await settle(page)
  })
})
