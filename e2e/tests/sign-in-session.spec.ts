// Sign-In with Ethereum through the UI, once signed in: the session across reloads, tabs, account switches and
// devices ("Your sessions"), and the signed-out state of a connected wallet. The step itself: sign-in.spec.ts.
import {
  cookieValue,
  demoDomain,
  prepareSignIn,
  SESSION_COOKIE,
  signProposal,
  verifySignIn,
} from '@guildhall/api/testbed'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { Page } from '@playwright/test'
import { createPublicClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type App, type Chains, connectButton, expect, member, test } from '../support/fixtures.ts'
import { votePanel } from './governance-helpers.ts'
import {
  connectToVerify,
  headerSignIn,
  SIGN_IN_APP_ENV,
  SIGN_READY,
  serverSession,
  signButton,
  signedInAs,
  verifyDialog,
} from './sign-in-helpers.ts'

test.use({
  appEnv: SIGN_IN_APP_ENV,
  walletOptions: { accounts: [member(1), member(2)] },
})

test('a reload keeps the session', async ({ page, app }) => {
  await connectToVerify(page, app)
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
  await page.reload()
  await expect(signedInAs(page)).toContainText('Signed in as ada.eth')
  await expect(verifyDialog(page)).toBeHidden()
})

test('switching account in the wallet signs out on the client and the server', async ({
  page,
  app,
  wallet,
}) => {
  await connectToVerify(page, app)
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
  await wallet.setAccounts([member(2), member(1)])
  await expect(signedInAs(page)).toBeHidden()
  await expect.poll(async () => (await serverSession(page)).session).toBeNull()
})

test('signing out in one tab signs out the other', async ({ page, context, app }) => {
  await connectToVerify(page, app)
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
  const other = await context.newPage()
  await other.goto(app.url)
  await expect(signedInAs(other)).toBeVisible()
  await signedInAs(page).getByRole('button', { name: 'Sign out' }).click()
  await expect(signedInAs(other)).toBeHidden()
})

/** A sign-in from "another browser": the API flow over HTTP with member 1's key; returns its cookie. */
async function signInElsewhere(app: App, userAgent: string): Promise<string> {
  const origin = new URL(app.url).origin
  const signer = privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)
  const prepared = await prepareSignIn(origin, signer, { daoName: 'Guildhall Test DAO' })
  const verified = await verifySignIn(origin, prepared, { userAgent })
  expect(verified.status).toBe(200)
  return `${SESSION_COOKIE}=${cookieValue(verified, SESSION_COOKIE)}`
}

test('"Your sessions" lists this device and the others; ending another session signs that browser out', async ({
  page,
  app,
}) => {
  // Other tests of this worker sign member 1 in too: this test's other session is told apart by its browser.
  const userAgent = `GuildhallE2E/${Date.now()} (another browser)`
  const elsewhere = await signInElsewhere(app, userAgent)
  await connectToVerify(page, app)
  await signButton(page).click()
  await signedInAs(page).getByRole('link', { name: 'Your sessions' }).click()
  await expect(page.getByRole('heading', { name: 'Your sessions' })).toBeVisible()
  const items = page.getByTestId('session-item')
  await expect(items.filter({ hasText: 'This device' })).toHaveCount(1)
  const other = items.filter({ has: page.locator(`[title="${userAgent}"]`) })
  await expect(other).toHaveCount(1)

  await other.getByRole('button', { name: /End the session of/ }).click()
  await expect(other).toHaveCount(0)
  await expect(items.filter({ hasText: 'This device' })).toHaveCount(1)
  const origin = new URL(app.url).origin
  const theirs = await fetch(`${origin}/api/auth/session`, { headers: { cookie: elsewhere } })
  expect(await theirs.json()).toEqual({ session: null })
  // This browser is still signed in.
  expect((await serverSession(page)).session?.address).toBe(member(1))
})

/** Signs in through the modal, then writes a proposal and lands on its page. */
async function signInAndPropose(page: Page, app: App, title: string) {
  await connectToVerify(page, app)
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
  await page.getByRole('link', { name: 'Proposals', exact: true }).click()
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(votePanel(page).getByRole('button', { name: 'Vote', exact: true })).toBeVisible()
}

/** The signed-out state of a connected wallet: the header and the vote panel both offer "Sign in". */
async function expectSignedOutWithWallet(page: Page) {
  await expect(signedInAs(page)).toHaveCount(0)
  await expect(headerSignIn(page)).toContainText('Not signed in')
  await expect(headerSignIn(page).getByRole('button', { name: 'Sign in' })).toBeVisible()
  // RainbowKit's button shows "Connect Wallet" until the account is verified; it opens the sign-in step.
  await expect(connectButton(page)).toBeVisible()
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  await expect(votePanel(page)).toContainText('Sign in to vote.')
  await expect(votePanel(page).getByRole('button', { name: 'Sign in' })).toBeVisible()
  await expect(votePanel(page).getByRole('radio')).toHaveCount(0)
  await expect(votePanel(page).getByRole('button', { name: /Vote/ })).toHaveCount(0)
}

test('after an account switch the header and the vote panel show the signed-out state; "Sign in" in the panel signs the new account in', async ({
  page,
  app,
  wallet,
}) => {
  await signInAndPropose(page, app, 'Mend the fence')
  await wallet.setAccounts([member(2), member(1)])
  await expectSignedOutWithWallet(page)

  await votePanel(page).getByRole('button', { name: 'Sign in' }).click()
  await expect(verifyDialog(page)).toBeVisible()
  await expect(signButton(page)).toHaveText(SIGN_READY)
  await signButton(page).click()
  await expect(signedInAs(page)).toContainText('Signed in as ben.eth')
  await expect(headerSignIn(page)).toHaveCount(0)
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
  await expect(votePanel(page).getByRole('button', { name: 'Vote', exact: true })).toBeVisible()
  expect((await serverSession(page)).session?.address).toBe(member(2))
})

test('signing out with the wallet still connected shows the signed-out state; the header\'s "Sign in" signs in again', async ({
  page,
  app,
  wallet,
}) => {
  await signInAndPropose(page, app, 'Sweep the yard')
  await signedInAs(page).getByRole('button', { name: 'Sign out' }).click()
  await expectSignedOutWithWallet(page)
  expect((await wallet.state()).connected).toBe(true)

  await headerSignIn(page).getByRole('button', { name: 'Sign in' }).click()
  await signButton(page).click()
  await expect(signedInAs(page)).toContainText('Signed in as ada.eth')
  await expect(votePanel(page).getByRole('button', { name: 'Vote', exact: true })).toBeVisible()
})

/**
 * An open proposal of Ada's, signed with her key and sent over HTTP as her wallet would: a test that needs
 * one does not depend on another test of its worker having written it.
 */
async function openProposalByAda(app: App, chains: Chains): Promise<{ id: Hex; snapshot: number }> {
  const ada = privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)
  const rules = app.settings.publicConfig.governance
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(chains.dao.url) }).getBlockNumber()) - 1
  const { message, signature, id } = await signProposal(ada, demoDomain(chains.deployment), {
    snapshot,
    title: `Finn's reason ${now}`,
    body: '',
    end: now + 3_600,
    quorum: String(rules.quorum),
    threshold: String(rules.threshold),
    abstainCountsToQuorum: rules.abstainCountsToQuorum,
    timestamp: now,
  })
  const answer = await fetch(`${app.url}/api/proposals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ message, signature }),
  })
  expect(answer.status).toBe(201)
  return { id, snapshot }
}

test.describe('Finn, who holds tokens but never delegated', () => {
  test.use({ walletOptions: { accounts: [member(6)] } })

  test('connected but not signed in, the vote panel says why he has no voting power before asking him to sign in', async ({
    page,
    app,
    chains,
  }) => {
    const proposal = await openProposalByAda(app, chains)
    await connectToVerify(page, app)
    await signButton(page).click()
    await signedInAs(page).getByRole('button', { name: 'Sign out' }).click()
    await expect(headerSignIn(page).getByRole('button', { name: 'Sign in' })).toBeVisible()

    await page.goto(`${app.url}/proposals/${proposal.id}`)
    // As it reads: the terms' explanations are hidden text until hovered or focused.
    await expect(votePanel(page).getByTestId('voting-power')).toHaveText(
      `Your voting power at block ${proposal.snapshot}: 0 GHD`,
      { useInnerText: true },
    )
    await expect(votePanel(page).getByTestId('zero-power-reason')).toContainText(
      `You held tokens at block ${proposal.snapshot} but had not delegated them`,
    )
    await expect(votePanel(page)).toContainText('Sign in to vote.')
    await expect(headerSignIn(page)).toContainText('Not signed in')
  })
})

test('"New proposal" and "Your sessions" ask a connected, signed-out member to sign in before anything else, and signing in there opens them', async ({
  page,
  app,
}) => {
  await connectToVerify(page, app)
  await signButton(page).click()
  await signedInAs(page).getByRole('button', { name: 'Sign out' }).click()
  await expect(headerSignIn(page).getByRole('button', { name: 'Sign in' })).toBeVisible()

  await page.goto(`${app.url}/proposals/new`)
  const form = page.getByRole('main')
  await expect(form).toContainText('Sign in to write a proposal.')
  await expect(page.getByLabel('Title')).toHaveCount(0)
  await form.getByRole('button', { name: 'Sign in' }).click()
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
  await expect(page.getByLabel('Title')).toBeVisible()

  await signedInAs(page).getByRole('button', { name: 'Sign out' }).click()
  await expect(headerSignIn(page)).toBeVisible()
  await page.goto(`${app.url}/account/sessions`)
  await expect(page.getByRole('main')).toContainText('You are not signed in.')
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click()
  await signButton(page).click()
  await expect(page.getByTestId('session-item').filter({ hasText: 'This device' })).toHaveCount(1)
})
