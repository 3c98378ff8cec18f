// Recent wallets are listed first. The injected "Browser Wallet" is configured last in the Popular group
// here, so moving to the top is observable.
import { connectButton, expect, test } from '../support/fixtures.ts'
import { connectDialog, disconnectFromAccountModal, walletGroups, walletOption } from './connect-helpers.ts'

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
