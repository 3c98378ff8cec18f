// A browser without any wallet: the connect modal still lists the wallets, leads to their download and
// set-up steps, and the Development wallet connects. Pages the steps open in new tabs are outside
// hosts: the fixture blocks and records them.
import { connectButton, expect, test } from '../support/fixtures.ts'
import { connectDialog, walletGroups, walletOption } from './connect-helpers.ts'

test.use({ walletOptions: { absent: true } })

test('without a wallet the list offers the Popular wallets but not "Browser Wallet" (nothing to connect to), the Development wallet, and no Installed group', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await expect(walletOption(page, 'development')).toBeVisible()
  expect(await walletGroups(page)).toEqual([
    {
      group: 'Popular',
      wallets: [
        { id: 'rainbow', lines: ['Rainbow'] },
        { id: 'coinbase', lines: ['Coinbase Wallet'] },
        { id: 'metaMask', lines: ['MetaMask'] },
        { id: 'walletConnect', lines: ['WalletConnect'] },
      ],
    },
    { group: 'Development', wallets: [{ id: 'development', lines: ['Development wallet'] }] },
  ])
})

test("without a wallet, MetaMask's download options lead to its extension set-up steps", async ({
  page,
  app,
  offOriginRequests,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
  await dialog.getByRole('button', { name: 'GET', exact: true }).nth(2).click()

  await expect(dialog.getByText('Get MetaMask', { exact: true })).toBeVisible()
  await expect(dialog.getByText('MetaMask for Chrome', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText('Access your wallet right from your favorite web browser.', { exact: true }),
  ).toBeVisible()
  await expect(dialog.getByText('MetaMask for Mobile', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText('Use the mobile wallet to explore the world of Ethereum.', { exact: true }),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Get the app' })).toBeVisible()
  const chromeStore = 'https://chrome.google.com/webstore/detail/metamask/nkbihfbeogaeaoehlefnkodbefgpgknn'
  const addToChrome = dialog.getByRole('link', { name: 'Add to Chrome' })
  await expect(addToChrome).toHaveAttribute('href', chromeStore)

  const newTab = page.waitForEvent('popup')
  await addToChrome.click()
  await newTab
  await expect.poll(() => offOriginRequests).toContain(chromeStore)

  await expect(dialog.getByText('Get started with MetaMask', { exact: true })).toBeVisible()
  for (const [title, description] of [
    [
      'Install the MetaMask extension',
      'We recommend pinning MetaMask to your taskbar for quicker access to your wallet.',
    ],
    [
      'Create or Import a Wallet',
      'Be sure to back up your wallet using a secure method. Never share your secret phrase with anyone.',
    ],
    [
      'Refresh your browser',
      'Once you set up your wallet, click below to refresh the browser and load up the extension.',
    ],
  ] as const) {
    await expect(dialog.getByText(title, { exact: true })).toBeVisible()
    await expect(dialog.getByText(description, { exact: true })).toBeVisible()
  }
  await expect(dialog.getByRole('button', { name: 'Refresh' })).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Learn More' })).toHaveAttribute(
    'href',
    'https://metamask.io/faqs/',
  )
})

test("without a wallet, Coinbase Wallet's app download leads to its mobile set-up steps", async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  const dialog = connectDialog(page)
  await dialog.getByRole('button', { name: 'Get a Wallet' }).click()
  await dialog.getByRole('button', { name: 'GET', exact: true }).nth(1).click()
  await expect(dialog.getByText('Get Coinbase Wallet', { exact: true })).toBeVisible()
  await dialog.getByRole('button', { name: 'Get the app' }).click()

  await expect(dialog.getByText('Install Coinbase Wallet', { exact: true })).toBeVisible()
  await expect(
    dialog.getByText('Scan with your phone to download on iOS or Android', { exact: true }),
  ).toBeVisible()
  // RainbowKit draws the download link as a QR code (cuer; needs qr < 0.6, see the root overrides).
  await expect(
    dialog.locator('svg').filter({ has: page.locator('title', { hasText: 'QR Code' }) }),
  ).toBeVisible()
  await dialog.getByRole('button', { name: 'Continue' }).click()

  await expect(dialog.getByText('Get started with Coinbase Wallet', { exact: true })).toBeVisible()
  for (const [title, description] of [
    [
      'Open the Coinbase Wallet app',
      'We recommend putting Coinbase Wallet on your home screen for quicker access.',
    ],
    ['Create or Import a Wallet', 'You can easily backup your wallet using the cloud backup feature.'],
    [
      'Tap the scan button',
      'After you scan, a connection prompt will appear for you to connect your wallet.',
    ],
  ] as const) {
    await expect(dialog.getByText(title, { exact: true })).toBeVisible()
    await expect(dialog.getByText(description, { exact: true })).toBeVisible()
  }
  await expect(dialog.getByRole('button', { name: 'Connect', exact: true })).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Learn More' })).toHaveAttribute(
    'href',
    'https://coinbase.com/wallet/articles/getting-started-mobile',
  )
})

test('without a wallet the Development wallet connects', async ({ page, app }) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await walletOption(page, 'development').click()
  await expect(connectDialog(page)).toHaveCount(0)
  // The development wallet's first account is anvil's account 0 (0xf39F…2266).
  await expect(page.getByTestId('rk-account-button')).toContainText('0xf3…2266')
  await expect(page.getByRole('region', { name: 'Development wallet' })).toBeVisible()
})
