// Sign-In with Ethereum through the UI: the only spec that signs in through the modal (the others start signed in or connect-only).
import {
  cookieValue,
  demoDomain,
  prepareSignIn,
  SESSION_COOKIE,
  signProposal,
  verifySignIn,
} from '@guildhall/api/testbed'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { Page, Route } from '@playwright/test'
import { createPublicClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type App, type Chains, connectButton, expect, member, test } from '../support/fixtures.ts'
import { TEST_WALLET_ID, walletOption } from './connect-helpers.ts'

// Every browser here comes from 127.0.0.1: the per-IP limit (proven in the API tests) would throttle the
// suite itself, so this server allows more sign-in requests per minute.
test.use({
  appEnv: { SIGN_IN: 'on', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
  walletOptions: { accounts: [member(1), member(2)] },
})

const verifyDialog = (page: Page) => page.getByRole('dialog').filter({ hasText: 'Verify your account' })
const signButton = (page: Page) => page.getByTestId('rk-auth-message-button')
/**
 * RainbowKit's sign button is never `disabled` in the DOM: until the nonce is there (and while signing) it
 * only drops its click handler and reads "Preparing message...", so its label is what shows it is ready.
 */
const SIGN_READY = 'Sign message'
const signedInAs = (page: Page) => page.getByTestId('signed-in-as')
/** The header's "Not signed in · Sign in", shown while a connected wallet has no session. */
const headerSignIn = (page: Page) => page.getByRole('banner').getByTestId('header-sign-in')
const votePanel = (page: Page) => page.getByTestId('vote-panel')
/** The test wallet's remembered connection, the spec's key (ADR 042): set while connected, required to reconnect. */
const REMEMBERED_KEY = `wagmi.${TEST_WALLET_ID}.shimDisconnect`

/** Connects the test wallet; with sign-in on, the modal moves on to "Verify your account". */
async function connectToVerify(page: Page, app: App) {
  await page.goto(app.url)
  await connectButton(page).click()
  await page.getByTestId('rk-wallet-option-dev.guildhall.testwallet').click()
  await expect(verifyDialog(page)).toBeVisible()
  await expect(signButton(page)).toHaveText(SIGN_READY)
}

const serverSession = (page: Page) =>
  page.evaluate(
    async () => (await (await fetch('/api/auth/session')).json()) as { session: { address: string } | null },
  )

test('connect → "Verify your account" → sign → signed in, on the client and the server', async ({
  page,
  app,
  wallet,
}) => {
  await connectToVerify(page, app)
  await signButton(page).click()
  await expect(signedInAs(page)).toContainText('Signed in as ada.eth')
  await expect(verifyDialog(page)).toBeHidden()
  expect((await serverSession(page)).session?.address).toBe(member(1))
  const [signRequest] = await wallet.requests('personal_sign')
  expect(signRequest).toBeDefined()
})

test('the connect modal stays open on connect while the account is not yet verified', async ({
  page,
  app,
  wallet,
}) => {
  await connectToVerify(page, app)
  // The wallet is connected, and the dialog stays, asking to verify.
  expect((await wallet.state()).connected).toBe(true)
  await expect(signButton(page)).toHaveText(SIGN_READY)
  await expect(verifyDialog(page)).toBeVisible()
})

test('a rejected signature (4001) returns silently to idle', async ({ page, app, wallet }) => {
  await connectToVerify(page, app)
  await wallet.rejectNext('personal_sign')
  await signButton(page).click()
  await wallet.waitForRequest('personal_sign')
  await expect(signButton(page)).toHaveText(SIGN_READY)
  await expect(verifyDialog(page)).not.toContainText('please retry')
  expect((await serverSession(page)).session).toBeNull()
})

test('a wallet error while signing shows "Error signing message, please retry!"', async ({
  page,
  app,
  wallet,
}) => {
  await connectToVerify(page, app)
  await wallet.failNext('personal_sign', { code: -32603, message: 'Internal error' })
  await signButton(page).click()
  await expect(verifyDialog(page)).toContainText('Error signing message, please retry!')
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
})

test('a signature the server refuses shows "Error verifying signature, please retry!"', async ({
  page,
  app,
}) => {
  await connectToVerify(page, app)
  await page.route('**/api/auth/verify', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: '{"error":"bad_signature","message":"no"}',
    }),
  )
  await signButton(page).click()
  await expect(verifyDialog(page)).toContainText('Error verifying signature, please retry!')
  expect((await serverSession(page)).session).toBeNull()
})

test('signing, then verifying: the button reads "Waiting for signature..." while the wallet holds the signature, then "Verifying signature..." while the server verifies', async ({
  page,
  app,
  wallet,
}) => {
  await connectToVerify(page, app)
  // Each state is held open until it has been seen: the wallet holds the signature, the test the verify request.
  await wallet.holdNext('personal_sign')
  await signButton(page).click()
  await wallet.waitForRequest('personal_sign')
  await expect(signButton(page)).toHaveText('Waiting for signature...')
  expect(await wallet.held()).toEqual(['personal_sign'])

  const verifyHeld = new Promise<Route>((resolve) => {
    void page.route('**/api/auth/verify', (route) => resolve(route), { times: 1 })
  })
  expect(await wallet.release('personal_sign')).toBe(1)
  const verify = await verifyHeld
  await expect(signButton(page)).toHaveText('Verifying signature...')
  await expect(signedInAs(page)).toBeHidden()
  await verify.continue()
  await expect(signedInAs(page)).toContainText('Signed in as ada.eth')
  await expect(verifyDialog(page)).toBeHidden()
})

for (const failure of ['answers 500', 'cannot be reached'] as const) {
  test(`a verify request that ${failure} shows "Oops, something went wrong!", and the retry signs in`, async ({
    page,
    app,
  }) => {
    await connectToVerify(page, app)
    await page.route(
      '**/api/auth/verify',
      (route) =>
        failure === 'answers 500'
          ? route.fulfill({
              status: 500,
              contentType: 'application/json',
              body: '{"error":"internal","message":"Internal error."}',
            })
          : route.abort('connectionreset'),
      { times: 1 },
    )
    await signButton(page).click()
    await expect(verifyDialog(page)).toContainText('Oops, something went wrong!')
    await expect(verifyDialog(page)).not.toContainText('Error verifying signature')
    await expect(signButton(page)).toHaveText(SIGN_READY)
    expect((await serverSession(page)).session).toBeNull()

    await signButton(page).click()
    await expect(signedInAs(page)).toContainText('Signed in as ada.eth')
  })
}

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

test('a nonce that cannot be fetched shows "Error preparing message, please retry!", and the retry signs in', async ({
  page,
  app,
  wallet,
}) => {
  // The nonce endpoint is down for every attempt: the adapter's own retries (at open and at the press)
  // all get a 503.
  let nonceRequests = 0
  await page.route('**/api/auth/nonce', (route) => {
    nonceRequests++
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: '{"error":"unavailable","message":"down"}',
    })
  })
  await connectToVerify(page, app)
  // The nonce fetched at open failed after its retries (connectToVerify waited for the ready button);
  // the button stays usable and fetches a nonce at the press.
  const failedAtOpen = nonceRequests
  expect(failedAtOpen).toBeGreaterThan(1)
  await signButton(page).click()
  await expect(verifyDialog(page)).toContainText('Error preparing message, please retry!')
  expect(nonceRequests).toBeGreaterThan(failedAtOpen + 1)
  expect(await wallet.requests('personal_sign')).toEqual([])
  expect((await serverSession(page)).session).toBeNull()

  // The server is back: the same open dialog signs in at the next press.
  await page.unroute('**/api/auth/nonce')
  await expect(signButton(page)).toHaveText(SIGN_READY)
  await signButton(page).click()
  await expect(signedInAs(page)).toContainText('Signed in as ada.eth')
  await expect(verifyDialog(page)).toBeHidden()
  expect((await serverSession(page)).session?.address).toBe(member(1))
  expect(await wallet.requests('personal_sign')).toHaveLength(1)
})

test('Cancel in "Verify your account" disconnects the wallet, and the next load does not reconnect', async ({
  page,
  app,
  wallet,
}) => {
  await connectToVerify(page, app)
  const remembered = () => page.evaluate((key) => localStorage.getItem(key), REMEMBERED_KEY)
  // Connected (not signed in): remembered until the cancel disconnects.
  expect(await remembered()).toBe('true')
  await verifyDialog(page).getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(connectButton(page)).toBeVisible()
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
  expect(await remembered()).toBeNull()
  expect(await wallet.requests('personal_sign')).toEqual([])
  expect((await serverSession(page)).session).toBeNull()

  // Not remembered: after a reload "Connect Wallet" opens the wallet list, not the sign-in step.
  await page.reload()
  await expect(page.getByTestId('token-name')).toHaveText('Guildhall Demo Token')
  await connectButton(page).click()
  await expect(walletOption(page, TEST_WALLET_ID)).toBeVisible()
  await expect(verifyDialog(page)).toHaveCount(0)
  await expect(page.getByTestId('rk-account-button')).toHaveCount(0)
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
