// Network with a single configured chain (the chain selector appears only with more than one
// chain or on an unsupported chain). Its own file because `appEnv` gives the worker its own app server,
// which Playwright allows only at the top level of a file.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { connect, expect, SECOND_CHAIN_ID, test } from '../support/fixtures.ts'

test.use({ appEnv: { CHAIN_IDS: String(LOCAL_CHAIN_ID) } })

test('with one chain configured the chain selector is hidden while the wallet is on that chain', async ({
  page,
  app,
}) => {
  expect(app.settings.publicConfig.chains.map((c) => c.id)).toEqual([LOCAL_CHAIN_ID])
  await connect(page, app)
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(page.getByTestId('rk-chain-button')).toHaveCount(0)
  await expect(page.getByTestId('rk-wrong-network-button')).toHaveCount(0)
})

test('with one chain configured the selector appears as "Wrong network" when the wallet moves to a chain the app does not have', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app)
  await expect(page.getByTestId('rk-chain-button')).toHaveCount(0)
  // The wallet knows 31338; this app does not.
  await wallet.switchChain(SECOND_CHAIN_ID)
  const wrong = page.getByTestId('rk-wrong-network-button')
  await expect(wrong).toBeVisible()
  await expect(wrong.getByText('Wrong network', { exact: true })).toBeVisible()
  await expect(page.getByTestId('rk-chain-button')).toHaveCount(0)
})
