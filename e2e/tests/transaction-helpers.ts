// Shared by the transaction specs: the wallet's node, RainbowKit's recent transactions (account modal and
// its localStorage store) and the delegation panel.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import type { Locator, Page } from '@playwright/test'
import { createTestClient, type Hex, http, publicActions, walletActions } from 'viem'
import { type App, type Chains, expect } from '../support/fixtures.ts'

/** RainbowKit's localStorage key for recent transactions: { [account]: { [chainId]: Transaction[] } }. */
export const RK_TRANSACTIONS_KEY = 'rk-transactions'

export type StoredTransaction = { hash: Hex; description: string; status: 'pending' | 'confirmed' | 'failed' }

// The specs of the app's first transactions (delegation, recent transactions, add token) change delegations on
// the worker's chain. A worker-scoped option of their own gives them workers (and so a chain and app server)
// of their own: Playwright never runs files with different worker option values in the same worker, so no
// other file sees these delegations, whatever the order.
export const TRANSACTIONS_APP_ENV = { DAO_DESCRIPTION: 'The DAO the transaction tests run against.' }

export const anvil = (chains: Chains) =>
  createTestClient({ mode: 'anvil', transport: http(chains.dao.url) })
    .extend(publicActions)
    .extend(walletActions)

/** Runs `body` with automine off, so transactions wait in the mempool until `evm_mine`; always restores it. */
export async function withoutAutomine(chains: Chains, body: () => Promise<void>) {
  const client = anvil(chains)
  await client.setAutomine(false)
  try {
    await body()
  } finally {
    await client.setAutomine(true)
  }
}

export const delegationPanel = (page: Page) => page.getByTestId('delegation')
export const progress = (page: Page) => page.getByTestId('delegation-progress')

/** The pending-transactions spinner RainbowKit draws over the avatar in the account button. */
export const avatarSpinner = (page: Page) =>
  page.getByTestId('rk-account-button').locator('svg:has(> title:text-is("Loading"))')

/**
 * One row of RainbowKit's recent transactions (TxItem): a status icon (svg titled Loading / Success /
 * Cancel) next to a column holding the description and the status text (Pending / Confirmed / Failed).
 * The description's text node sits in Text > Box > column; the row is the column's parent.
 */
const recentTransaction = (modal: Locator, description: string) =>
  modal.getByText(description, { exact: true }).locator('xpath=../../..')

export async function expectRecentTransaction(
  modal: Locator,
  description: string,
  status: 'Pending' | 'Confirmed' | 'Failed',
) {
  const icon = { Pending: 'Loading', Confirmed: 'Success', Failed: 'Cancel' }[status]
  const row = recentTransaction(modal, description)
  await expect(row.getByText(status, { exact: true })).toBeVisible()
  await expect(row.locator('svg > title')).toHaveText(icon)
}

export async function storedTransactions(page: Page, account: Hex): Promise<StoredTransaction[]> {
  return page.evaluate(
    ({ key, account, chainId }) => {
      const data = JSON.parse(localStorage.getItem(key) ?? '{}')
      return data[account]?.[chainId] ?? []
    },
    { key: RK_TRANSACTIONS_KEY, account, chainId: LOCAL_CHAIN_ID },
  )
}

export const tokenAddress = (app: App) => {
  const token = app.settings.publicConfig.token
  if (!token) throw new Error('the test app has no token configured')
  return token.address
}
