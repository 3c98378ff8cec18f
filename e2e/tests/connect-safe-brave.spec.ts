// The two Popular wallets RainbowKit lists only where they can work: Brave Wallet in Brave (its provider
// names itself with `isBraveWallet`), Safe inside a Safe app's frame. Outside those, neither is listed
// (connect-modal.spec.ts, connect-no-wallet.spec.ts).
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

test('inside a Safe app\'s frame the Popular group lists "Safe"; outside it, it does not', async ({
  page,
  app,
}) => {
  // Safe{Wallet} (app.safe.global) opens a Safe app in an iframe; here a page of the app's own origin
  // frames it, which the Content-Security-Policy's frame-ancestors also allows. Safe{Wallet} itself is
  // outside this machine: only its frame is stood in for.
  const host = `${app.url}/__safe-app-host`
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Safe app host</title><iframe title="Guildhall as a Safe app" src="${app.url}/" style="width:1200px;height:760px;border:0"></iframe>`,
    }),
  )
  await page.goto(host)
  const frame = page.frameLocator('iframe[title="Guildhall as a Safe app"]')
  await frame.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByTestId('rk-wallet-option-safe')).toBeVisible()
  await expect(frame.getByTestId('rk-wallet-option-safe')).toContainText('Safe')

  await page.goto(app.url)
  await connectButton(page).click()
  await expect(walletOption(page, 'injected')).toBeVisible()
  await expect(walletOption(page, 'safe')).toHaveCount(0)
})
