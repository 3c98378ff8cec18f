// The members directory in the browser: it sorts, searches and pages over the demo DAO's members, each row
// opens the member's page, and it reads at phone width as well as at desktop width.

import type { Page } from '@playwright/test'
import { expect, member, resolvedNames, test } from '../support/fixtures.ts'

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

test.beforeEach(async ({ page, app }) => {
  // The server's token index has applied the demo's history.
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${app.url}/api/members`)).json()) as { members: [] }).members.length,
    )
    .toBeGreaterThanOrEqual(8)
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
  test(`the directory reads at ${width} px: no sideways scrolling, every figure labelled`, async ({
    page,
    app,
  }) => {
    await page.setViewportSize({ width, height: 844 })
    await page.goto(`${app.url}/members`)
    await expect(rows(page).first()).toContainText(ADA)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const first = rows(page).first()
    if (width === 390) {
      // Cards: the labels sit beside each figure; the table's header row is hidden.
      await expect(first.getByText('Voting power', { exact: true })).toBeVisible()
      await expect(first.getByText('Participation', { exact: true })).toBeVisible()
    } else {
      await expect(page.locator('.member-head')).toBeVisible()
      const box = await first.boundingBox()
      // One line per member at desktop width.
      expect(box?.height ?? 0).toBeLessThan(80)
    }
  })
}
