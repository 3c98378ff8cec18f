// Connect-only mode (SIGN_IN 'off'): connecting is the whole login, with no sign-in step. A file
// of its own because the app server's environment is per worker, and sign-in.spec.ts turns sign-in on.
import type { Page } from '@playwright/test'
import { connectButton, expect, test } from '../support/fixtures.ts'
import { TEST_WALLET_ID, walletOption } from './connect-helpers.ts'

test.use({ appEnv: { SIGN_IN: 'off' } })

/** Records, from the first script of every page load, whether "Verify your account" was ever in the DOM. */
async function recordVerifyStep(page: Page) {
  await page.addInitScript(() => {
    const seen = { verify: false }
    ;(window as unknown as { __seenVerify: typeof seen }).__seenVerify = seen
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('Verify your account')) seen.verify = true
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
}
const seenVerifyStep = (page: Page) =>
  page.evaluate(() => (window as unknown as { __seenVerify: { verify: boolean } }).__seenVerify.verify)

test('connecting closes the modal and shows the account, with no sign-in step and no auth request', async ({
  page,
  app,
  wallet,
}) => {
  const authRequests: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/auth/')) authRequests.push(request.url())
  })
  await recordVerifyStep(page)

  await page.goto(app.url)
  await connectButton(page).click()
  await walletOption(page, TEST_WALLET_ID).click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(true)
  expect(await seenVerifyStep(page)).toBe(false)

  // A reload reconnects straight to the account too.
  await page.reload()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(page.getByTestId('token-name')).toHaveText('Guildhall Demo Token')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  expect(await seenVerifyStep(page)).toBe(false)
  expect(await wallet.requests('personal_sign')).toEqual([])
  expect(authRequests).toEqual([])
})

test('connect-only: no "Sign in" anywhere; a connected wallet can write a proposal at once', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/proposals/new`)
  await expect(page.getByText('Connect a wallet to write a proposal.')).toBeVisible()
  await connectButton(page).click()
  await walletOption(page, TEST_WALLET_ID).click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(page.getByLabel('Title')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0)
  await expect(page.getByTestId('header-sign-in')).toHaveCount(0)
  await expect(page.getByText('Not signed in')).toHaveCount(0)
})

test('with sign-in off there is no discussion, and /discussions says why', async ({ page, app }) => {
  await page.goto(`${app.url}/discussions`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Discussions')
  await expect(page.getByText(/^Discussion is off on this server: /)).toBeVisible()
  await expect(page.getByRole('button', { name: 'New topic' })).toHaveCount(0)
})
