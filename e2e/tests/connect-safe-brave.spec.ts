// The two Popular wallets RainbowKit lists only where they can work: Brave Wallet in Brave (its provider
// names itself with `isBraveWallet`), Safe inside a Safe app's frame. Outside those, neither is listed
// (connect-modal.spec.ts, connect-no-wallet.spec.ts).
import { WALLET_ERROR_MESSAGES } from '@guildhall/core'
import type { Page } from '@playwright/test'
import { connectButton, expect, test } from '../support/fixtures.ts'
import { walletGroups, walletOption } from './connect-helpers.ts'

test.describe('in Brave', () => {
  test.use({ walletOptions: { flags: ['isBraveWallet'] } })

  test('the Popular group lists "Brave Wallet", which connects the browser\'s wallet', async ({
    page,
    app,
    wallet,
  }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    await expect(walletOption(page, 'brave')).toBeVisible()
    const popular = (await walletGroups(page)).find((group) => group.group === 'Popular')
    expect(popular?.wallets.map((option) => option.id)).toContain('brave')
    expect(popular?.wallets.find((option) => option.id === 'brave')?.lines[0]).toBe('Brave Wallet')

    await walletOption(page, 'brave').click()
    await expect(page.getByTestId('rk-account-button')).toBeVisible()
    expect((await wallet.state()).connected).toBe(true)
  })
})

/**
 * Opens the app framed by a page of its own origin, which the Content-Security-Policy's frame-ancestors
 * allows as it allows Safe{Wallet} (app.safe.global), and returns the frame. Safe{Wallet} itself is outside
 * this machine: the framing page stands in for it, answering the Safe Apps SDK's `getSafeInfo` with
 * `safeInfo` (null: no Safe), or not at all when it is undefined (a frame that is not Safe{Wallet}).
 */
async function openAsSafeApp(page: Page, appUrl: string, safeInfo?: null) {
  const host = `${appUrl}/__safe-app-host`
  const answer =
    safeInfo === undefined
      ? ''
      : `window.addEventListener('message', (event) => {
          if (event.data?.method !== 'getSafeInfo') return
          event.source.postMessage({ id: event.data.id, success: true, version: '9.1.0', data: ${JSON.stringify(safeInfo)} }, '*')
        })`
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Safe app host</title><script>${answer}</script><iframe title="Guildhall as a Safe app" src="${appUrl}/" style="width:1200px;height:760px;border:0"></iframe>`,
    }),
  )
  await page.goto(host)
  return page.frameLocator('iframe[title="Guildhall as a Safe app"]')
}

test('inside a Safe app\'s frame the Popular group lists "Safe"; outside it, it does not', async ({
  page,
  app,
}) => {
  const frame = await openAsSafeApp(page, app.url)
  await frame.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByTestId('rk-wallet-option-safe')).toBeVisible()
  await expect(frame.getByTestId('rk-wallet-option-safe')).toContainText('Safe')

  await page.goto(app.url)
  await connectButton(page).click()
  await expect(walletOption(page, 'injected')).toBeVisible()
  await expect(walletOption(page, 'safe')).toHaveCount(0)
})

for (const [what, safeInfo] of [
  ['answers with no Safe', null],
  ['never answers', undefined],
] as const) {
  test(`picking Safe where the framing page ${what} says "Could not load Safe information", with what to do`, async ({
    page,
    app,
  }) => {
    const frame = await openAsSafeApp(page, app.url, safeInfo)
    await frame.getByRole('button', { name: 'Connect Wallet' }).click()
    await frame.getByTestId('rk-wallet-option-safe').click()
    await expect(
      frame.getByRole('alert').filter({ hasText: 'Could not load Safe information' }),
    ).toContainText(WALLET_ERROR_MESSAGES.safeInfoUnavailable)
    await expect(frame.getByTestId('rk-account-button')).toHaveCount(0)
  })
}
