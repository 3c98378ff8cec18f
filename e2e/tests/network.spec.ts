// Network: the chain selector, the "Wrong network" state and switching chains from the app, with its errors.

import { LOCAL_CHAIN_ID, WALLET_ERROR_MESSAGES } from '@guildhall/core'
import type { TestWallet } from '@guildhall/devchain/wallet/playwright'
import type { Page } from '@playwright/test'
import {
  connect,
  connectButton,
  expect,
  SECOND_CHAIN_ID,
  SECOND_CHAIN_NAME,
  test,
} from '../support/fixtures.ts'

/** A chain the wallet knows and the app does not. */
const UNKNOWN_CHAIN_ID = 1337
const LOCAL_CHAIN_NAME = 'Local chain'
const WRONG_NETWORK_TEXT = 'Wrong network detected, switch or disconnect to continue.'

const chainButton = (page: Page) => page.getByTestId('rk-chain-button')
const chainModal = (page: Page) => page.getByRole('dialog', { name: 'Switch Networks' })
/** The messages of the app's notices (each notice also holds a "Dismiss" button). */
const alerts = (page: Page) => page.getByRole('alert').locator('span')

/** Opens the chain modal from the chain button and asks for the second chain. */
async function switchFromModal(page: Page) {
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  await chainButton(page).click()
  await expect(chainModal(page)).toBeVisible()
  await page.getByTestId(`rk-chain-option-${SECOND_CHAIN_ID}`).click()
}

test('with two chains configured the connected header shows the chain selector', async ({ page, app }) => {
  await connect(page, app)
  await expect(chainButton(page)).toBeVisible()
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  await expect(page.getByTestId('rk-wrong-network-button')).toHaveCount(0)
})

test('an unknown chain shows "Wrong network" and the Switch Networks modal says to switch or disconnect', async ({
  page,
  app,
  chains,
  wallet,
}) => {
  await connect(page, app)
  await wallet.addChain({ chainId: UNKNOWN_CHAIN_ID, rpcUrl: chains.dao.url, name: 'Somewhere else' })
  await wallet.switchChain(UNKNOWN_CHAIN_ID)

  const wrong = page.getByTestId('rk-wrong-network-button')
  await expect(wrong.getByText('Wrong network', { exact: true })).toBeVisible()
  await expect(chainButton(page)).toHaveCount(0)
  // RainbowKit hides the account button while the chain is unsupported.
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)

  await wrong.click()
  const modal = chainModal(page)
  await expect(modal).toBeVisible()
  await expect(modal.getByText(WRONG_NETWORK_TEXT)).toBeVisible()
  await expect(modal.getByTestId(`rk-chain-option-${LOCAL_CHAIN_ID}`)).toBeVisible()
  await expect(modal.getByTestId(`rk-chain-option-${SECOND_CHAIN_ID}`)).toBeVisible()
  await expect(modal.getByTestId('rk-chain-option-disconnect')).toBeVisible()

  // "switch … to continue": choosing a configured chain brings the app back.
  await modal.getByTestId(`rk-chain-option-${LOCAL_CHAIN_ID}`).click()
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  await expect(page.getByTestId('rk-wrong-network-button')).toHaveCount(0)
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  expect((await wallet.state()).chainId).toBe(LOCAL_CHAIN_ID)
})

test('choosing a chain in the modal asks the wallet to switch and the selector shows the new chain', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await switchFromModal(page)
  const request = await wallet.waitForRequest('wallet_switchEthereumChain')
  expect(request.params).toEqual([{ chainId: `0x${SECOND_CHAIN_ID.toString(16)}` }])
  await expect(chainButton(page)).toContainText(SECOND_CHAIN_NAME)
  await expect(chainModal(page)).toBeHidden()
  expect((await wallet.state()).chainId).toBe(SECOND_CHAIN_ID)
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect(await wallet.addChainRequests()).toEqual([])
})

test("a chain the wallet does not know (4902) is added with the app's parameters, then switched to", async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  // The wallet has never heard of the second chain: switching to it fails with 4902 first.
  await wallet.forgetChain(SECOND_CHAIN_ID)
  await switchFromModal(page)

  await wallet.waitForRequest('wallet_addEthereumChain')
  const appChain = app.settings.publicConfig.chains.find((c) => c.id === SECOND_CHAIN_ID)
  expect(appChain?.rpcUrl).toBe(`${app.url}/rpc/${SECOND_CHAIN_ID}`)
  const [params] = (await wallet.addChainRequests()) as [[Record<string, unknown>]]
  expect(params[0]).toMatchObject({
    chainId: `0x${SECOND_CHAIN_ID.toString(16)}`,
    chainName: SECOND_CHAIN_NAME,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  })
  expect(params[0]?.rpcUrls).toContain(`${app.url}/rpc/${SECOND_CHAIN_ID}`)

  await expect(chainButton(page)).toContainText(SECOND_CHAIN_NAME)
  const state = await wallet.state()
  expect(state.chainId).toBe(SECOND_CHAIN_ID)
  expect(state.chains.map((c) => c.chainId)).toContain(SECOND_CHAIN_ID)
  await expect(page.getByRole('alert')).toHaveCount(0)
})

test('a wallet that adds the chain but stays on the old one counts as a rejected switch: "User rejected switch after adding network." and what to do', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await wallet.forgetChain(SECOND_CHAIN_ID)
  await wallet.setNextAddChainBehaviour('add-only')
  await switchFromModal(page)

  await wallet.waitForRequest('wallet_addEthereumChain')
  await expect(alerts(page)).toHaveText([WALLET_ERROR_MESSAGES.rejectedAfterAdd])
  await expect(alerts(page)).toContainText('User rejected switch after adding network.')
  await expect(chainModal(page)).toBeHidden()
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  const state = await wallet.state()
  expect(state.chainId).toBe(LOCAL_CHAIN_ID)
  expect(state.chains.map((c) => c.chainId)).toContain(SECOND_CHAIN_ID)
})

for (const { what, leave } of [
  {
    what: 'disconnects',
    leave: async (wallet: TestWallet) => {
      await wallet.emitDisconnect(4900, 'The wallet disconnected.')
      expect((await wallet.state()).connected).toBe(false)
    },
  },
  { what: 'reports no accounts', leave: (wallet: TestWallet) => wallet.setAccounts([]) },
]) {
  test(`the Switch Networks modal closes when the wallet ${what}, and "Connect Wallet" is back`, async ({
    page,
    app,
    wallet,
  }) => {
    await connect(page, app)
    await chainButton(page).click()
    await expect(chainModal(page)).toBeVisible()
    await leave(wallet)
    await expect(chainModal(page)).toHaveCount(0)
    await expect(connectButton(page)).toBeVisible()
    await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  })
}

test('a wallet without the switch method (-32601) gets "Your wallet does not support switching networks from the app."', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await wallet.failNext('wallet_switchEthereumChain', {
    code: -32601,
    message: 'The method "wallet_switchEthereumChain" does not exist / is not available.',
  })
  await switchFromModal(page)

  await wallet.waitForRequest('wallet_switchEthereumChain')
  await expect(alerts(page)).toHaveText(['Your wallet does not support switching networks from the app.'])
  await expect(chainModal(page)).toBeHidden()
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  expect((await wallet.state()).chainId).toBe(LOCAL_CHAIN_ID)
})

test('any other failed switch (-32603) is shown instead of the modal closing silently', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await wallet.failNext('wallet_switchEthereumChain', { code: -32603 })
  await switchFromModal(page)

  await wallet.waitForRequest('wallet_switchEthereumChain')
  await expect(alerts(page)).toHaveText([WALLET_ERROR_MESSAGES.unknown])
  await expect(chainModal(page)).toBeHidden()
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  expect((await wallet.state()).chainId).toBe(LOCAL_CHAIN_ID)
})

test('rejecting the switch in the wallet (4001) closes the modal without a notice and keeps the chain', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await wallet.rejectNext('wallet_switchEthereumChain')
  await switchFromModal(page)

  await wallet.waitForRequest('wallet_switchEthereumChain')
  // The modal closes when the switch mutation settles, after the app's error handler has run.
  await expect(chainModal(page)).toBeHidden()
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(chainButton(page)).toContainText(LOCAL_CHAIN_NAME)
  expect((await wallet.state()).chainId).toBe(LOCAL_CHAIN_ID)
})
