// Sign-In with Ethereum through the UI, the step itself: "Verify your account", its states and errors. With
// sign-in-session.spec.ts (the session it opens), the specs that sign in through the modal (the others start
// signed in or connect-only).
import type { Route } from '@playwright/test'
import { connectButton, expect, member, test } from '../support/fixtures.ts'
import { TEST_WALLET_ID, walletOption } from './connect-helpers.ts'
import {
  connectToVerify,
  REMEMBERED_KEY,
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
