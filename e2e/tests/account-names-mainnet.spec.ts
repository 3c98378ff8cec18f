// The account button and modal on a DAO whose chain is Ethereum mainnet (id 1): RainbowKit looks the name and
// avatar up itself, on chain 1, through the app's own RPC for it (ADR 031); no server name is put in its place.
// The DAO's chain here is an anvil with id 1 carrying the local name service (ADR 026). viem's default IPFS
// gateway, ipfs.io, is the outside world: its requests are answered by the stand-in gateway, and counted.
import { shortenAddress } from '@guildhall/core'
import { TEST_WALLET_RDNS } from '@guildhall/devchain/wallet/inject'
import type { TestWallet } from '@guildhall/devchain/wallet/playwright'
import type { Locator, Page } from '@playwright/test'
import { type App, test as base, type Chains, connectButton, expect, member } from '../support/fixtures.ts'

const ADA = member(1)
const DEV = member(4)
const GIA = member(7)
const MAINNET_ID = 1
const VIEM_IPFS_GATEWAY = 'https://ipfs.io'

const test = base.extend<{ ipfsRequests: string[] }>({
  // One chain, id 1, with its RPC the name service's node: the DAO is on mainnet. No token there.
  appEnv: [
    async ({ chains }, use) =>
      use({ CHAIN_IDS: String(MAINNET_ID), RPC_URL_1: chains.names.rpcUrl, TOKEN_ADDRESS: undefined }),
    { scope: 'worker' },
  ],
  ipfsRequests: async ({ page, chains }, use) => {
    const requests: string[] = []
    await page.route(`${VIEM_IPFS_GATEWAY}/ipfs/**`, async (route) => {
      requests.push(route.request().url())
      const path = new URL(route.request().url()).pathname
      const response = await route.fetch({ url: `${chains.names.ipfsGatewayUrl}${path}` })
      await route.fulfill({ response })
    })
    await use(requests)
    // A gateway request still in flight when the test ends (an avatar the page no longer waits for) would
    // fail the test from its callback ("route.fetch: Test ended"): stop routing first, ignoring those.
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  },
})

const accountButton = (page: Page) => page.getByTestId('rk-account-button')

/**
 * Opens the app with the wallet on chain 1 (the DAO's) and connects it; resolves to what the page asked of
 * the chain-1 RPC and of the server's names, from then on.
 */
async function connectOnMainnet(page: Page, app: App, chains: Chains, wallet: TestWallet) {
  const rpcCalls: string[] = []
  const serverNameRequests: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === `/rpc/${MAINNET_ID}`) rpcCalls.push(request.postData() ?? '')
    if (url.pathname === '/api/names') serverNameRequests.push(url.search.toLowerCase())
  })
  await page.goto(app.url)
  await wallet.addChain({ chainId: MAINNET_ID, rpcUrl: chains.names.rpcUrl, name: 'Ethereum' })
  await wallet.switchChain(MAINNET_ID)
  await connectButton(page).click()
  await page.getByTestId(`rk-wallet-option-${TEST_WALLET_RDNS}`).click()
  await expect(accountButton(page)).toBeVisible()
  return { rpcCalls, serverNameRequests }
}

/** The avatar image `within` shows has loaded from viem's IPFS gateway (RainbowKit's own lookup). */
async function expectGatewayImage(within: Locator) {
  const image = within.locator('img.avatar').first()
  await expect(image).toBeVisible()
  await expect(image).toHaveAttribute('src', new RegExp(`^${VIEM_IPFS_GATEWAY}/ipfs/`))
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0)
}

test.describe('Ada, named ada.eth with an avatar', () => {
  test.use({ walletOptions: { accounts: [ADA] } })

  test("on a mainnet DAO the account button and modal show ada.eth and her avatar from RainbowKit's own lookups on chain 1", async ({
    page,
    app,
    chains,
    wallet,
    ipfsRequests,
  }) => {
    const seen = await connectOnMainnet(page, app, chains, wallet)
    await expect(accountButton(page)).toContainText('ada.eth')
    await expect(accountButton(page)).not.toContainText(shortenAddress(ADA))
    await expectGatewayImage(accountButton(page))

    await accountButton(page).click()
    const modal = page.getByRole('dialog')
    await expect(modal).toContainText('ada.eth')
    await expectGatewayImage(modal)

    // The lookups were RainbowKit's, through the app's chain-1 RPC (the Universal Resolver's calls) and
    // viem's gateway; the server's name for Ada was never asked for in their place.
    expect(seen.rpcCalls.some((body) => body.includes('"eth_call"'))).toBe(true)
    expect(ipfsRequests.length).toBeGreaterThan(0)
    expect(seen.serverNameRequests.filter((search) => search.includes(ADA.toLowerCase()))).toEqual([])
  })
})

test.describe('Dev, named dev.eth with a broken avatar record', () => {
  test.use({ walletOptions: { accounts: [DEV] } })

  test('on a mainnet DAO the button shows dev.eth with the generated avatar in place of the one viem cannot resolve', async ({
    page,
    app,
    chains,
    wallet,
    ipfsRequests,
  }) => {
    await connectOnMainnet(page, app, chains, wallet)
    await expect(accountButton(page)).toContainText('dev.eth')
    // viem asked the gateway for the record's CID, which it does not have ("Unable to resolve ENS avatar URI").
    await expect.poll(() => ipfsRequests.length).toBeGreaterThan(0)
    await expect(accountButton(page).locator('svg.avatar')).toBeVisible()
    await expect(accountButton(page).locator('img')).toHaveCount(0)
  })
})

test.describe('Gia, without a name', () => {
  test.use({ walletOptions: { accounts: [GIA] } })

  test('on a mainnet DAO the button and modal show the shortened address and a generated avatar', async ({
    page,
    app,
    chains,
    wallet,
  }) => {
    const seen = await connectOnMainnet(page, app, chains, wallet)
    await expect(accountButton(page)).toContainText(shortenAddress(GIA))
    await expect(accountButton(page).locator('svg.avatar')).toBeVisible()
    await expect.poll(() => seen.rpcCalls.some((body) => body.includes('"eth_call"'))).toBe(true)

    await accountButton(page).click()
    const modal = page.getByRole('dialog')
    await expect(modal).toContainText(shortenAddress(GIA))
    await expect(modal.locator('svg.avatar')).toBeVisible()
  })
})
