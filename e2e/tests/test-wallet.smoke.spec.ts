// Smoke check of the injected test wallet in real Chromium: init script, EIP-1193, EIP-6963, reload.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { TestWallet } from '@guildhall/devchain/wallet/playwright'
import { expect, test } from '@playwright/test'
import { type Hex, toHex, verifyMessage } from 'viem'

// A page that, like a dapp, listens for EIP-6963 announcements and asks wallets to announce.
const PAGE = `<!doctype html><html><head><title>wallet smoke</title><script>
  window.__announced = [];
  window.addEventListener('eip6963:announceProvider', (e) => window.__announced.push(e.detail.info));
  window.dispatchEvent(new Event('eip6963:requestProvider'));
</script></head><body>ok</body></html>`

let anvil: AnvilInstance
let server: Server
let origin: string
const accounts = anvilAccounts.slice(0, 2).map((a) => a.address as Hex)

test.beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId: 31337, quiet: true })
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await anvil?.stop()
})

const walletOptions = () => ({
  chains: [{ chainId: 31337, rpcUrl: anvil.url, name: 'Anvil' }],
  accounts,
})

test('window.ethereum answers and the wallet announces itself via EIP-6963', async ({ page }) => {
  await TestWallet.install(page, walletOptions())
  await page.goto(origin)
  expect(await page.evaluate(() => (window as any).ethereum.request({ method: 'eth_chainId' }))).toBe(
    '0x7a69',
  )
  expect(await page.evaluate(() => (window as any).ethereum.isMetaMask)).toBeUndefined()
  const announced = await page.evaluate(() => (window as any).__announced)
  expect(announced).toHaveLength(1)
  expect(announced[0]).toMatchObject({ name: 'Test Wallet', rdns: 'dev.guildhall.testwallet' })
  expect(announced[0].icon).toMatch(/^data:image\/svg\+xml;base64,/)
})

test('connects, signs through anvil, stays connected across a reload, scripted rejection', async ({
  page,
}) => {
  const wallet = await TestWallet.install(page, walletOptions())
  await page.goto(origin)
  const [connected, signature] = await page.evaluate(async (message) => {
    const eth = (window as any).ethereum
    const got = await eth.request({ method: 'eth_requestAccounts' })
    return [got, await eth.request({ method: 'personal_sign', params: [message, got[0]] })]
  }, toHex('hello from chromium'))
  expect(connected).toEqual(accounts)
  expect(
    await verifyMessage({
      address: accounts[0]!,
      message: 'hello from chromium',
      signature: signature as Hex,
    }),
  ).toBe(true)
  expect((await wallet.requests('personal_sign'))[0]?.params).toEqual([
    toHex('hello from chromium'),
    accounts[0],
  ])

  // Like MetaMask remembering the site's permission: eth_accounts is non-empty after a reload.
  await page.reload()
  expect(await page.evaluate(() => (window as any).ethereum.request({ method: 'eth_accounts' }))).toEqual(
    accounts,
  )
  expect(await wallet.state()).toMatchObject({ connected: true, chainId: 31337 })

  await wallet.rejectNext('connect')
  const outcome = await page.evaluate(async () => {
    const started = performance.now()
    try {
      await (window as any).ethereum.request({ method: 'eth_requestAccounts' })
      return { code: 0, ms: 0 }
    } catch (error) {
      return { code: (error as { code: number }).code, ms: performance.now() - started }
    }
  })
  expect(outcome.code).toBe(4001)
  expect(outcome.ms).toBeGreaterThanOrEqual(200)
})

test('absent: no window.ethereum and no announcement', async ({ page }) => {
  await TestWallet.install(page, { ...walletOptions(), absent: true })
  await page.goto(origin)
  expect(await page.evaluate(() => typeof (window as any).ethereum)).toBe('undefined')
  expect(await page.evaluate(() => (window as any).__announced)).toEqual([])
})
