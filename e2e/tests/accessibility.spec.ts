// axe-core (@axe-core/playwright) finds no WCAG 2.0–2.2 A/AA or best-practice violation on any page
// (disconnected), on the open connect modal, or on the connected overview; light scheme, and the dark
// scheme for the app's own pages.
import type { Page } from '@playwright/test'
import { connect, connectButton, expect, member, test } from '../support/fixtures.ts'
import { axeFindings, type KnownIssue } from './axe-helpers.ts'
import { connectDialog, walletOption } from './connect-helpers.ts'

/**
 * In RainbowKit 2.2.11's own markup, not fixable without a fork. Its AsyncImage (the wallet icons in the
 * list, the "What is a Wallet?" pictures) is a `<div role="img">` that gets an aria-label only when the
 * caller passes `alt`, which the connect modal's callers do not; the `<img>` inside is aria-hidden. So
 * each icon is an image without a name (WCAG 1.1.1), though the wallet's name is the text beside it.
 * Upstream: rainbow-me/rainbowkit#1092 (axe on the open connect modal: contrast and missing labels),
 * closed with the contrast left to app themes (done here, wallet-kit/theme.ts) and the labels unfixed.
 */
const RAINBOWKIT_UNNAMED_ICONS: KnownIssue = {
  rule: 'role-img-alt',
  selector: '[data-rk] div[role="img"]:not([aria-label]):has(> img[aria-hidden="true"])',
}

const PAGES = [
  { path: '/', heading: 'Guildhall Test DAO' },
  { path: '/proposals', heading: 'Proposals' },
  { path: '/discussions', heading: 'Discussions' },
  { path: '/members', heading: 'Members' },
  { path: `/members/${member(1)}`, heading: 'ada.eth' },
  { path: '/treasury', heading: 'Treasury' },
  { path: '/account/sessions', heading: 'Your sessions' },
  { path: '/no-such-page', heading: 'Page not found' },
  { path: '/glossary', heading: 'Glossary' },
  { path: '/moderation', heading: 'Moderation' },
]

/**
 * Opens a page and waits until it shows what it will show (the overview: its live token figures; the
 * directory: its rows; a member page: their name, looked up on the first visit, and their chart; the
 * treasury: that none is configured).
 */
async function openPage(page: Page, url: string, heading: string) {
  await page.goto(url)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading, { timeout: 15_000 })
  await expect(connectButton(page)).toBeVisible()
  if (heading === 'Guildhall Test DAO') await expect(page.getByTestId('token-holders')).toHaveText('8')
  if (heading === 'Members') await expect(page.getByTestId('member-row').first()).toBeVisible()
  if (heading === 'ada.eth') await expect(page.getByTestId('power-chart')).toBeVisible()
  // Here without a treasury Safe configured (treasury.spec.ts checks the page with one).
  if (heading === 'Treasury') await expect(page.getByTestId('treasury-none')).toBeVisible()
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme })

    for (const { path, heading } of PAGES) {
      test(`${path} has no axe violations (disconnected, ${colorScheme})`, async ({ page, app }) => {
        await openPage(page, `${app.url}${path}`, heading)
        expect((await axeFindings(page)).findings).toEqual([])
      })
    }

    test(`a term's explanation, shown on keyboard focus, has no axe violations (${colorScheme})`, async ({
      page,
      app,
    }) => {
      await openPage(page, `${app.url}/members`, 'Members')
      await page.getByRole('link', { name: 'Voting power', exact: true }).focus()
      await expect(page.getByRole('tooltip').first()).toBeVisible()
      expect((await axeFindings(page)).findings).toEqual([])
    })

    test(`the connected overview has no axe violations (${colorScheme})`, async ({ page, app }) => {
      await connect(page, app)
      await expect(page.getByTestId('my-balance')).toBeVisible()
      await expect(page.getByTestId('delegate-status')).toBeVisible()
      expect((await axeFindings(page)).findings).toEqual([])
    })
  })
}

test('the open connect modal has no axe violations but RainbowKit’s unnamed wallet icons (light)', async ({
  page,
  app,
}) => {
  await page.goto(app.url)
  await connectButton(page).click()
  await expect(connectDialog(page).getByRole('heading', { name: 'Connect a Wallet' })).toBeVisible()
  await expect(walletOption(page, 'development')).toBeVisible()
  const { findings, excused } = await axeFindings(page, [RAINBOWKIT_UNNAMED_ICONS])
  expect(findings).toEqual([])
  // The icons are still unnamed: when RainbowKit names them, this exception goes.
  expect(excused).toBeGreaterThan(0)
})
