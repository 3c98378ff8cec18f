// The whole loop in the browser, against a real 2-of-3 treasury Safe (Ada, Ben, Cleo) on anvil: Ada
// proposes a token transfer and an ETH transfer (decoded, simulated), votes, and once the server's clock has
// passed the end, the finality and the objection delay, anyone queues it; Ada signs, Ben signs, Ben executes;
// the page says "Executed" and the recipient's balances moved by exactly the amounts voted. Then a nonce
// conflict: another Safe transaction uses the queued nonce, the page says "Superseded", it is queued again,
// signed again and executed.
import AxeBuilder from '@axe-core/playwright'
import { FINALITY_DELAY_SECONDS } from '@guildhall/core'
import { type DemoTreasury, deployDemoTreasury, executeSafeTransaction } from '@guildhall/devchain/safe'
import type { Page } from '@playwright/test'
import { type Address, erc20Abi, parseEther, parseUnits } from 'viem'
import { test as base, type Chains, connect, expect, member, serverClock } from '../support/fixtures.ts'
import { vote } from './governance-helpers.ts'
import { anvil, storedTransactions } from './transaction-helpers.ts'

const ADA = member(1)
const BEN = member(2)
const CLEO = member(3)
/** The recipient: an account with nothing to do with the treasury. */
const GRANTEE = member(7)
const EXECUTION_DELAY_SECONDS = 60
/** The form's shortest voting period it offers: 0.05 days. */
const VOTING_DAYS = 0.05

// This file's app server knows the treasury Safe: it is deployed on the worker's chain before the server
// starts (its settings are read once), so the file gets workers of its own.
const test = base.extend<{ treasury: DemoTreasury }, { treasuryDeployment: DemoTreasury }>({
  treasuryDeployment: [
    async ({ chains }, use) => {
      await use(
        await deployDemoTreasury({
          rpcUrl: chains.dao.url,
          chainId: chains.dao.chainId,
          governanceToken: chains.deployment.token,
        }),
      )
    },
    { scope: 'worker' },
  ],
  appEnv: [
    async ({ treasuryDeployment }, use) => {
      await use({
        TREASURY_SAFE: treasuryDeployment.safe.address,
        TREASURY_TOKENS: treasuryDeployment.tokens.join(','),
        TREASURY_START_BLOCK: String(treasuryDeployment.startBlock),
        EXECUTION_DELAY_SECONDS: String(EXECUTION_DELAY_SECONDS),
      })
    },
    { scope: 'worker' },
  ],
  treasury: async ({ treasuryDeployment }, use) => use(treasuryDeployment),
})

test.use({ walletOptions: { accounts: [ADA] } })
// Each test is a proposal's whole life (propose, vote, queue, sign twice, execute): 35–45 s on a loaded
// 2-core CI machine, too near the 60 s meant for one step.
test.describe.configure({ timeout: 120_000 })
test.afterEach(() => {
  serverClock.aheadSeconds = 0
})

const actionsField = (page: Page) => page.getByTestId('actions-field')
const panel = (page: Page) => page.getByTestId('execution-panel')

async function balances(chains: Chains, usdg: Address) {
  const client = anvil(chains)
  return {
    eth: await client.getBalance({ address: GRANTEE }),
    usdg: await client.readContract({
      address: usdg,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [GRANTEE],
    }),
  }
}

/** axe's rules as the accessibility spec runs them: WCAG 2.0–2.2 A/AA and best practice. */
async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  expect(
    violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([])
}

/** Ada writes a proposal paying the grantee 12.5 USDG and 0.25 ETH, checks it decoded and simulated, signs it. */
async function proposePayment(page: Page, title: string) {
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Category').selectOption('Grants')
  await page.getByLabel('Voting period in days').fill(String(VOTING_DAYS))

  await actionsField(page).getByRole('button', { name: 'Add a token transfer' }).click()
  const token = page.getByRole('group', { name: 'Token transfer' })
  await token.getByLabel('Token').selectOption({ label: 'USDG' })
  await token.getByLabel('Recipient').fill(GRANTEE)
  await token.getByLabel('Amount in USDG').fill('12.5')
  await token.getByRole('button', { name: 'Add action' }).click()

  await actionsField(page).getByRole('button', { name: 'Add an ETH transfer' }).click()
  const eth = page.getByRole('group', { name: 'ETH transfer' })
  await eth.getByLabel('Recipient').fill(GRANTEE)
  await eth.getByLabel('Amount in ETH').fill('0.25')
  await eth.getByRole('button', { name: 'Add action' }).click()

  const actions = actionsField(page).getByTestId('action')
  await expect(actions).toHaveCount(2)
  await expect(actions.nth(0).locator('.action-sentence')).toHaveText(/^Transfer 12\.5 USDG to /)
  await expect(actions.nth(1).locator('.action-sentence')).toHaveText(/^Send 0\.25 ETH to /)
  // Simulated against the real Safe before signing: the batch succeeds and moves exactly these amounts.
  const simulation = actionsField(page).getByTestId('simulation')
  await expect(simulation.getByRole('status')).toHaveText(
    /^Simulated against the Safe as it stands: the batch succeeds \(gas [\d,]+\)\.$/,
  )
  await expect(simulation.getByRole('list', { name: 'Balance changes' })).toContainText('+12.5 USDG')
  await expect(simulation.getByRole('list', { name: 'Balance changes' })).toContainText('+0.25 ETH')
  await expectNoAxeViolations(page)

  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(page.getByTestId('proposal-category')).toHaveText('Category: Grants')
  await expect(page.getByTestId('proposal-actions').getByTestId('action')).toHaveCount(2)
}

/** Moves the server's clock past the proposal's end, its finality and the objection delay, and reloads. */
async function afterTheDelays(page: Page) {
  serverClock.aheadSeconds =
    Math.ceil(VOTING_DAYS * 86_400) + FINALITY_DELAY_SECONDS + EXECUTION_DELAY_SECONDS + 5
  await page.reload()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Ready to queue')
}

/** The connected owner signs in the panel, and the count moves to `count` of 2. */
async function signAs(
  page: Page,
  wallet: { setAccounts: (accounts: Address[]) => Promise<void> },
  owner: Address,
  count: number,
) {
  await wallet.setAccounts([owner])
  await panel(page).getByRole('button', { name: 'Sign' }).click()
  await expect(panel(page).getByTestId('signature-count')).toHaveText(`${count} of 2 signatures`)
}

test('a proposal with a token transfer and an ETH transfer goes through the vote, the queue, two signatures and the execution; the recipient is paid exactly that', async ({
  page,
  context,
  app,
  chains,
  wallet,
  treasury,
}) => {
  const before = await balances(chains, treasury.usdg)
  await connect(page, app, '/proposals')
  await proposePayment(page, 'Pay the grantee')
  await vote(page, 'For')

  await afterTheDelays(page)
  await panel(page).getByRole('button', { name: 'Queue for the Safe' }).click()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Queued')
  await expect(panel(page).getByTestId('safe-tx-hash')).toHaveText(/^0x[0-9a-f]{64}$/)
  await expect(panel(page).getByTestId('domain-hash')).toHaveText(/^0x[0-9a-f]{64}$/)
  await expect(panel(page).getByTestId('message-hash')).toHaveText(/^0x[0-9a-f]{64}$/)
  await expect(panel(page).getByTestId('signature-count')).toHaveText('0 of 2 signatures')
  await expectNoAxeViolations(page)

  // An onlooker on the same proposal (no wallet) sees each signature arrive on the page's stream: sooner
  // than the panel's 10 s poll would bring it.
  const onlooker = await context.newPage()
  await onlooker.goto(page.url())
  await expect(panel(onlooker).getByTestId('signature-count')).toHaveText('0 of 2 signatures')
  await signAs(page, wallet, ADA, 1)
  await expect(panel(onlooker).getByTestId('signature-count')).toHaveText('1 of 2 signatures', {
    timeout: 5_000,
  })
  await signAs(page, wallet, BEN, 2)
  await expect(panel(onlooker).getByTestId('signature-count')).toHaveText('2 of 2 signatures', {
    timeout: 5_000,
  })
  await panel(page).getByRole('button', { name: 'Execute' }).click()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Executed')
  await expect(panel(page).getByTestId('execution-transaction')).toHaveText(/^Transaction: 0x[0-9a-f]{64}$/)
  // The executing wallet's transaction is in its recent transactions, named by the proposal.
  await expect
    .poll(async () =>
      (await storedTransactions(page, BEN)).map(({ description, status }) => ({ description, status })),
    )
    .toEqual([{ description: 'Execute “Pay the grantee”', status: 'confirmed' }])

  const after = await balances(chains, treasury.usdg)
  expect(after.usdg - before.usdg).toBe(parseUnits('12.5', 6))
  expect(after.eth - before.eth).toBe(parseEther('0.25'))

  // The list shows the proposal's category beside its title.
  await page.goto(`${app.url}/proposals`)
  await expect(
    page.getByRole('link', { name: /Pay the grantee/ }).getByTestId('proposal-category'),
  ).toHaveText(' · Grants')
})

test('a nonce conflict: another Safe transaction uses the queued nonce, the proposal is superseded, queued again, signed again and executed', async ({
  page,
  app,
  chains,
  wallet,
  treasury,
}) => {
  const before = await balances(chains, treasury.usdg)
  await connect(page, app, '/proposals')
  await proposePayment(page, 'Pay the grantee again')
  await vote(page, 'For')
  await afterTheDelays(page)
  await panel(page).getByRole('button', { name: 'Queue for the Safe' }).click()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Queued')
  await signAs(page, wallet, ADA, 1)

  // Ben and Cleo execute something else at that nonce, outside the app: nothing to the Safe itself.
  const outside = await executeSafeTransaction(
    { rpcUrl: chains.dao.url, chainId: chains.dao.chainId },
    { safe: treasury.safe.address, signers: [BEN, CLEO], to: treasury.safe.address },
  )
  expect(outside.status).toBe('success')
  await page.reload()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Superseded')
  await panel(page).getByRole('button', { name: 'Queue again for the Safe' }).click()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Queued')
  await expect(panel(page).getByTestId('signature-count')).toHaveText('0 of 2 signatures')

  await signAs(page, wallet, ADA, 1)
  await signAs(page, wallet, BEN, 2)
  await panel(page).getByRole('button', { name: 'Execute' }).click()
  await expect(panel(page).getByTestId('execution-state')).toHaveText('Executed')
  const after = await balances(chains, treasury.usdg)
  expect(after.usdg - before.usdg).toBe(parseUnits('12.5', 6))
  expect(after.eth - before.eth).toBe(parseEther('0.25'))
})
