// The "Connect a Wallet" modal on a desktop browser: its CONNECT and GET views, closing on connect and
// disconnect, and the compact layout below 768 px. The button: connect-button.spec.ts; connect errors:
// connect-errors.spec.ts; recent wallets: connect-recent.spec.ts; phones: connect-mobile.spec.ts; no wallet:
// connect-no-wallet.spec.ts.
// Strings, test ids and sizes are RainbowKit 2.2.11's (node_modules/@rainbow-me/rainbowkit/dist/index.js), as
// patched in patches/ (ADR 018).
import { connect, connectButton, expect, test } from '../support/fixtures.ts'
import {
  backArrow,
  connectDialog,
  disconnectFromAccountModal,
  expectNotWhatYoureLookingFor,
  modalLayout,
  TEST_WALLET_ID,
  walletGroups,
  walletOption,
} from './connect-helpers.ts'

const DISCLAIMER = 'By connecting you agree to the test terms.'
const LEARN_MORE_URL = 'https://example.org/learn-about-wallets'

test('CONNECT view lists the Popular wallets available in Chromium, the EIP-6963 wallet and the Development wallet', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
  await expect(page.getByTestId('rk-connect-header-label')).toHaveText('Connect a Wallet')
  // Safe is offered only inside a Safe app iframe and Brave Wallet only in Brave: neither shows here.
  await expect
    .poll(() => walletGroups(page))
    .toEqual([
      { group: 'Installed', wallets: [{ id: TEST_WALLET_ID, lines: ['Test Wallet'] }] },
      {
        group: 'Popular',
        wallets: [
          { id: 'injected', lines: ['Browser Wallet'] },
          { id: 'rainbow', lines: ['Rainbow'] },
          { id: 'coinbase', lines: ['Coinbase Wallet'] },
          { id: 'metaMask', lines: ['MetaMask'] },
          { id: 'walletConnect', lines: ['WalletConnect'] },
        ],
      },
      { group: 'Development', wallets: [{ id: 'development', lines: ['Development wallet'] }] },
    ])
  await expect(walletOption(page, 'safe')).toHaveCount(0)
  await expect(walletOption(page, 'brave')).toHaveCount(0)
})

test('CONNECT view explains wallets and offers "Get a Wallet", "Learn More" (configured URL) and the configured disclaimer', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
  await expect(dialog.getByText('A Home for your Digital Assets', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText(
      'Wallets are used to send, receive, store, and display digital assets like Ethereum and NFTs.',
      { exact: true },
    ),
  ).toBeVisible()
  await expect(dialog.getByText('A New Way to Log In', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText(
      'Instead of creating new accounts and passwords on every website, just connect your wallet.',
      { exact: true },
    ),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Get a Wallet' })).toBeVisible()
  const learnMore = dialog.getByRole('link', { name: 'Learn More' })
  await expect(learnMore).toHaveAttribute('href', LEARN_MORE_URL)
  await expect(learnMore).toHaveAttribute('target', '_blank')
  await expect(dialog.getByText(DISCLAIMER, { exact: true })).toBeVisible()
})

test('GET view lists wallets with GET buttons and the "Not what you\'re looking for?" text; the back arrow (named "Back") returns to CONNECT', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
  await expect(dialog.getByText('Get a Wallet', { exact: true })).toBeVisible()
  // Desktop: the first five RainbowKit wallets that have an extension, desktop app or mobile QR download.
  const rows = dialog.getByRole('button', { name: 'GET', exact: true })
  await expect(rows).toHaveCount(3)
  for (const name of ['Rainbow', 'Coinbase Wallet', 'MetaMask']) {
    await expect(dialog.getByText(name, { exact: true }).last()).toBeVisible()
  }
  await expect(dialog.getByText('Mobile Wallet and Extension', { exact: true })).toHaveCount(3)
  await expectNotWhatYoureLookingFor(dialog)

  await backArrow(dialog).click()
  await expect(dialog.getByText("Not what you're looking for?", { exact: true })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'GET', exact: true })).toHaveCount(0)
  await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Get a Wallet' })).toBeVisible()
  await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
})

test('the connect modal closes once a wallet has connected', async ({ page, app }) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await expect(dialog).toBeVisible()
  await walletOption(page, TEST_WALLET_ID).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(connectButton(page)).toHaveCount(0)
})

test('disconnecting from the account modal closes it and brings back "Connect Wallet"', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await disconnectFromAccountModal(page)
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(false)
})

test.describe('at 767 px wide', () => {
  test.use({ viewport: { width: 767, height: 800 } })

  test('the connect modal uses the compact layout (368 px wide, max height 468), and its GET view says "on the main screen"', async ({
    page,
    app,
  }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    // RainbowKit measures the window 500 ms (debounced) after load: wait for the layout, not a time.
    await expect.poll(() => modalLayout(page)).toEqual({ width: 368, maxHeight: '468px' })
    const dialog = connectDialog(page)
    // Compact: only the list; the explainer is one step away behind the info button.
    await expect(dialog.getByText('What is a Wallet?', { exact: true })).toHaveCount(0)
    await expect(dialog.getByText(DISCLAIMER, { exact: true })).toBeVisible()
    await dialog.getByRole('button', { name: 'Info' }).click()
    await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
    await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
    await expectNotWhatYoureLookingFor(dialog)
  })
})

test.describe('at 390 px wide (a desktop browser)', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('the GET view says "on the main screen" and its back arrow is named "Back"', async ({ page, app }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    await expect.poll(() => modalLayout(page)).toEqual({ width: 368, maxHeight: '468px' })
    const dialog = connectDialog(page)
    await dialog.getByRole('button', { name: 'Info' }).click()
    await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
    await expectNotWhatYoureLookingFor(dialog)
    await backArrow(dialog).click()
    await expect(dialog.getByText('What is a Wallet?', { exact: true })).toBeVisible()
  })
})

test.describe('at 768 px wide', () => {
  test.use({ viewport: { width: 768, height: 800 } })

  test('the connect modal uses the wide layout (720 px wide, max height 504)', async ({ page, app }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    await expect.poll(() => modalLayout(page)).toEqual({ width: 720, maxHeight: '504px' })
    await expect(connectDialog(page).getByText('What is a Wallet?', { exact: true })).toBeVisible()
  })
})

test('the connect modal switches from wide to compact when the window shrinks below 768 px', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await expect.poll(() => modalLayout(page)).toEqual({ width: 720, maxHeight: '504px' })
  await page.setViewportSize({ width: 767, height: 800 })
  await expect.poll(() => modalLayout(page)).toEqual({ width: 368, maxHeight: '468px' })
  await page.setViewportSize({ width: 768, height: 800 })
  await expect.poll(() => modalLayout(page)).toEqual({ width: 720, maxHeight: '504px' })
})
