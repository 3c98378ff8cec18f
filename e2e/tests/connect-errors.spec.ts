// Connect errors on a desktop browser: a rejection is silent (the patch in patches/, ADR 018), any other
// error keeps RainbowKit's RETRY. Strings and test ids are RainbowKit 2.2.11's.
import type { TestWallet } from '@guildhall/devchain/wallet/playwright'
import type { Page } from '@playwright/test'
import { connectButton, expect, test } from '../support/fixtures.ts'
import { connectDialog, modalLayout, TEST_WALLET_ID, walletOption } from './connect-helpers.ts'

test('a connect error other than a rejection (-32603) shows RETRY, and RETRY then connects', async ({
  page,
  app,
  wallet,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  // wagmi asks wallet_requestPermissions first and falls back to eth_requestAccounts on any error but
  // 4001/-32002, so a wallet with an internal error fails both.
  await wallet.failNext('wallet_requestPermissions', { code: -32603, message: 'Internal error' })
  await wallet.failNext('eth_requestAccounts', { code: -32603, message: 'Internal error' })
  await walletOption(page, TEST_WALLET_ID).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByText('Opening Test Wallet...', { exact: true })).toBeVisible()
  const retry = dialog.getByRole('button', { name: 'RETRY' })
  await expect(retry).toBeVisible()
  expect((await wallet.state()).connected).toBe(false)

  await retry.click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(true)
})

/**
 * Waits until the wallet has answered the connect request and RainbowKit has dealt with the answer: the
 * "Opening …" view either goes (silent) or gets its RETRY button.
 */
async function clickWalletAndWaitForAnswer(page: Page, wallet: TestWallet) {
  await walletOption(page, TEST_WALLET_ID).click()
  await wallet.waitForRequest('wallet_requestPermissions')
  // The test wallet answers after its error delay; RainbowKit reacts in the same task.
  await page.waitForTimeout(500)
}

// A user who says no in the wallet meant it: RainbowKit's dialog goes back to where it was before the
// wallet was picked, with nothing to acknowledge (RainbowKit 2 itself answers an injected wallet's
// rejection with RETRY; the patch in patches/ makes it silent, ADR 018), in the wide layout and in the
// compact one below 768 px.
for (const { width, layout, list, explainer } of [
  { width: 1280, layout: { width: 720, maxHeight: '504px' }, list: 'wide', explainer: true },
  { width: 767, layout: { width: 368, maxHeight: '468px' }, list: 'compact', explainer: false },
]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: 800 } })

    for (const { reason, fail } of [
      { reason: 'a user rejection (4001)', fail: (wallet: TestWallet) => wallet.rejectNext('connect', 4001) },
      {
        reason: 'WalletConnect\'s "Connection request reset. Please try again."',
        fail: async (wallet: TestWallet) => {
          const error = { code: -32603, message: 'Connection request reset. Please try again.' }
          // wagmi falls back from wallet_requestPermissions to eth_requestAccounts on any other code.
          await wallet.failNext('wallet_requestPermissions', error)
          await wallet.failNext('eth_requestAccounts', error)
        },
      },
    ]) {
      test(`${reason} on connect is ignored silently: back to the ${list} wallet list, no RETRY, no alert, still disconnected; the wallet can be picked again`, async ({
        page,
        app,
        wallet,
      }) => {
        await page.goto(app.url)
        await connectButton(page).click()
        await expect.poll(() => modalLayout(page)).toEqual(layout)
        await fail(wallet)
        await clickWalletAndWaitForAnswer(page, wallet)
        const dialog = connectDialog(page)
        await expect(dialog.getByText('Opening Test Wallet...', { exact: true })).toHaveCount(0)
        await expect(dialog.getByRole('button', { name: 'RETRY' })).toHaveCount(0)
        await expect(dialog.getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
        await expect(walletOption(page, TEST_WALLET_ID)).toBeVisible()
        // The wide layout shows the explainer beside the list; the compact one only the list.
        const whatIsAWallet = dialog.getByText('What is a Wallet?', { exact: true })
        if (explainer) await expect(whatIsAWallet).toBeVisible()
        else await expect(whatIsAWallet).toHaveCount(0)
        expect(await modalLayout(page)).toEqual(layout)
        await expect(page.getByRole('alert')).toHaveCount(0)
        expect((await wallet.state()).connected).toBe(false)

        await walletOption(page, TEST_WALLET_ID).click()
        await expect(page.getByTestId('rk-account-button')).toBeVisible()
        await expect(dialog).toHaveCount(0)
        expect((await wallet.state()).connected).toBe(true)
      })
    }
  })
}

// Any other connect error keeps RainbowKit's RETRY (the -32603 case is above).
test('a request already pending (-32002) on connect shows RETRY and nothing else: no alert, still disconnected, closing returns to "Connect Wallet"', async ({
  page,
  app,
  wallet,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await wallet.rejectNext('connect', -32002)
  await walletOption(page, TEST_WALLET_ID).click()
  const dialog = connectDialog(page)
  await expect(dialog.getByRole('button', { name: 'RETRY' })).toBeVisible()
  await expect(dialog.getByText('Opening Test Wallet...', { exact: true })).toBeVisible()
  await expect(dialog.getByText('Confirm connection in the extension', { exact: true })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(false)

  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(connectButton(page)).toBeVisible()
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(false)
})

test('after a request already pending (-32002) on connect, RETRY connects', async ({ page, app, wallet }) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await wallet.rejectNext('connect', -32002)
  await walletOption(page, TEST_WALLET_ID).click()
  const dialog = connectDialog(page)
  await dialog.getByRole('button', { name: 'RETRY' }).click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect((await wallet.state()).connected).toBe(true)
})
