// Sign-In with Ethereum through the UI: the only spec that signs in through the modal (issue 3).
import type { Page } from '@playwright/test'
import { type App, connectButton, expect, member, test } from '../support/fixtures.ts'

// Every browser here comes from 127.0.0.1: the per-IP limit (proven in the API tests) would throttle the
// suite itself, so this server allows more sign-in requests per minute.
test.use({
  appEnv: { SIGN_IN: 'on', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
  walletOptions: { accounts: [member(1), member(2)] },
})

const verifyDialog = (page: Page) => page.getByRole('dialog').filter({ hasText: 'Verify your account' })
const signButton = (page: Page) => page.getByTestId('rk-auth-message-button')
const signedInAs = (page: Page) => page.getByTestId('signed-in-as')

/** Connects the test wallet; with sign-in on, the modal moves on to "Verify your account". */
async function connectToVerify(page: Page, app: App) {
  await page.goto(app.url)
  await connectButton(page).click()
  await page.getByTestId('rk-wallet-option-dev.guildhall.testwallet').click()
  await expect(verifyDialog(page)).toBeVisible()
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
  await expect(signedInAs(page)).toContainText('Signed in as 0x70…79C8')
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
  await expect(signButton(page)).toBeEnabled()
  await expect(verifyDialog(page)).toBeVisible()
})

test('a rejected signature (4001) returns silently to idle', async ({ page, app, wallet }) => {
  await connectToVerify(page, app)
  await wallet.rejectNext('personal_sign')
  await signButton(page).click()
  await expect(signButton(page)).toBeEnabled()
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

test('a reload keeps the session', async ({ page, app }) => {
  await connectToVerify(page, app)
  await signButton(page).click()
  await expect(signedInAs(page)).toBeVisible()
  await page.reload()
  await expect(signedInAs(page)).toContainText('Signed in as 0x70…79C8')
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
