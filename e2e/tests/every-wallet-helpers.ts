// Shared by csp.spec.ts and wallet-sdks.spec.ts: an app with every wallet configured and sign-in on, and a
// wait for what a page starts on its own.
import { POPULAR_WALLET_IDS } from '@guildhall/core'
import type { Page } from '@playwright/test'

// Every wallet the configuration accepts; the WalletConnect-based ones need a project id (any will do
// here: RainbowKit swaps the placeholder for its example id, and WalletConnect's servers are unreachable).
// Sign-in is on, so its flows run under the policy too.
// No flow may cause a single violation of the Content-Security-Policy (the fixtures fail the test on any).
export const EVERY_WALLET_OPTIONS = {
  appEnv: {
    WALLETS: POPULAR_WALLET_IDS.join(','),
    WALLETCONNECT_PROJECT_ID: 'YOUR_PROJECT_ID',
    SIGN_IN: 'on',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
  },
  expectedCspViolations: [],
}

/** Waits until nothing is in flight for a second, so what a page starts on its own has been tried. */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
}
