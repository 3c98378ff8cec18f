// Recent wallets (up to 3, most recent first) are listed first in their groups. The injected "Browser
// Wallet" is configured last in the Popular group here, so moving to the top, and back, is observable.
import type { Page } from '@playwright/test'
import { connectButton, expect, test } from '../support/fixtures.ts'
import {
  connectDialog,
  disconnectFromAccountModal,
  TEST_WALLET_ID,
  walletGroups,
  walletOption,
} from './connect-helpers.ts'

test.use({ appEnv: { WALLETS: 'rainbow,coinbase,metaMask,walletConnect,injected' } })

test('after connecting with a wallet and disconnecting, that wallet is listed first in its group and labelled "Recent"', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await expect
    .poll(async () => (await walletGroups(page)).find((g) => g.group === 'Popular')?.wallets.map((w) => w.id))
    .toEqual(['rainbow', 'coinbase', 'metaMask', 'walletConnect', 'injected'])
  await expect(connectDialog(page).getByText('Recent', { exact: true })).toHaveCount(0)

  await walletOption(page, 'injected').click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await disconnectFromAccountModal(page)

  await connectButton(page).click()
  await expect(walletOption(page, 'injected')).toBeVisible()
  expect((await walletGroups(page)).find((g) => g.group === 'Popular')?.wallets).toEqual([
    { id: 'injected', lines: ['Browser Wallet', 'Recent'] },
    { id: 'rainbow', lines: ['Rainbow'] },
    { id: 'coinbase', lines: ['Coinbase Wallet'] },
    { id: 'metaMask', lines: ['MetaMask'] },
    { id: 'walletConnect', lines: ['WalletConnect'] },
  ])
  await expect(connectDialog(page).getByText('Recent', { exact: true })).toHaveCount(1)
})

test.describe('with a second EIP-6963 wallet installed', () => {
  const SECOND_WALLET = { name: 'Second Wallet', rdns: 'dev.guildhall.secondwallet' }
  test.use({ walletOptions: { alsoAnnounceAs: [SECOND_WALLET] } })

  /** Connects with the wallet option `id`, then disconnects from the account modal. */
  async function connectAndDisconnect(page: Page, id: string) {
    await connectButton(page).click()
    await walletOption(page, id).click()
    await expect(page.getByTestId('rk-account-button')).toBeVisible()
    await disconnectFromAccountModal(page)
  }

  const popular = ['rainbow', 'coinbase', 'metaMask', 'walletConnect'].map((id) => ({
    id,
    lines: [
      {
        rainbow: 'Rainbow',
        coinbase: 'Coinbase Wallet',
        metaMask: 'MetaMask',
        walletConnect: 'WalletConnect',
      }[id] ?? '',
    ],
  }))

  test('after four wallets in turn, the 3 most recent are listed first in their groups, most recent first, labelled "Recent"; the oldest is back in its place, unlabelled', async ({
    page,
    app,
  }) => {
    await page.goto(app.url)
    await connectButton(page).click()
    await expect
      .poll(() => walletGroups(page))
      .toEqual([
        {
          group: 'Installed',
          wallets: [
            { id: TEST_WALLET_ID, lines: ['Test Wallet'] },
            { id: SECOND_WALLET.rdns, lines: [SECOND_WALLET.name] },
          ],
        },
        { group: 'Popular', wallets: [...popular, { id: 'injected', lines: ['Browser Wallet'] }] },
        { group: 'Development', wallets: [{ id: 'development', lines: ['Development wallet'] }] },
      ])
    await connectDialog(page).getByRole('button', { name: 'Close' }).click()

    // Oldest to most recent: Browser Wallet, the Development wallet, Test Wallet.
    for (const id of ['injected', 'development', TEST_WALLET_ID]) await connectAndDisconnect(page, id)
    await connectButton(page).click()
    await expect(walletOption(page, TEST_WALLET_ID)).toBeVisible()
    expect(await walletGroups(page)).toEqual([
      {
        group: 'Installed',
        wallets: [
          { id: TEST_WALLET_ID, lines: ['Test Wallet', 'Recent'] },
          { id: SECOND_WALLET.rdns, lines: [SECOND_WALLET.name] },
        ],
      },
      { group: 'Popular', wallets: [{ id: 'injected', lines: ['Browser Wallet', 'Recent'] }, ...popular] },
      { group: 'Development', wallets: [{ id: 'development', lines: ['Development wallet', 'Recent'] }] },
    ])
    await expect(connectDialog(page).getByText('Recent', { exact: true })).toHaveCount(3)
    await connectDialog(page).getByRole('button', { name: 'Close' }).click()

    // A fourth: Browser Wallet, the oldest, is no longer one of the 3.
    await connectAndDisconnect(page, SECOND_WALLET.rdns)
    await connectButton(page).click()
    await expect(walletOption(page, SECOND_WALLET.rdns)).toBeVisible()
    expect(await walletGroups(page)).toEqual([
      {
        group: 'Installed',
        wallets: [
          { id: SECOND_WALLET.rdns, lines: [SECOND_WALLET.name, 'Recent'] },
          { id: TEST_WALLET_ID, lines: ['Test Wallet', 'Recent'] },
        ],
      },
      { group: 'Popular', wallets: [...popular, { id: 'injected', lines: ['Browser Wallet'] }] },
      { group: 'Development', wallets: [{ id: 'development', lines: ['Development wallet', 'Recent'] }] },
    ])
    await expect(connectDialog(page).getByText('Recent', { exact: true })).toHaveCount(3)
  })
})
