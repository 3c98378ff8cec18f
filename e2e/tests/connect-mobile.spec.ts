// The connect modal on phones: RainbowKit switches to its mobile sheet by user agent. Chromium emulates
// an iPhone and a Pixel (user agent, viewport, touch); Playwright's WebKit default for the iPhone is
// dropped, the browser stays the system Chromium.
import { devices } from '@playwright/test'
import { connectButton, expect, test } from '../support/fixtures.ts'
import { backArrow, connectDialog, expectNotWhatYoureLookingFor } from './connect-helpers.ts'

const phone = (name: 'iPhone 13' | 'Pixel 7') => {
  const { defaultBrowserType: _, ...options } = devices[name]
  return options
}

// RainbowKit's downloadUrls (dist/wallets/walletConnectors: rainbowWallet, coinbaseWallet, metaMaskWallet).
const APP_STORE = {
  Rainbow: 'https://apps.apple.com/app/apple-store/id1457119021?pt=119997837&ct=rainbowkit&mt=8',
  'Coinbase Wallet': 'https://apps.apple.com/us/app/coinbase-wallet-store-crypto/id1278383455',
  MetaMask: 'https://apps.apple.com/us/app/metamask/id1438144202',
}
const PLAY_STORE = {
  Rainbow:
    'https://play.google.com/store/apps/details?id=me.rainbow&referrer=utm_source%3Drainbowkit&utm_source=rainbowkit',
  'Coinbase Wallet': 'https://play.google.com/store/apps/details?id=org.toshi',
  MetaMask: 'https://play.google.com/store/apps/details?id=io.metamask',
}

for (const { device, store, links } of [
  { device: 'iPhone 13' as const, store: 'the App Store', links: APP_STORE },
  { device: 'Pixel 7' as const, store: 'Google Play', links: PLAY_STORE },
]) {
  test.describe(`on ${device}`, () => {
    test.use(phone(device))

    test(`the mobile CONNECT view lists the wallets and explains what a wallet is (${device})`, async ({
      page,
      app,
    }) => {
      await page.goto(app.url)
      await connectButton(page).click()
      const dialog = connectDialog(page)
      await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
      // The mobile sheet lists RainbowKit's own wallets that are ready (no EIP-6963 entries), by short name.
      const options = dialog.locator('[data-testid^="rk-wallet-option-"]')
      await expect(options).toHaveText([
        'Browser Wallet',
        'Rainbow',
        'Coinbase',
        'MetaMask',
        'WalletConnect',
        'Dev wallet',
      ])
      await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
      await expect(
        dialog.getByText(
          "A wallet is used to send, receive, store, and display digital assets. It's also a new way to log in, without needing to create new accounts and passwords on every website.",
          { exact: true },
        ),
      ).toBeVisible()
      await expect(dialog.getByRole('button', { name: 'Get a Wallet' })).toBeVisible()
      await expect(dialog.getByRole('link', { name: 'Learn More' })).toHaveAttribute(
        'href',
        'https://example.org/learn-about-wallets',
      )
      await expect(
        dialog.getByText('By connecting you agree to the test terms.', { exact: true }),
      ).toBeVisible()
    })

    test(`the mobile GET view lists 3 wallets whose GET links go to ${store} (${device})`, async ({
      page,
      app,
    }) => {
      await page.goto(app.url)
      await connectButton(page).click()
      const dialog = connectDialog(page)
      await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
      await expect(dialog.getByRole('heading', { name: 'Get a Wallet' })).toBeVisible()
      const get = dialog.getByRole('link', { name: 'GET', exact: true })
      await expect(get).toHaveCount(3)
      const rows = await get.evaluateAll((anchors) =>
        anchors.map((a) => ({
          wallet: (a.parentElement?.textContent ?? '').replace(/GET$/, '').trim(),
          href: a.getAttribute('href'),
        })),
      )
      expect(rows).toEqual(Object.entries(links).map(([wallet, href]) => ({ wallet, href })))
      await expectNotWhatYoureLookingFor(dialog)

      await backArrow(dialog).click()
      await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
      await expect(get).toHaveCount(0)
    })
  })
}
