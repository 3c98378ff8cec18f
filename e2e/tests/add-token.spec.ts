// "Add token to wallet": the Overview's button asks the wallet to watch the governance token.
import { connect, expect, member, test } from '../support/fixtures.ts'
import { TRANSACTIONS_APP_ENV, tokenAddress } from './transaction-helpers.ts'

test.use({ appEnv: TRANSACTIONS_APP_ENV })

test.describe('as Ada', () => {
  test.use({ walletOptions: { accounts: [member(1)] } })

  test('"Add GHD to your wallet" sends wallet_watchAsset with the token address, symbol GHD and 18 decimals, and confirms', async ({
    page,
    app,
    wallet,
  }) => {
    await connect(page, app)
    await page.getByRole('button', { name: 'Add GHD to your wallet' }).click()
    await expect(page.getByText('GHD is now in your wallet.')).toBeVisible()
    expect(await wallet.watchedAssets()).toEqual([
      { type: 'ERC20', options: { address: tokenAddress(app), symbol: 'GHD', decimals: 18 } },
    ])
    expect(await wallet.requests('wallet_watchAsset')).toHaveLength(1)
  })
})
