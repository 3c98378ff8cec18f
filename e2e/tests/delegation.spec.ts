// Delegation through the wallet: to oneself, to an address or a name, from the Overview's panel and from a
// member's page; its progress in the panel and in RainbowKit's recent transactions (pending spinner,
// confirmed, failed), and what stops it (a wrong address or name, a rejection, another network).
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { RecordedRequest } from '@guildhall/devchain/wallet/anvil-provider'
import type { TestWallet } from '@guildhall/devchain/wallet/playwright'
import { decodeFunctionData, type Hex, isAddressEqual } from 'viem'
import { connect, connectButton, expect, member, SECOND_CHAIN_ID, test } from '../support/fixtures.ts'
import { closeAccountModal, openAccountModal } from './connect-helpers.ts'
import {
  anvil,
  avatarSpinner,
  delegationPanel,
  expectRecentTransaction,
  progress,
  storedTransactions,
  TRANSACTIONS_APP_ENV,
  tokenAddress,
  withoutAutomine,
} from './transaction-helpers.ts'

test.use({ appEnv: TRANSACTIONS_APP_ENV })

/** Always reverts: PUSH1 0, PUSH1 0, REVERT. */
const ALWAYS_REVERT_CODE = '0x60006000fd'

/** The single delegate(address) call the wallet was asked to send: its target and decoded calldata. */
async function sentDelegation(wallet: TestWallet) {
  const sent = await wallet.requests('eth_sendTransaction')
  expect(sent).toHaveLength(1)
  const [tx] = (sent[0] as RecordedRequest).params as [{ from: Hex; to: Hex; data: Hex }]
  return { ...tx, call: decodeFunctionData({ abi: governanceTokenAbi, data: tx.data }) }
}

test.describe('as Finn, an undelegated member', () => {
  test.use({ walletOptions: { accounts: [member(6)] } })

  test('"Delegate to myself" sends delegate(self) through the wallet; the avatar spins while it is pending, the account modal lists it pending then confirmed, and the overview shows the new delegate', async ({
    page,
    app,
    chains,
    wallet,
  }) => {
    const finn = member(6)
    await connect(page, app)
    await expect(page.getByTestId('my-delegate')).toHaveText('Not delegated')
    await expect(page.getByTestId('my-balance')).toHaveText('50 GHD')
    await expect(page.getByTestId('my-votes')).toHaveText('0 GHD')
    const button = delegationPanel(page).getByRole('button', { name: 'Delegate to myself' })
    await expect(button).toBeVisible()

    await withoutAutomine(chains, async () => {
      await button.click()
      await expect(progress(page)).toHaveText('Delegation sent; waiting for it to be confirmed…')

      const tx = await sentDelegation(wallet)
      expect(isAddressEqual(tx.to, tokenAddress(app))).toBe(true)
      expect(isAddressEqual(tx.from, finn)).toBe(true)
      expect(tx.call.functionName).toBe('delegate')
      expect(tx.call.args).toEqual([finn])

      await expect(avatarSpinner(page)).toBeVisible()
      const modal = await openAccountModal(page)
      await expect(modal.getByText('Recent Transactions')).toBeVisible()
      await expectRecentTransaction(modal, 'Delegate to myself', 'Pending')

      await anvil(chains).mine({ blocks: 1 })
      await expectRecentTransaction(modal, 'Delegate to myself', 'Confirmed')
      await closeAccountModal(page)
    })

    await expect(avatarSpinner(page)).toHaveCount(0)
    await expect(progress(page)).toHaveText('Delegation confirmed.')
    await expect(page.getByTestId('my-delegate')).toHaveText('Yourself')
    await expect(page.getByTestId('my-votes')).toHaveText('50 GHD')
    await expect(page.getByTestId('delegate-status')).toHaveText('You vote with your own tokens.')
    await expect(button).toHaveCount(0)
  })
})

test.describe('as Gia, an undelegated member', () => {
  test.use({ walletOptions: { accounts: [member(7)] } })

  test('delegating to another address through the form names its owner: "Delegate to ben.eth" on the button and in recent transactions, which confirms, and the panel shows Ben by name; a name typed next shows only its own outcome', async ({
    page,
    app,
    wallet,
  }) => {
    const ben = member(2)
    await connect(page, app)
    await expect(page.getByTestId('my-delegate')).toHaveText('Not delegated')
    await delegationPanel(page).getByLabel('Delegate to another address').fill(ben.toLowerCase())
    await delegationPanel(page).getByRole('button', { name: 'Delegate to ben.eth', exact: true }).click()

    await expect(progress(page)).toHaveText('Delegation confirmed.')
    const tx = await sentDelegation(wallet)
    expect(isAddressEqual(tx.to, tokenAddress(app))).toBe(true)
    expect(tx.call.functionName).toBe('delegate')
    expect(tx.call.args).toEqual([ben])

    await expect(page.getByTestId('delegate-status')).toHaveText('You delegate your votes to ben.eth.')
    await expect(page.getByTestId('delegate-status').getByRole('link', { name: 'ben.eth' })).toHaveAttribute(
      'href',
      `/members/${ben}`,
    )
    await expect(page.getByTestId('my-delegate')).toHaveText('ben.eth')
    const modal = await openAccountModal(page)
    await expectRecentTransaction(modal, 'Delegate to ben.eth', 'Confirmed')
    await closeAccountModal(page)
    await expect(avatarSpinner(page)).toHaveCount(0)

    // A new attempt takes the place of the confirmed one: one outcome at a time.
    await delegationPanel(page).getByLabel('Delegate to another address').fill('nobody.eth')
    await expect(delegationPanel(page).getByRole('alert')).toHaveText('No address is set for nobody.eth.')
    await expect(progress(page)).toHaveText('')
    await expect(delegationPanel(page).getByText('Delegation confirmed.')).toHaveCount(0)
  })
})

test.describe('as Hugo, an undelegated member', () => {
  test.use({ walletOptions: { accounts: [member(8)] } })

  test('a delegation that reverts on chain shows "Failed" in recent transactions and the panel says it failed', async ({
    page,
    app,
    chains,
    wallet,
  }) => {
    const client = anvil(chains)
    const token = tokenAddress(app)
    const originalCode = await client.getCode({ address: token })
    if (!originalCode || originalCode === '0x') throw new Error('the token has no code')
    await connect(page, app)
    await expect(page.getByTestId('my-delegate')).toHaveText('Not delegated')

    await withoutAutomine(chains, async () => {
      // Gas is estimated against the real token; the transaction then waits in the mempool.
      await delegationPanel(page).getByRole('button', { name: 'Delegate to myself' }).click()
      await expect(progress(page)).toHaveText('Delegation sent; waiting for it to be confirmed…')
      await wallet.waitForRequest('eth_sendTransaction')
      // Mine it against code that always reverts, then put the token back (setCode leaves storage alone).
      try {
        await client.setCode({ address: token, bytecode: ALWAYS_REVERT_CODE })
        await client.mine({ blocks: 1 })
      } finally {
        await client.setCode({ address: token, bytecode: originalCode })
      }
    })

    const [tx] = await storedTransactions(page, member(8)).then((all) => all.map((t) => t.hash))
    if (!tx) throw new Error('the delegation was not added to the recent transactions')
    const receipt = await client.getTransactionReceipt({ hash: tx })
    expect(receipt.status).toBe('reverted')

    await expect(progress(page)).toHaveText('The delegation failed: the transaction was reverted.')
    const modal = await openAccountModal(page)
    await expectRecentTransaction(modal, 'Delegate to myself', 'Failed')
    await closeAccountModal(page)
    await expect(avatarSpinner(page)).toHaveCount(0)
    await expect(page.getByTestId('my-delegate')).toHaveText('Not delegated')
  })
})

test.describe('as Cleo, who votes with her own tokens', () => {
  test.use({ walletOptions: { accounts: [member(3)] } })

  test('an invalid address, or nothing, in the form shows the validation message and sends nothing to the wallet', async ({
    page,
    app,
    wallet,
  }) => {
    await connect(page, app)
    await expect(page.getByTestId('delegate-status')).toHaveText('You vote with your own tokens.')
    const input = delegationPanel(page).getByLabel('Delegate to another address')
    const submit = delegationPanel(page).getByRole('button', { name: 'Delegate', exact: true })
    for (const [value, message] of [
      [
        '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293B',
        'Enter an address: 0x followed by 40 hexadecimal characters.',
      ],
      ['0xben.eth', 'Enter an address: 0x followed by 40 hexadecimal characters.'],
      ['', 'Enter an address (0x…) or a name, such as ben.eth.'],
    ]) {
      await input.fill(value as string)
      await submit.click()
      await expect(delegationPanel(page).getByRole('alert')).toHaveText(message as string)
    }
    expect(await wallet.requests('eth_sendTransaction')).toEqual([])
    await expect(progress(page)).toHaveText('')
    expect(await storedTransactions(page, member(3))).toEqual([])
  })
  test('a name nobody registered, or one ENS does not accept, shows the server’s sentence under the field and sends nothing', async ({
    page,
    app,
    wallet,
  }) => {
    await connect(page, app)
    await expect(page.getByTestId('delegate-status')).toHaveText('You vote with your own tokens.')
    const input = delegationPanel(page).getByLabel('Delegate to another address or name')
    const submit = delegationPanel(page).getByRole('button', { name: 'Delegate', exact: true })
    for (const [value, message] of [
      ['nobody.eth', 'No address is set for nobody.eth.'],
      ['ben..eth', '“ben..eth” is not a name ENS accepts. Check the spelling, or enter the address (0x…).'],
    ]) {
      await input.fill(value as string)
      await expect(delegationPanel(page).getByRole('alert')).toHaveText(message as string)
      await submit.click()
      await expect(delegationPanel(page).getByRole('alert')).toHaveText(message as string)
    }
    expect(await wallet.requests('eth_sendTransaction')).toEqual([])
    await expect(progress(page)).toHaveText('')
    await expect(delegationPanel(page).getByTestId('resolved-name')).toHaveText(
      '“ben..eth” is not a name ENS accepts. Check the spelling, or enter the address (0x…).',
    )
    expect(await storedTransactions(page, member(3))).toEqual([])
  })
})

test.describe('as Eve, who delegates to Ben', () => {
  test.use({ walletOptions: { accounts: [member(5)] } })

  test('rejecting the delegation in the wallet shows "You cancelled the delegation in your wallet." and adds no recent transaction', async ({
    page,
    app,
    wallet,
  }) => {
    await connect(page, app)
    await expect(page.getByTestId('delegate-status')).toHaveText('You delegate your votes to ben.eth.')
    await wallet.rejectNext('eth_sendTransaction')
    await delegationPanel(page).getByLabel('Delegate to another address').fill(member(5))
    await delegationPanel(page).getByRole('button', { name: 'Delegate to myself', exact: true }).click()

    await expect(delegationPanel(page).getByRole('alert')).toHaveText(
      'You cancelled the delegation in your wallet.',
    )
    expect(await wallet.requests('eth_sendTransaction')).toHaveLength(1)
    await expect(progress(page)).toHaveText('')
    await expect(
      delegationPanel(page).getByRole('button', { name: 'Delegate to myself', exact: true }),
    ).toBeEnabled()
    expect(await storedTransactions(page, member(5))).toEqual([])
    const modal = await openAccountModal(page)
    await expect(modal.getByText('Guildhall Test DAO transactions will appear here...')).toBeVisible()
    await expect(modal.getByText('Recent Transactions')).toHaveCount(0)
    await closeAccountModal(page)
    await expect(page.getByTestId('delegate-status')).toHaveText('You delegate your votes to ben.eth.')
  })
})

test.describe('as Dev, with the wallet on another network', () => {
  test.use({ walletOptions: { accounts: [member(4)] } })

  test('on the wrong network the panel offers "Switch to Local chain", and clicking it switches the wallet', async ({
    page,
    app,
    wallet,
  }) => {
    await page.goto(app.url)
    await wallet.switchChain(SECOND_CHAIN_ID)
    await connectButton(page).click()
    await page.getByTestId('rk-wallet-option-dev.guildhall.testwallet').click()
    await expect(page.getByTestId('rk-account-button')).toBeVisible()

    const panel = delegationPanel(page)
    await expect(panel).toContainText(
      'The governance token lives on Local chain. Switch networks to delegate.',
    )
    await expect(panel.getByLabel('Delegate to another address')).toHaveCount(0)
    await panel.getByRole('button', { name: 'Switch to Local chain' }).click()

    const switched = await wallet.waitForRequest('wallet_switchEthereumChain')
    expect(switched.params).toEqual([{ chainId: `0x${LOCAL_CHAIN_ID.toString(16)}` }])
    await expect(panel.getByLabel('Delegate to another address')).toBeVisible()
    await expect(panel.getByRole('button', { name: 'Switch to Local chain' })).toHaveCount(0)
    await expect(page.getByTestId('delegate-status')).toHaveText('You delegate your votes to ada.eth.')
    expect((await wallet.state()).chainId).toBe(LOCAL_CHAIN_ID)
  })
})

test.describe('as Iris, a new member without tokens', () => {
  test.use({ walletOptions: { accounts: [member(9)] } })
  test('from the directory: Finn’s row opens his page, "Delegate to finn.eth" sends delegate(Finn) and shows in recent transactions', async ({
    page,
    app,
    wallet,
  }) => {
    const finn = member(6)
    await connect(page, app, '/members')
    await page.getByTestId('member-row').filter({ hasText: 'finn.eth' }).click()
    await expect(page).toHaveURL(`${app.url}/members/${finn}`)
    await expect(page.getByRole('heading', { level: 1, name: 'finn.eth' })).toBeVisible()

    await page.getByRole('button', { name: 'Delegate to finn.eth', exact: true }).click()
    await expect(page.getByTestId('delegate-to-progress')).toHaveText('Delegation confirmed.')
    const tx = await sentDelegation(wallet)
    expect(isAddressEqual(tx.from, member(9))).toBe(true)
    expect(tx.call.functionName).toBe('delegate')
    expect(tx.call.args).toEqual([finn])
    await expect(page.getByTestId('delegate-to-status')).toHaveText('You delegate your votes to finn.eth.')
    const modal = await openAccountModal(page)
    await expectRecentTransaction(modal, 'Delegate to finn.eth', 'Confirmed')
  })
})

test.describe('as Ada, who votes with her own tokens', () => {
  test.use({ walletOptions: { accounts: [member(1)] } })

  test('delegating to a name: the panel shows the address ben.eth resolves to before the wallet is asked, sends delegate(Ben), "Delegate to ben.eth" confirms in recent transactions, and the panel names Ben after a reload', async ({
    page,
    app,
    wallet,
  }) => {
    const ben = member(2)
    await connect(page, app)
    await expect(page.getByTestId('delegate-status')).toHaveText('You vote with your own tokens.')
    await delegationPanel(page).getByLabel('Delegate to another address or name').fill('Ben.eth')

    await expect(delegationPanel(page).getByTestId('resolved-name')).toHaveText(`ben.eth → ${ben}`)
    const button = delegationPanel(page).getByRole('button', { name: 'Delegate to ben.eth', exact: true })
    await expect(button).toBeEnabled()
    expect(await wallet.requests('eth_sendTransaction')).toEqual([])
    await button.click()

    await expect(progress(page)).toHaveText('Delegation confirmed.')
    const tx = await sentDelegation(wallet)
    expect(isAddressEqual(tx.to, tokenAddress(app))).toBe(true)
    expect(isAddressEqual(tx.from, member(1))).toBe(true)
    expect(tx.call.functionName).toBe('delegate')
    expect(tx.call.args).toEqual([ben])
    await expect(page.getByTestId('delegate-status')).toHaveText('You delegate your votes to ben.eth.')
    const modal = await openAccountModal(page)
    await expectRecentTransaction(modal, 'Delegate to ben.eth', 'Confirmed')
    await closeAccountModal(page)

    await page.reload()
    await expect(page.getByTestId('delegate-status')).toHaveText('You delegate your votes to ben.eth.')
    await expect(page.getByTestId('delegate-status').getByRole('link', { name: 'ben.eth' })).toHaveAttribute(
      'href',
      `/members/${ben}`,
    )
  })
})
