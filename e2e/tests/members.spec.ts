// The members directory in the browser: it sorts, searches and pages over the demo DAO's members, each row
// opens the member's page, and it reads at phone width as well as at desktop width.

import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { Page } from '@playwright/test'
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { expect, member, resolvedNames, test } from '../support/fixtures.ts'
import { expectAddressesWhole } from './layout-helpers.ts'

// Its own worker (a chain of its own): the directory here holds 17 more holders than the demo's 8, 25 in
// all, as a DAO's first page of members does, which no other file's figures must see.
test.use({ appEnv: { DAO_DESCRIPTION: 'The DAO the members directory tests run against.' } })
const EXTRA_HOLDERS = 17

// The demo DAO: Ada (ada.eth) votes with her and Dev's tokens (1,250 GHD), Ben (ben.eth) with his and Eve's
// (850 GHD).
const ADA = 'ada.eth'
const BEN = 'ben.eth'
const BEN_ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

const rows = (page: Page) => page.getByTestId('member-row')
const powers = async (page: Page) =>
  (await page.getByTestId('member-power').allTextContents()).map((text) =>
    Number((/^([\d,.]+) GHD/.exec(text)?.[1] ?? 'NaN').replaceAll(',', '')),
  )

test.beforeAll(async ({ chains }) => {
  // The token's owner (anvil's account 0, the deployer) mints a few GHD to each new holder, one block each.
  const chain = defineChain({
    id: LOCAL_CHAIN_ID,
    name: 'Local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chains.dao.url] } },
  })
  const transport = http(chains.dao.url)
  const wallet = createWalletClient({ chain, transport, account: member(0) })
  const client = createPublicClient({ chain, transport, pollingInterval: 50 })
  for (let i = 1; i <= EXTRA_HOLDERS; i++) {
    const hash = await wallet.writeContract({
      address: chains.deployment.token,
      abi: governanceTokenAbi,
      functionName: 'mint',
      args: [`0x${'00'.repeat(19)}${(0xa0 + i).toString(16)}`, parseEther(String(i))],
      gas: 300_000n,
    })
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
  }
})

test.beforeEach(async ({ page, app }) => {
  // The server's token index has applied the demo's history.
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${app.url}/api/members`)).json()) as { members: [] }).members.length,
    )
    .toBeGreaterThanOrEqual(8 + EXTRA_HOLDERS)
  // The server's name refresher has looked Ada and Ben up.
  await resolvedNames(page, app, [member(1), member(2)])
})

test('the directory sorts, searches and pages', async ({ page, app }) => {
  await page.goto(`${app.url}/members?limit=3`)
  await expect(rows(page)).toHaveCount(3)
  await expect(rows(page).first()).toContainText(ADA)
  await expect(rows(page).first()).toContainText('1,250 GHD')
  await expect(rows(page).nth(1)).toContainText(BEN)

  // "Show more members" until the last page: every member once, heaviest first.
  const more = page.getByRole('button', { name: 'Show more members' })
  while (await more.isVisible()) {
    const before = await rows(page).count()
    await more.click()
    await expect.poll(() => rows(page).count()).toBeGreaterThan(before)
    await expect(page.getByRole('button', { name: 'Loading…' })).toHaveCount(0)
  }
  const all = await rows(page).count()
  expect(all).toBeGreaterThanOrEqual(8)
  const byPower = await powers(page)
  expect(byPower).toEqual([...byPower].sort((a, b) => b - a))
  const addresses = await rows(page).evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  expect(new Set(addresses).size).toBe(all)

  // By delegators: Ada (Dev delegates to her) and Ben (Eve) first, whatever the other tests delegated.
  await page.getByLabel('Order').selectOption('Most delegators')
  await expect(page).toHaveURL(/sort=delegators/)
  await expect(page.getByTestId('member-list')).toHaveAttribute('aria-busy', 'false')
  const delegators = (await page.getByTestId('member-delegators').allTextContents()).map(Number)
  expect(delegators).toEqual([...delegators].sort((a, b) => b - a))
  expect(delegators[0]).toBeGreaterThanOrEqual(1)
  await expect(
    rows(page)
      .filter({ hasText: ADA })
      .or(rows(page).filter({ hasText: BEN }))
      .first(),
  ).toBeVisible()

  // By participation: the first page of that order.
  await page.getByLabel('Order').selectOption('Highest participation')
  await expect(page).toHaveURL(/sort=participation/)
  await expect(page.getByTestId('member-list')).toHaveAttribute('aria-busy', 'false')
  await expect(rows(page)).toHaveCount(3)

  // Search by the start of an address, in any case, after the typing stops.
  await page.getByLabel('Search').fill(BEN_ADDRESS.slice(0, 8).toLowerCase())
  await expect(page).toHaveURL(/q=0x3c44cd/)
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toContainText(BEN)
  await page.getByLabel('Search').fill('ada.eth')
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toContainText(ADA)
  await page.getByLabel('Search').fill('')
  await expect(rows(page)).toHaveCount(3)

  // A row opens the member's page.
  await page.getByLabel('Search').fill(BEN_ADDRESS)
  await expect(rows(page)).toHaveCount(1)
  await rows(page).click()
  await expect(page).toHaveURL(new RegExp(`/members/${BEN_ADDRESS}$`))
  await expect(page.getByRole('heading', { level: 1, name: 'ben.eth' })).toBeVisible()
  await expect(page.getByTestId('member-address')).toHaveText(BEN_ADDRESS)
})

for (const width of [390, 1280]) {
  test(`the directory reads at ${width} px: no sideways scrolling, every figure labelled, no address broken`, async ({
    page,
    app,
  }) => {
    await page.setViewportSize({ width, height: 844 })
    await page.goto(`${app.url}/members`)
    await expect(rows(page).first()).toContainText(ADA)
    await expect(rows(page)).toHaveCount(8 + EXTRA_HOLDERS)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const first = rows(page).first()
    const boxes = await rows(page).evaluateAll((links) => links.map((link) => link.getBoundingClientRect()))
    const list = await page.getByTestId('member-list').boundingBox()
    if (width === 390) {
      // A compact row each: avatar, name and voting power on one line, the other figures, labelled, on one
      // line below. 25 members were a 6,000 px column of cards; now well under a third of that.
      await expect(page.locator('.member-head')).toBeHidden()
      await expect(first.getByText('Delegators', { exact: true })).toBeVisible()
      await expect(first.getByText('Participation', { exact: true })).toBeVisible()
      // The voting power's label is left to screen readers: the row's link names it.
      await expect(first).toHaveAccessibleName(/Voting power\s*1,250 GHD/)
      for (const row of boxes) expect(row.height, 'a row on a phone').toBeLessThanOrEqual(64)
      expect(list?.height ?? Number.POSITIVE_INFINITY, '25 rows').toBeLessThan(1_800)
      const more = first.locator('.member-more')
      const line = await more.evaluate((element) => ({
        height: element.getBoundingClientRect().height,
        lineHeight: Number.parseFloat(getComputedStyle(element).lineHeight),
      }))
      expect(line.height, 'the figures below the name: one line').toBeLessThanOrEqual(line.lineHeight + 1)
      // The voting power, its share and the name share the first line.
      const [who, power] = await Promise.all([
        first.locator('.member-who-name').boundingBox(),
        first.getByTestId('member-power').boundingBox(),
      ])
      expect(Math.abs((who?.y ?? 0) - (power?.y ?? 100))).toBeLessThanOrEqual(4)
      // A term at the line's end: its explanation, shown on focus, moves left to stay on the screen.
      const term = page.getByRole('link', { name: 'participation', exact: true })
      await term.focus()
      const tip = page.getByRole('tooltip').filter({ visible: true })
      await expect(tip).toHaveCount(1)
      const [termBox, tipBox] = await Promise.all([term.boundingBox(), tip.boundingBox()])
      expect(termBox?.x ?? 0, 'the term starts past the middle of the line').toBeGreaterThan(width / 2)
      expect(tipBox?.x ?? -1).toBeGreaterThanOrEqual(0)
      expect(
        (tipBox?.x ?? 0) + (tipBox?.width ?? width),
        'the explanation ends on the screen',
      ).toBeLessThanOrEqual(width)
      await term.blur()
    } else {
      await expect(page.locator('.member-head')).toBeVisible()
      // One line per member at desktop width, each figure in its header's column.
      for (const row of boxes) expect(row.height).toBeLessThan(80)
      const columns = await page
        .locator('.member-head > span')
        .evaluateAll((spans) => spans.map((span) => Math.round(span.getBoundingClientRect().left)))
      const figures = await first.locator(':scope > *, .member-more > *').evaluateAll((cells) =>
        cells
          .filter((cell) => !cell.classList.contains('member-more'))
          .map((cell) => Math.round(cell.getBoundingClientRect().left))
          .sort((a, b) => a - b),
      )
      expect(figures).toEqual(columns)
      await expect(first.getByTestId('member-delegators')).toBeVisible()
    }
    await expectAddressesWhole(page)
  })
}
