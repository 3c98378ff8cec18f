// The "Development" wallet group exists only when DEV_WALLET_ACCOUNTS is set (and the app runs on the
// local chain); this file's app server runs without it. The positive case is in connect-modal.spec.ts.
import { connectButton, expect, test } from '../support/fixtures.ts'
import { connectDialog, TEST_WALLET_ID, walletGroups, walletOption } from './connect-helpers.ts'

test.use({ appEnv: { DEV_WALLET_ACCOUNTS: '' } })

test('without DEV_WALLET_ACCOUNTS the Development wallet is not offered', async ({ page, app }) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await expect(walletOption(page, TEST_WALLET_ID)).toBeVisible()
  await expect(walletOption(page, 'walletConnect')).toBeVisible()
  expect((await walletGroups(page)).map((g) => g.group)).toEqual(['Installed', 'Popular'])
  await expect(walletOption(page, 'development')).toHaveCount(0)
  await expect(connectDialog(page).getByText('Development', { exact: false })).toHaveCount(0)
})
