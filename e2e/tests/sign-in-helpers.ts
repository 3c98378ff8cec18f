// Shared by the sign-in specs: the server they sign in to, RainbowKit's "Verify your account" step and the
// signed-in line, and the session as the server sees it.
import type { Page } from '@playwright/test'
import { type App, connectButton, expect } from '../support/fixtures.ts'
import { TEST_WALLET_ID } from './connect-helpers.ts'

// Every browser here comes from 127.0.0.1: the per-IP limit (proven in the API tests) would throttle the
// suite itself, so this server allows more sign-in requests per minute.
export const SIGN_IN_APP_ENV = { SIGN_IN: 'on', AUTH_RATE_LIMIT_PER_MINUTE: '1000' }

export const verifyDialog = (page: Page) =>
  page.getByRole('dialog').filter({ hasText: 'Verify your account' })
export const signButton = (page: Page) => page.getByTestId('rk-auth-message-button')
/**
 * RainbowKit's sign button is never `disabled` in the DOM: until the nonce is there (and while signing) it
 * only drops its click handler and reads "Preparing message...", so its label is what shows it is ready.
 */
export const SIGN_READY = 'Sign message'
export const signedInAs = (page: Page) => page.getByTestId('signed-in-as')
/** The header's "Not signed in · Sign in", shown while a connected wallet has no session. */
export const headerSignIn = (page: Page) => page.getByRole('banner').getByTestId('header-sign-in')
/** The test wallet's remembered connection, the spec's key (ADR 042): set while connected, required to reconnect. */
export const REMEMBERED_KEY = `wagmi.${TEST_WALLET_ID}.shimDisconnect`

/** Connects the test wallet; with sign-in on, the modal moves on to "Verify your account". */
export async function connectToVerify(page: Page, app: App) {
  await page.goto(app.url)
  await connectButton(page).click()
  await page.getByTestId('rk-wallet-option-dev.guildhall.testwallet').click()
  await expect(verifyDialog(page)).toBeVisible()
  await expect(signButton(page)).toHaveText(SIGN_READY)
}

export const serverSession = (page: Page) =>
  page.evaluate(
    async () => (await (await fetch('/api/auth/session')).json()) as { session: { address: string } | null },
  )

/** Answers "Verify your account" by signing the message. */
export async function signIn(page: Page) {
  await expect(page.getByRole('dialog').filter({ hasText: 'Verify your account' })).toBeVisible()
  const sign = page.getByTestId('rk-auth-message-button')
  await expect(sign).toHaveText('Sign message')
  await sign.click()
  await expect(page.getByTestId('signed-in-as')).toBeVisible()
}
