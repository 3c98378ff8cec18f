// The Treasury page against the real app on the demo chain: the demo's treasury Safe (2 of 3: Ada, Ben,
// Cleo) read by the server from anvil, through a JSON-RPC proxy this file controls, so the Safe's reads can
// fail (the proxy refuses every call that names the Safe) and come back.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import { DEMO_PAYEES, type DemoTreasury, ensureDemoTreasury } from '@guildhall/devchain/safe'
import { test as base, expect, member } from '../support/fixtures.ts'
import { axeFindings } from './axe-helpers.ts'
import { expectAddressesWhole } from './layout-helpers.ts'

const ADA = member(1)
const BEN = member(2)
const CLEO = member(3)

const test = base.extend<object, { treasury: DemoTreasury; safeRpc: RecordingProxy }>({
  treasury: [
    // The demo's treasury and its history (payouts, an owner added and removed, a failed execution), on
    // this worker's chain: every step dated now, as this chain's clock starts now.
    async ({ chains }, use) =>
      use(
        await ensureDemoTreasury({
          rpcUrl: chains.dao.url,
          chainId: LOCAL_CHAIN_ID,
          governanceToken: chains.deployment.token,
        }),
      ),
    { scope: 'worker' },
  ],
  safeRpc: [
    async ({ chains }, use) => {
      const proxy = await startRecordingProxy(chains.dao.url)
      await use(proxy)
      await proxy.close()
    },
    { scope: 'worker' },
  ],
  appEnv: [
    async ({ treasury, safeRpc }, use) =>
      use({
        [`RPC_URL_${LOCAL_CHAIN_ID}`]: safeRpc.url,
        TREASURY_SAFE: treasury.safe.address,
        TREASURY_TOKENS: treasury.tokens.join(','),
        TREASURY_START_BLOCK: String(treasury.startBlock),
      }),
    { scope: 'worker' },
  ],
})

/** Refuses, as a node that is down would, every call that names the Safe; `false` lets them through again. */
function failSafeReads(proxy: RecordingProxy, safe: string, failing: boolean) {
  const needle = safe.slice(2).toLowerCase()
  proxy.refuse = (call) =>
    failing && JSON.stringify(call.params).toLowerCase().includes(needle)
      ? { status: 503, body: 'Service Unavailable' }
      : undefined
}

test('the demo treasury: its Safe with "2 of 3 signers" by name, nonce and block; its assets; its payouts in the history, executed outside Guildhall; every kind of row under its filter', async ({
  page,
  app,
  treasury,
}) => {
  await page.goto(`${app.url}/treasury`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Treasury')
  await expect(page.getByTestId('treasury-address')).toHaveText(treasury.safe.address)
  await expect(page.getByTestId('treasury-threshold')).toHaveText('2 of 3 signers')
  const signers = page.getByRole('list', { name: 'Signers' }).getByRole('link')
  await expect(signers).toHaveCount(3)
  for (const [index, owner] of [ADA, BEN, CLEO].entries())
    await expect(signers.nth(index)).toHaveAttribute('href', `/members/${owner}`)
  await expect(signers.first()).toHaveText('ada.eth')
  // Five executions (three payouts, the owner added and removed) and the failed one each used a nonce.
  await expect(page.getByTestId('treasury-nonce')).toHaveText('6')
  await expect(page.getByTestId('treasury-block')).toHaveText(/^as of block [\d,]+$/)
  const assets = page.getByTestId('treasury-asset')
  await expect(assets).toHaveCount(3)
  // 250,000 funded + 50,000 + 25,000 + 30,000 in; 12,000 + 8,000 + 15,000 + 9,500 paid out.
  await expect(assets.filter({ hasText: 'USDG' })).toContainText('310,500 USDG')
  // The index reaches the last payout: 9,500 USDG to the events payee, in an execution the app did not queue.
  const rows = page.getByTestId('treasury-row')
  await expect(rows.filter({ hasText: '9,500 USDG' }).first()).toBeVisible({ timeout: 30_000 })
  await expect(rows.filter({ hasText: '9,500 USDG' }).first().getByRole('link')).toHaveAttribute(
    'href',
    `/members/${DEMO_PAYEES.events}`,
  )
  await expect(page.getByTestId('treasury-row-outside').first()).toHaveText('executed outside Guildhall')
  for (const [direction, kinds] of [
    ['incoming', ['incoming']],
    ['outgoing', ['outgoing']],
    ['settings', ['settings']],
    ['executions', ['execution', 'execution-failed']],
  ] as const) {
    await page.getByLabel('Show').selectOption(direction)
    await expect(page).toHaveURL(new RegExp(`direction=${direction}`))
    for (const kind of kinds)
      await expect(rows.and(page.locator(`[data-kind="${kind}"]`)).first()).toBeVisible()
    expect(
      new Set(await rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-kind')))),
    ).toEqual(new Set(kinds))
  }
  // The charts draw from the same index.
  await expect(page.getByTestId('treasury-balance-chart')).toBeVisible()
  await expect(page.getByTestId('treasury-flows-chart-summary')).toContainText('came in')
})

test('the history pages with "Show more history" at the page size in the URL, filters by token, and its CSV link carries the filter', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/treasury?limit=2`)
  const rows = page.getByTestId('treasury-row')
  await expect(rows).toHaveCount(2, { timeout: 30_000 })
  const firstPage = await rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-id')))
  await page.getByRole('button', { name: 'Show more history' }).click()
  await expect(rows).toHaveCount(4)
  // The first page stays as it was, the next follows it with other rows.
  const bothPages = await rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-id')))
  expect(bothPages.slice(0, 2)).toEqual(firstPage)
  expect(new Set(bothPages).size).toBe(4)
  await page.getByLabel('Show').selectOption('outgoing')
  await page.getByLabel('Token').selectOption({ label: 'USDG' })
  await expect(page).toHaveURL(/direction=outgoing/)
  await expect(rows.first()).toContainText('9,500 USDG')
  for (const text of await rows.allTextContents()) expect(text).toMatch(/ USDG/)
  const csv = page.getByTestId('treasury-csv')
  await expect(csv).toHaveAttribute(
    'href',
    /^\/api\/treasury\/history\.csv\?direction=outgoing&token=0x[0-9a-fA-F]{40}$/,
  )
  const answer = await page.request.get(`${app.url}${await csv.getAttribute('href')}`)
  expect(answer.status()).toBe(200)
  // A header line, then the four USDG payments out (12,000, 8,000, 15,000, 9,500).
  expect((await answer.text()).trim().split('\n')).toHaveLength(5)
})

test('the treasury page reads at 390 px: no sideways scrolling, addresses whole', async ({ page, app }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${app.url}/treasury`)
  await expect(page.getByTestId('treasury-row').first()).toBeVisible({ timeout: 30_000 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await expectAddressesWhole(page)
})

for (const colorScheme of ['light', 'dark'] as const)
  test(`the treasury page with its Safe has no axe violations (${colorScheme})`, async ({ page, app }) => {
    await page.emulateMedia({ colorScheme })
    await page.goto(`${app.url}/treasury`)
    await expect(page.getByTestId('treasury-row').first()).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('treasury-flows-chart')).toBeVisible()
    expect((await axeFindings(page)).findings).toEqual([])
  })

// Last in the file: the server's treasury index, whose reads of the Safe fail too, backs off meanwhile (up to a
// minute), which the tests above would wait for. The summary is read live, once per block for every request
// at that block, so a block is mined for the server to read the Safe again.
test('when the Safe cannot be read the page says "Could not load Safe information"; Retry reads it again once the node answers', async ({
  page,
  app,
  chains,
  treasury,
  safeRpc,
}) => {
  failSafeReads(safeRpc, treasury.safe.address, true)
  await fetch(chains.dao.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
  })
  await page.goto(`${app.url}/treasury`)
  await expect(page.getByRole('alert')).toHaveText('Could not load Safe information')
  await expect(page.getByTestId('treasury-threshold')).toHaveCount(0)
  const retry = page.getByRole('button', { name: 'Retry' })
  // Still down: Retry asks again and the page says the same.
  const again = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/treasury')
  await retry.click()
  expect((await again).status()).toBe(503)
  await expect(page.getByRole('alert')).toHaveText('Could not load Safe information')
  failSafeReads(safeRpc, treasury.safe.address, false)
  await retry.click()
  await expect(page.getByTestId('treasury-threshold')).toHaveText('2 of 3 signers')
  await expect(page.getByText('Could not load Safe information')).toHaveCount(0)
})
