// WalletConnect in the connect modal: the QR code's size on each layout, and the requested chains wagmi's
// WalletConnect connector keeps in storage. WalletConnect's relay and the phone wallet are the outside world:
// a stand-in relay passes the SDK's messages, and the test approves the session as a wallet would
// (connect-helpers.ts).
import type { Locator, Page } from '@playwright/test'
import { connectButton, expect, member, test } from '../support/fixtures.ts'
import {
  connectDialog,
  disconnectFromAccountModal,
  modalLayout,
  standInRelay,
  walletOption,
} from './connect-helpers.ts'

// A visitor without a wallet extension, as one who connects with a phone is.
test.use({ walletOptions: { absent: true } })

/** Picks WalletConnect in the connect modal and waits for its QR code. */
async function showWalletConnectQrCode(page: Page): Promise<Locator> {
  await connectButton(page).click()
  await walletOption(page, 'walletConnect').click()
  const dialog = connectDialog(page)
  // The SDK first waits up to 5 s for WalletConnect's verify server (an iframe, blocked here).
  await expect(dialog.getByText('Scan with your phone', { exact: true })).toBeVisible({ timeout: 20_000 })
  const code = dialog.locator('svg').filter({ has: page.locator('title', { hasText: 'QR Code' }) })
  await expect(code).toBeVisible()
  return code
}

/**
 * The QR code's block as laid out: the bordered box around the code (its padding is the code's quiet zone),
 * measured inside its 1 px border, and the code itself.
 */
function qrCodeSize(code: Locator) {
  return code.evaluate((svg) => {
    let block: HTMLElement | null = svg.parentElement
    while (block && getComputedStyle(block).borderTopStyle !== 'solid') block = block.parentElement
    if (!block) return null
    const { width, height } = svg.getBoundingClientRect()
    return {
      block: { width: block.clientWidth, height: block.clientHeight },
      border: getComputedStyle(block).borderTopWidth,
      code: { width: Math.round(width), height: Math.round(height) },
    }
  })
}

for (const { width, layout, size } of [
  { width: 1280, layout: { width: 720, maxHeight: '504px' }, size: 382 },
  { width: 390, layout: { width: 368, maxHeight: '468px' }, size: 318 },
]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: 900 } })

    test(`the WalletConnect QR code is ${size} px square (${width < 768 ? 'compact' : 'wide'} layout)`, async ({
      page,
      app,
    }) => {
      const relay = await standInRelay(page)
      await page.goto(app.url)
      const code = await showWalletConnectQrCode(page)
      await expect.poll(() => modalLayout(page)).toEqual(layout)
      expect(await qrCodeSize(code)).toEqual({
        block: { width: size, height: size },
        border: '1px',
        code: { width: size - 40, height: size - 40 },
      })
      expect(relay.methods).toEqual(expect.arrayContaining(['irn_subscribe', 'irn_publish']))
    })
  })
}

/** wagmi's storage (localStorage, keys prefixed "wagmi.") as the WalletConnect connector wrote it. */
const REQUESTED_CHAINS_KEY = 'wagmi.walletConnect.requestedChains'
const requestedChains = (page: Page) =>
  page.evaluate((key) => {
    const value = localStorage.getItem(key)
    return value === null ? null : (JSON.parse(value) as unknown)
  }, REQUESTED_CHAINS_KEY)

test('the WalletConnect flow keeps the chains it requested under "wagmi.walletConnect.requestedChains": the app\'s chain ids once a wallet approves, none after a disconnect', async ({
  page,
  app,
}) => {
  const relay = await standInRelay(page)
  await page.goto(app.url)
  await showWalletConnectQrCode(page)
  // Proposed, not yet approved: nothing requested is kept.
  expect(await requestedChains(page)).toBeNull()

  await relay.approveSession(member(0))
  await expect(page.getByTestId('rk-account-button')).toContainText('0xf3…2266')
  expect(await requestedChains(page)).toEqual(app.settings.publicConfig.chains.map((chain) => chain.id))

  await disconnectFromAccountModal(page)
  expect(await requestedChains(page)).toEqual([])
})
