// The connected account: account modal, balance in the header, reconnect on load, and the wallet's
// own account and disconnect events (account button and modal, connection states, display limits).
import { formatTokenAmount, shortenAddress } from '@guildhall/core'
import { TEST_WALLET_STORAGE_KEY } from '@guildhall/devchain/wallet/inject'
import type { Page } from '@playwright/test'
import { createPublicClient, type Hex, http, parseAbi, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  type App,
  type Chains,
  connect,
  connectButton,
  expect,
  member,
  resolvedNames,
  test,
} from '../support/fixtures.ts'
import { TEST_WALLET_ID, walletOption } from './connect-helpers.ts'

/** A watch-only account of this run: its ETH balance is ours to set without touching the demo members. */
const WATCHER = privateKeyToAccount(generatePrivateKey()).address
const WATCHER_ETH = '1.2345'
/** RainbowKit shortens balances under 100 to two decimals. */
const WATCHER_BALANCE = '1.23 ETH'

/** First 4 and last 4 characters, as the account button shows an address. */
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`

const accountButton = (page: Page) => page.getByTestId('rk-account-button')
const accountModal = (page: Page) => page.getByRole('dialog')

async function setBalance(chains: Chains, address: Hex, ether: string) {
  const response = await fetch(chains.dao.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'anvil_setBalance',
      params: [address, `0x${parseEther(ether).toString(16)}`],
    }),
  })
  expect((await response.json()).error).toBeUndefined()
}

/**
 * Records, from the first script of every page load, whether a ready "Connect Wallet" button (not
 * inside RainbowKit's aria-hidden placeholder) or the account button was ever in the DOM.
 */
async function recordButtons(page: Page) {
  await page.addInitScript(() => {
    const seen = { connectReady: false, account: false }
    ;(window as unknown as { __seenButtons: typeof seen }).__seenButtons = seen
    const check = () => {
      // RainbowKit's button, or the stand-in shown until the wallet kit has loaded (ADR 008). The server's
      // app shell holds the button's place with a hidden copy of the stand-in, which is never seen.
      for (const button of document.querySelectorAll(
        '[data-testid="rk-connect-button"], .connect-stand-in',
      )) {
        if (!button.closest('[aria-hidden="true"]') && getComputedStyle(button).visibility !== 'hidden') {
          seen.connectReady = true
        }
      }
      if (document.querySelector('[data-testid="rk-account-button"]')) seen.account = true
    }
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true })
  })
}
const seenButtons = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __seenButtons: { connectReady: boolean; account: boolean } }).__seenButtons,
  )
const resetSeenButtons = (page: Page) =>
  page.evaluate(() => {
    const seen = (window as unknown as { __seenButtons: { connectReady: boolean; account: boolean } })
      .__seenButtons
    seen.connectReady = false
    seen.account = false
  })

const TOKEN_ABI = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function getVotes(address) view returns (uint256)',
  'function delegates(address) view returns (address)',
])

async function tokenAccount(chains: Chains, account: Hex) {
  const client = createPublicClient({ transport: http(chains.dao.url) })
  const contract = { address: chains.deployment.token, abi: TOKEN_ABI } as const
  const [balance, votes, delegate] = await Promise.all([
    client.readContract({ ...contract, functionName: 'balanceOf', args: [account] }),
    client.readContract({ ...contract, functionName: 'getVotes', args: [account] }),
    client.readContract({ ...contract, functionName: 'delegates', args: [account] }),
  ])
  return { balance, votes, delegate }
}

const storageItem = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key)

test.describe('as a watch-only account with 1.2345 ETH', () => {
  test.use({ walletOptions: { accounts: [WATCHER] } })
  test.beforeEach(async ({ chains }) => setBalance(chains, WATCHER, WATCHER_ETH))

  test('the account modal shows the shortened address and the ETH balance', async ({ page, app }) => {
    await connect(page, app)
    await accountButton(page).click()
    const modal = accountModal(page)
    await expect(modal.getByRole('heading', { name: short(WATCHER), exact: true })).toBeVisible()
    await expect(modal.getByRole('heading', { name: WATCHER_BALANCE, exact: true })).toBeVisible()
  })

  test('"Copy Address" copies the address and says "Copied!" for 1.5 seconds', async ({
    page,
    app,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url })
    await connect(page, app)
    await accountButton(page).click()
    const modal = accountModal(page)
    const copy = modal.getByRole('button', { name: 'Copy Address' })
    const copied = modal.getByRole('button', { name: 'Copied!' })

    // Times the label in the page itself, from the DOM change that shows "Copied!" to the one removing it.
    await modal.evaluate((dialog) => {
      const times: { shown?: number; gone?: number } = {}
      ;(window as unknown as { __copied: typeof times }).__copied = times
      new MutationObserver(() => {
        const now = performance.now()
        const shown = dialog.textContent?.includes('Copied!') ?? false
        if (shown && times.shown === undefined) times.shown = now
        if (!shown && times.shown !== undefined && times.gone === undefined) times.gone = now
      }).observe(dialog, { subtree: true, childList: true, characterData: true })
    })
    await copy.click()
    await expect(copied).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(WATCHER)
    await expect(copy).toBeVisible()
    const { shown, gone } = await page.evaluate(
      () => (window as unknown as { __copied: { shown: number; gone: number } }).__copied,
    )
    // "Copied!" lasts 1500 ms (RainbowKit's timer); allow for a render frame or two on a busy machine.
    expect(gone - shown).toBeGreaterThanOrEqual(1_500)
    expect(gone - shown).toBeLessThan(1_800)
    await expect(copied).toHaveCount(0)
  })

  test('the balance shows in the account button from 768 px wide and is hidden on smaller screens', async ({
    page,
    app,
  }) => {
    await connect(page, app)
    const balance = accountButton(page).getByText(WATCHER_BALANCE, { exact: true })
    await expect(balance).toBeVisible()
    await expect(accountButton(page)).toContainText(short(WATCHER))

    await page.setViewportSize({ width: 767, height: 800 })
    await expect(balance).toBeHidden()
    await expect(accountButton(page)).toBeVisible()

    await page.setViewportSize({ width: 768, height: 800 })
    await expect(balance).toBeVisible()
  })
})

// The remembered connection is the spec's `injected.shimDisconnect` under wagmi's prefix: one key per
// injected connector, `wagmi.<connector id>.shimDisconnect` (ADR 042). The test wallet is both RainbowKit's
// "Browser Wallet" (window.ethereum: connector `injected`, the spec's own key) and an EIP-6963 wallet (its
// rdns). Each is set while connected through it; after any disconnect no key is left.
const REMEMBERED = {
  browserWallet: 'wagmi.injected.shimDisconnect',
  testWallet: `wagmi.${TEST_WALLET_ID}.shimDisconnect`,
}
const rememberedKeys = async (page: Page) => ({
  browserWallet: await storageItem(page, REMEMBERED.browserWallet),
  testWallet: await storageItem(page, REMEMBERED.testWallet),
})
const NOTHING_REMEMBERED = { browserWallet: null, testWallet: null }

for (const { option, label, key } of [
  { option: TEST_WALLET_ID, label: 'the EIP-6963 test wallet', key: REMEMBERED.testWallet },
  { option: 'injected', label: '"Browser Wallet"', key: REMEMBERED.browserWallet },
]) {
  /** Opens the app and connects through `option` in the connect modal. */
  async function connectThrough(page: Page, app: App) {
    await page.goto(app.url)
    await connectButton(page).click()
    await walletOption(page, option).click()
    await expect(accountButton(page)).toBeVisible()
    expect(await storageItem(page, key)).toBe('true')
  }

  test.describe(`connected through ${label} (remembered as ${key})`, () => {
    test('Disconnect in the account modal disconnects and the next load does not reconnect', async ({
      page,
      app,
    }) => {
      await recordButtons(page)
      await connectThrough(page, app)
      await accountButton(page).click()
      await page.getByTestId('rk-disconnect-button').click()
      await expect(connectButton(page)).toBeVisible()
      await expect(accountButton(page)).toHaveCount(0)
      await expect(accountModal(page)).toHaveCount(0)
      expect(await rememberedKeys(page)).toEqual(NOTHING_REMEMBERED)

      await page.reload()
      await expect(page.getByTestId('token-name')).toHaveText('Guildhall Demo Token')
      await expect(connectButton(page)).toBeVisible()
      expect(await seenButtons(page)).toEqual({ connectReady: true, account: false })
      expect(await rememberedKeys(page)).toEqual(NOTHING_REMEMBERED)
    })

    test('a reload reconnects without the "Connect Wallet" button ever showing', async ({ page, app }) => {
      await recordButtons(page)
      await connectThrough(page, app)
      await page.reload()
      await expect(accountButton(page)).toBeVisible()
      expect(await seenButtons(page)).toEqual({ connectReady: false, account: true })
      expect(await storageItem(page, key)).toBe('true')
    })

    test('a provider disconnect with code 1013 while the wallet keeps its accounts stays connected', async ({
      page,
      app,
      wallet,
    }) => {
      await recordButtons(page)
      await connectThrough(page, app)
      await resetSeenButtons(page)
      await wallet.clearRequests()

      await wallet.emitDisconnect(1013)
      // wagmi asks the wallet for its accounts before deciding; they are still there.
      await wallet.waitForRequest('eth_accounts')
      await expect(accountButton(page)).toBeVisible()
      // Not even for a moment did the header fall back to "Connect Wallet".
      expect((await seenButtons(page)).connectReady).toBe(false)
      expect(await storageItem(page, key)).toBe('true')

      // Still remembered: the next load reconnects.
      await page.reload()
      await expect(accountButton(page)).toBeVisible()
      expect(await storageItem(page, key)).toBe('true')
    })

    test('a provider disconnect without 1013 disconnects and forgets the connection, even if the wallet still grants it', async ({
      page,
      app,
      wallet,
    }) => {
      await recordButtons(page)
      await connectThrough(page, app)
      expect(await storageItem(page, 'wagmi.recentConnectorId')).toBe(JSON.stringify(option))

      await wallet.emitDisconnect()
      await expect(connectButton(page)).toBeVisible()
      await expect(accountButton(page)).toHaveCount(0)
      // The remembered-connection flag is cleared.
      await expect.poll(() => rememberedKeys(page)).toEqual(NOTHING_REMEMBERED)

      // Like MetaMask after its `disconnect` event, the wallet still grants this site on the next load.
      await page.evaluate((walletKey) => {
        const saved = JSON.parse(localStorage.getItem(walletKey) ?? '{}')
        localStorage.setItem(walletKey, JSON.stringify({ ...saved, connected: true }))
      }, TEST_WALLET_STORAGE_KEY)
      await page.reload()
      // Reconnecting needs no network and runs at mount; the token figures need a round trip to the chain.
      await expect(page.getByTestId('token-name')).toHaveText('Guildhall Demo Token')
      await expect(connectButton(page)).toBeVisible()
      expect(await seenButtons(page)).toEqual({ connectReady: true, account: false })
      expect(await rememberedKeys(page)).toEqual(NOTHING_REMEMBERED)
    })
  })
}

test.describe('a wallet that already grants this site', () => {
  // As after a visit whose site data was cleared, or a grant made in the wallet itself.
  test.use({ walletOptions: { connected: true } })

  test('is not connected on load when no connection was remembered here, and nothing is remembered', async ({
    page,
    app,
    wallet,
  }) => {
    await recordButtons(page)
    await page.goto(app.url)
    await expect(page.getByTestId('token-name')).toHaveText('Guildhall Demo Token')
    await expect(connectButton(page)).toBeVisible()
    expect(await seenButtons(page)).toEqual({ connectReady: true, account: false })
    expect(await rememberedKeys(page)).toEqual(NOTHING_REMEMBERED)
    // The wallet grants the site all along (wagmi 2 on its own storage would have connected it).
    expect((await wallet.state()).connected).toBe(true)
  })
})

test("the wallet's accountsChanged updates the account button and the overview's figures", async ({
  page,
  app,
  chains,
  wallet,
}) => {
  await connect(page, app)
  // Account 0 is the deployer; Ben (account 2) holds other figures.
  await expect(accountButton(page)).toContainText(short(member(0)))
  const deployer = await tokenAccount(chains, member(0))
  await expect(page.getByTestId('my-balance')).toHaveText(`${formatTokenAmount(deployer.balance, 18)} GHD`)

  await wallet.setAccounts([member(2)])
  await expect(accountButton(page)).toContainText(short(member(2)))
  // Ben's figures as the chain has them now (other tests in this worker may have moved tokens).
  const ben = await tokenAccount(chains, member(2))
  await expect(page.getByTestId('my-balance')).toHaveText(`${formatTokenAmount(ben.balance, 18)} GHD`)
  await expect(page.getByTestId('my-votes')).toHaveText(`${formatTokenAmount(ben.votes, 18)} GHD`)
  const nameOf = await resolvedNames(page, app, [ben.delegate])
  await expect(page.getByTestId('my-delegate')).toHaveText(
    ben.delegate === member(2) ? 'Yourself' : (nameOf(ben.delegate) ?? shortenAddress(ben.delegate)),
  )
  expect(ben.balance).not.toBe(deployer.balance)
})

test('the wallet reporting no accounts disconnects', async ({ page, app, wallet }) => {
  await connect(page, app)
  await wallet.setAccounts([])
  await expect(connectButton(page)).toBeVisible()
  await expect(accountButton(page)).toHaveCount(0)
  await expect(page.getByTestId('my-account')).toContainText(
    'Connect a wallet to see your balance, voting power and delegate.',
  )
})
