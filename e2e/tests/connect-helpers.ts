// Shared by the connect-*.spec.ts files: locating RainbowKit's connect modal and reading its wallet list.
import { TEST_WALLET_RDNS } from '@guildhall/devchain/wallet/inject'
import type { Locator, Page } from '@playwright/test'
import { connectButton, expect } from '../support/fixtures.ts'

/** The injected test wallet, as RainbowKit lists it (EIP-6963: its rdns is the connector id). */
export const TEST_WALLET_ID = TEST_WALLET_RDNS

export const connectDialog = (page: Page) => page.getByRole('dialog')

export const walletOption = (page: Page, id: string) => page.getByTestId(`rk-wallet-option-${id}`)

/**
 * The dialog's back arrow. Its name must be the button's own (aria-label), not borrowed from the title of
 * the SVG inside it, which assistive technologies do not all read.
 */
export function backArrow(dialog: Locator): Locator {
  const back = dialog.getByRole('button', { name: 'Back', exact: true })
  return back.and(dialog.locator('button[aria-label="Back"]'))
}

/** The GET view's closing text, the same words on every layout. */
export async function expectNotWhatYoureLookingFor(dialog: Locator): Promise<void> {
  await expect(dialog.getByText("Not what you're looking for?", { exact: true })).toBeVisible()
  await expect(
    dialog.getByText('Select a wallet on the main screen to get started with a different wallet provider.', {
      exact: true,
    }),
  ).toBeVisible()
  await expect(dialog.getByText(/on the left/)).toHaveCount(0)
  // One back arrow, with its own name.
  await expect(backArrow(dialog)).toHaveCount(1)
  await expect(backArrow(dialog)).toHaveAccessibleName('Back')
}

export interface WalletGroup {
  group: string
  wallets: { id: string; lines: string[] }[]
}

/** The desktop wallet list as shown: group headings in order, each with its options' ids and text lines. */
export function walletGroups(page: Page): Promise<WalletGroup[]> {
  return connectDialog(page).evaluate((dialog) => {
    const selector = '[data-testid^="rk-wallet-option-"]'
    // option button → its ModalSelection wrapper → the group's list → the scrolling list of all groups
    const list = dialog.querySelector(selector)?.parentElement?.parentElement?.parentElement
    const groups: { group: string; wallets: { id: string; lines: string[] }[] }[] = []
    for (const child of list?.children ?? []) {
      const options = [...child.querySelectorAll<HTMLElement>(selector)]
      if (options.length === 0) {
        groups.push({ group: (child.textContent ?? '').trim(), wallets: [] })
        continue
      }
      groups.at(-1)?.wallets.push(
        ...options.map((option) => ({
          id: (option.dataset.testid ?? '').replace('rk-wallet-option-', ''),
          lines: [...option.querySelectorAll('*')]
            .filter((element) => element.children.length === 0)
            .map((element) => element.textContent?.trim() ?? '')
            .filter(Boolean),
        })),
      )
    }
    return groups
  })
}

/**
 * The connect modal's size: the dialog content's width and the max height of the layout inside it
 * (RainbowKit: 368 px / 468 px compact, 720 px / 504 px wide).
 */
export function modalLayout(page: Page): Promise<{ width: number; maxHeight: string } | null> {
  return page.locator('[role="dialog"] [role="document"]').evaluate((document) => {
    const content = document.firstElementChild?.firstElementChild as HTMLElement | null | undefined
    const layout = content?.firstElementChild?.firstElementChild as HTMLElement | null | undefined
    if (!content || !layout) return null
    return {
      width: Math.round(Number.parseFloat(getComputedStyle(content).width)),
      maxHeight: getComputedStyle(layout).maxHeight,
    }
  })
}

/** Opens the account modal, disconnects, and checks the modal closed and "Connect Wallet" is back. */
export async function disconnectFromAccountModal(page: Page): Promise<void> {
  await page.getByTestId('rk-account-button').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await dialog.getByTestId('rk-disconnect-button').click()
  await expect(dialog).toHaveCount(0)
  await expect(connectButton(page)).toBeVisible()
}

/**
 * Stands in for WalletConnect's relay (wss://relay.walletconnect.org), which the test cannot reach: it
 * accepts every subscription and publication, so the SDK gets as far as its pairing URI (the QR code)
 * without a wallet ever answering. Returns the methods the SDK called, in order.
 */
export async function standInRelay(page: Page): Promise<string[]> {
  const methods: string[] = []
  // Page routes take precedence over the fixtures' context route, which would refuse the connection.
  await page.routeWebSocket(/^wss:\/\/relay\.walletconnect\.(org|com)\//, (ws) => {
    ws.onMessage((message) => {
      const request = JSON.parse(String(message)) as { id: number; method: string; params: unknown }
      methods.push(request.method)
      const result =
        request.method === 'irn_subscribe'
          ? 'a1'.repeat(32) // the subscription id
          : request.method === 'irn_batchFetchMessages'
            ? { messages: [], hasMore: false }
            : true
      ws.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', result }))
    })
  })
  return methods
}
