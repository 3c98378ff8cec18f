// RainbowKit's recent transactions: what the account modal shows (the 3 most recent finished) and what its
// store keeps (at most 10 finished, every pending one).
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import type { Hex } from 'viem'
import { connect, expect, member, test } from '../support/fixtures.ts'
import { openAccountModal } from './connect-helpers.ts'
import {
  anvil,
  delegationPanel,
  expectRecentTransaction,
  progress,
  RK_TRANSACTIONS_KEY,
  type StoredTransaction,
  storedTransactions,
  TRANSACTIONS_APP_ENV,
  withoutAutomine,
} from './transaction-helpers.ts'

test.use({ appEnv: TRANSACTIONS_APP_ENV })

test.describe('as Iris, a new member without tokens', () => {
  test.use({ walletOptions: { accounts: [member(9)] } })

  test('the account modal shows only the 3 most recent finished transactions', async ({ page, app }) => {
    await connect(page, app)
    const input = delegationPanel(page).getByLabel('Delegate to another address')
    const submit = (name: string) => delegationPanel(page).getByRole('button', { name, exact: true })
    const status = page.getByTestId('delegate-status')
    for (const [delegatee, name] of [
      [member(1), 'ada.eth'],
      [member(2), 'ben.eth'],
      [member(3), 'cleo.eth'],
    ] as const) {
      await input.fill(delegatee)
      // The button names the delegate once the server does; the entry is then named the same.
      await submit(`Delegate to ${name}`).click()
      await expect(status).toHaveText(`You delegate your votes to ${name}.`)
    }
    await input.fill(member(9))
    await submit('Delegate to myself').click()
    await expect(status).toHaveText('You vote with your own tokens.')

    // All four are stored, and all four are finished.
    await expect
      .poll(async () =>
        (await storedTransactions(page, member(9))).map((t) => `${t.description}: ${t.status}`),
      )
      .toEqual([
        'Delegate to myself: confirmed',
        'Delegate to cleo.eth: confirmed',
        'Delegate to ben.eth: confirmed',
        'Delegate to ada.eth: confirmed',
      ])
    const modal = await openAccountModal(page)
    await expectRecentTransaction(modal, 'Delegate to myself', 'Confirmed')
    await expectRecentTransaction(modal, 'Delegate to cleo.eth', 'Confirmed')
    await expectRecentTransaction(modal, 'Delegate to ben.eth', 'Confirmed')
    await expect(modal.getByText('Confirmed', { exact: true })).toHaveCount(3)
    await expect(modal.getByText('Delegate to ada.eth', { exact: true })).toHaveCount(0)
  })
})

test.describe('as the deployer, with 12 earlier confirmed transactions and 2 pending', () => {
  test.use({ walletOptions: { accounts: [member(0)] } })

  test('keeps at most 10 finished transactions, the most recent, and every pending one', async ({
    page,
    app,
    chains,
  }) => {
    const deployer = member(0)
    const client = anvil(chains)
    const earlier: StoredTransaction[] = Array.from({ length: 12 }, (_, i) => ({
      hash: `0x${(i + 1).toString(16).padStart(64, '0')}` as Hex,
      description: `Earlier transaction ${i + 1}`,
      status: 'confirmed',
    }))
    await page.goto(app.url)

    await withoutAutomine(chains, async () => {
      // Two transactions the wallet sent earlier, still in the mempool: pending in the store.
      const pending: StoredTransaction[] = []
      for (const n of [1, 2]) {
        const hash = await client.sendTransaction({ account: deployer, to: deployer, value: 0n, chain: null })
        pending.unshift({ hash, description: `Pending transaction ${n}`, status: 'pending' })
      }
      await page.evaluate(
        ({ key, account, chainId, transactions }) =>
          localStorage.setItem(key, JSON.stringify({ [account]: { [chainId]: transactions } })),
        {
          key: RK_TRANSACTIONS_KEY,
          account: deployer,
          chainId: LOCAL_CHAIN_ID,
          transactions: [...pending, ...earlier],
        },
      )
      await connect(page, app)
      expect(await storedTransactions(page, deployer)).toHaveLength(14)

      await delegationPanel(page).getByRole('button', { name: 'Delegate to myself' }).click()
      await expect(progress(page)).toHaveText('Delegation sent; waiting for it to be confirmed…')
      // Adding one trims the finished ones to 10; the 3 pending are all kept besides.
      await expect
        .poll(async () =>
          (await storedTransactions(page, deployer)).map((t) => `${t.description}: ${t.status}`),
        )
        .toEqual([
          'Delegate to myself: pending',
          'Pending transaction 2: pending',
          'Pending transaction 1: pending',
          ...earlier.slice(0, 10).map((t) => `${t.description}: confirmed`),
        ])

      await client.mine({ blocks: 1 })
    })

    // All three confirmed: 10 finished are kept, the most recent first.
    await expect(page.getByTestId('delegate-status')).toHaveText('You vote with your own tokens.')
    await expect
      .poll(async () =>
        (await storedTransactions(page, deployer)).map((t) => `${t.description}: ${t.status}`),
      )
      .toEqual([
        'Delegate to myself: confirmed',
        'Pending transaction 2: confirmed',
        'Pending transaction 1: confirmed',
        ...earlier.slice(0, 7).map((t) => `${t.description}: confirmed`),
      ])
  })
})
