// Governance in the browser: a member writes a proposal, votes, changes the vote and sees the
// results; a member without voting power is told why; a member on another chain is led through the
// switch; the recount in the browser says "matches", and reports a vote altered in the database.

import { glossaryEntry } from '@guildhall/core'
import type { Page } from '@playwright/test'
import { sql } from 'drizzle-orm'
import { type App, expect, member, SECOND_CHAIN_ID, test } from '../support/fixtures.ts'
import { connectAndPropose, vote, votePanel } from './governance-helpers.ts'

const ADA = member(1)
const BEN = member(2)
const FINN = member(6)
const IRIS = member(9)

/** Connects Ada and writes a proposal whose description has Markdown and a script in it. */
const propose = (page: Page, app: App, title: string) =>
  connectAndPropose(page, app, title, '## Why\n\nThe **roof** leaks. <script>window.hacked = true</script>')

// Ada (account 1) votes with her and Dev's tokens: 1,250 GHD.
test.use({ walletOptions: { accounts: [ADA, FINN] } })

const results = (page: Page) => page.getByTestId('results')

test('a member creates a proposal, votes, changes the vote and sees the results; the recount matches', async ({
  page,
  app,
  wallet,
}) => {
  await propose(page, app, 'Repair the roof')
  // Markdown is rendered, and the script in it is removed.
  await expect(page.getByTestId('proposal-body').getByRole('heading', { name: 'Why' })).toBeVisible()
  expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined()

  await expect(votePanel(page).getByTestId('voting-power')).toContainText('1,250 GHD')
  await vote(page, 'For')
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted For')
  await expect(results(page)).toContainText('For · 1,250 GHD · 100.00 %')

  await votePanel(page).getByLabel('Against').check()
  await votePanel(page).getByRole('button', { name: 'Change vote' }).click()
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted Against')
  await expect(results(page)).toContainText('Against · 1,250 GHD · 100.00 %')
  await expect(results(page)).toContainText('For · 0 GHD · 0.00 %')
  await expect(results(page).getByTestId('quorum')).toContainText('reached')

  // The votes list follows: one counting vote, Ada's latest; filters narrow it.
  const votes = page.getByTestId('votes-list')
  await expect(votes.getByRole('listitem')).toHaveCount(1)
  await expect(votes.getByRole('listitem')).toContainText(/ada\.eth\s*Against\s*1,250 GHD/)
  await votes.getByLabel('Choice').selectOption('For')
  await expect(votes).toContainText('No votes match.')
  await votes.getByLabel('Choice').selectOption('Against')
  await expect(votes.getByRole('listitem')).toHaveCount(1)
  await votes.getByLabel('Voter').fill('0x70997970')
  await expect(votes.getByRole('listitem')).toHaveCount(1)
  await votes.getByLabel('Voter').fill('0x1234')
  await expect(votes).toContainText('No votes match.')
  await votes.getByLabel('Voter').fill('ada')
  await expect(votes).toContainText('Search by the start of an address')

  // The recount's recovery workers fetch the WebAssembly recovery (ADR 083).
  const wasm = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('.wasm'))
  await page.getByRole('button', { name: 'Verify this result' }).click()
  await expect(page.getByTestId('recount-result')).toHaveText(
    'The result matches: 2 vote signatures checked, 1 vote counted.',
  )
  expect((await wasm).headers()['content-type']).toBe('application/wasm')
  await page.getByRole('link', { name: '← Proposals' }).click()
  await expect(page.getByRole('link', { name: /Repair the roof/ })).toBeVisible()
})

/** Where the heading's parts are: what must not move when the app replaces the server's shell. */
const headingBoxes = (page: Page) =>
  page.locator('.page-header > *').evaluateAll((elements) =>
    elements.map((element) => {
      const { x, y, width, height } = element.getBoundingClientRect()
      return `${element.tagName} ${[x, y, width, height].map((n) => n.toFixed(1)).join(' ')}`
    }),
  )

test("a proposal's page: its heading comes with the page and stays in place, and its detail is fetched once, beside the app's code", async ({
  page,
  app,
  browser,
}) => {
  await propose(page, app, 'Mend the <gate> & the "fence"')
  const url = page.url()
  const id = url.split('/').pop()
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 800 },
  ]) {
    // The page as the server sends it, before any script runs: the heading is there.
    const withoutScript = await browser.newContext({ javaScriptEnabled: false, viewport, locale: 'en-US' })
    const shell = await withoutScript.newPage()
    await shell.goto(url)
    const heading = shell.locator('.page-header')
    await expect(heading.getByRole('heading', { level: 1 })).toHaveText('Mend the <gate> & the "fence"')
    await expect(heading.locator('.state')).toHaveText('Active')
    // As read: the snapshot block's explanation shows only on hover or focus.
    await expect(heading.locator('p.muted')).toHaveText(
      /^By 0x\w{2}…\w{4} · Voting ends in \d+ (hours|days) · snapshot block \d+$/,
      { useInnerText: true },
    )
    await expect(heading.getByRole('link', { name: /^snapshot block \d+$/ })).toHaveAccessibleDescription(
      glossaryEntry('snapshot-block').short,
    )
    const shellLayout = await headingBoxes(shell)
    await withoutScript.close()

    // A first visit by someone else: a fresh context, nothing cached.
    const visitor = await browser.newContext({ viewport, locale: 'en-US' })
    await visitor.route(
      (u) => u.hostname !== '127.0.0.1',
      (route) => route.abort('blockedbyclient'),
    )
    try {
      const visit = await visitor.newPage()
      // Counts every moment the title is not on the page, from the first parse on.
      await visit.addInitScript(() => {
        const w = window as typeof window & { headingGone?: number }
        w.headingGone = 0
        let seen = false
        new MutationObserver(() => {
          const there = document.querySelector('.page-header h1') !== null
          if (there) seen = true
          else if (seen) w.headingGone = (w.headingGone ?? 0) + 1
        }).observe(document, { subtree: true, childList: true })
      })
      const requested: string[] = []
      visit.on('request', (request) => requested.push(new URL(request.url()).pathname))
      await visit.goto(url)
      await expect(visit.getByTestId('results')).toBeVisible()
      await visit.waitForLoadState('networkidle')
      expect(await headingBoxes(visit)).toEqual(shellLayout)
      expect(await visit.evaluate(() => (window as { headingGone?: number }).headingGone)).toBe(0)
      // The detail once, requested from the page's head before the page's code.
      expect(requested.filter((path) => path === `/api/proposals/${id}`)).toHaveLength(1)
      const pageCode = requested.findIndex((path) => /\/assets\/proposal-page-[\w-]+\.js$/.test(path))
      expect(pageCode).toBeGreaterThan(-1)
      expect(requested.indexOf(`/api/proposals/${id}`)).toBeLessThan(pageCode)
    } finally {
      await visitor.close()
    }
  }
})

test("a proposal's terms explain themselves on keyboard focus and on hover, Escape hides the explanation, and each links to its glossary entry", async ({
  page,
  app,
}) => {
  await propose(page, app, 'Light the porch')
  const heading = page.locator('.page-header')
  const term = heading.getByRole('link', { name: /^snapshot block \d+$/ })
  const tip = heading.getByRole('tooltip')
  const explanation = glossaryEntry('snapshot-block').short
  await expect(tip).toBeHidden()
  // Keyboard: Tab from the author's name reaches the term; its explanation shows, and describes it.
  await heading.getByTestId('member-name').focus()
  await page.keyboard.press('Tab')
  await expect(term).toBeFocused()
  await expect(tip).toBeVisible()
  await expect(tip).toHaveText(explanation)
  await expect(term).toHaveAccessibleDescription(explanation)
  // Whole on the screen, right below the term.
  const [termBox, tipBox] = await Promise.all([term.boundingBox(), tip.boundingBox()])
  expect(tipBox?.y ?? 0).toBeGreaterThanOrEqual((termBox?.y ?? 0) + (termBox?.height ?? 0) - 1)
  expect((tipBox?.x ?? 0) + (tipBox?.width ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0)
  await page.keyboard.press('Escape')
  await expect(tip).toBeHidden()
  await expect(term).toBeFocused()
  // Hover: shown, and it stays while the pointer moves onto it.
  await page.mouse.move(0, 0)
  await term.hover()
  await expect(tip).toBeVisible()
  await tip.hover()
  await expect(tip).toBeVisible()
  await page.mouse.move(0, 0)
  await term.blur()
  await expect(tip).toBeHidden()
  // The same component for the other terms of the page: quorum, voting power, recount.
  for (const [scope, name, id] of [
    ['results', 'Quorum', 'quorum'],
    ['vote-panel', 'voting power', 'voting-power'],
    ['verify', 'recount', 'recount'],
  ] as const) {
    const other = page.getByTestId(scope).getByRole('link', { name, exact: true })
    await expect(other).toHaveAttribute('href', `/glossary#${id}`)
    await expect(other).toHaveAccessibleDescription(glossaryEntry(id).short)
  }
  // The link opens the glossary at the term: its heading in view and focused.
  await term.click()
  await expect(page).toHaveURL(`${app.url}/glossary#snapshot-block`)
  const entry = page.getByRole('heading', { level: 2, name: 'Snapshot block' })
  await expect(entry).toBeFocused()
  await expect(entry).toBeInViewport()
  await expect(page.getByRole('region', { name: 'Snapshot block' })).toContainText(explanation)
})

test('a member with no voting power at the snapshot is told why, and the Vote button is disabled', async ({
  page,
  app,
  wallet,
}) => {
  await propose(page, app, 'Plant a tree')
  await wallet.setAccounts([FINN])
  await expect(votePanel(page).getByTestId('zero-power-reason')).toContainText('had not delegated them')
  await expect(votePanel(page).getByRole('button', { name: 'Vote' })).toBeDisabled()
  await expect(votePanel(page)).toContainText('You have no voting power on this proposal.')
})

test("the vote panel starts afresh for another account: none of Ada's choices, vote or status carry over", async ({
  page,
  app,
  wallet,
}) => {
  await propose(page, app, 'Fix the gate')
  await vote(page, 'For')
  await expect(votePanel(page).getByLabel('For')).toBeChecked()

  // Ben (850 GHD at the snapshot) has not voted: his panel has nothing of Ada's.
  await wallet.setAccounts([BEN])
  await expect(votePanel(page).getByTestId('voting-power')).toContainText('850 GHD')
  await expect(votePanel(page).getByRole('radio')).toHaveCount(3)
  await expect(votePanel(page).getByRole('radio', { checked: true })).toHaveCount(0)
  await expect(votePanel(page).getByRole('status')).toHaveCount(0)
  await expect(votePanel(page).getByTestId('my-vote')).toHaveCount(0)
  await expect(votePanel(page).getByRole('button', { name: 'Vote', exact: true })).toBeDisabled()

  // Ben picks Against but does not vote; Iris (no tokens) sees only why she cannot vote.
  await votePanel(page).getByLabel('Against').check()
  await wallet.setAccounts([IRIS])
  await expect(votePanel(page).getByTestId('zero-power-reason')).toBeVisible()
  await expect(votePanel(page)).toContainText('You have no voting power on this proposal.')
  await expect(votePanel(page).getByRole('status')).toHaveCount(0)
  await expect(votePanel(page).getByTestId('my-vote')).toHaveCount(0)
  await expect(votePanel(page).getByRole('radio', { checked: true })).toHaveCount(0)
  await expect(votePanel(page).getByRole('checkbox', { checked: true })).toHaveCount(0)

  // Back to Ada: her recorded vote is read from the server, her old status and picks are gone.
  await wallet.setAccounts([ADA])
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted For')
  await expect(votePanel(page).getByRole('status')).toHaveCount(0)
  await expect(votePanel(page).getByRole('radio', { checked: true })).toHaveCount(0)
})

test('a member on another chain is led through the switch before signing', async ({ page, app, wallet }) => {
  await propose(page, app, 'Paint the hall')
  await wallet.switchChain(SECOND_CHAIN_ID)
  await votePanel(page).getByLabel('For').check()
  await votePanel(page)
    .getByRole('button', { name: /^Switch to .* to vote$/ })
    .click()
  await votePanel(page).getByRole('button', { name: 'Vote' }).click()
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted For')
})

test('a vote altered in the database makes the recount report the difference', async ({
  page,
  app,
  wallet,
}) => {
  await propose(page, app, 'Buy chairs')
  await vote(page, 'For')
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted For')
  const id = page.url().split('/').at(-1) as string

  // Someone with database access flips the stored vote to Against.
  await app.database.db.execute(
    sql`update votes set message = jsonb_set(message, '{choices}', '[2]') where proposal_id = ${id}`,
  )
  await page.getByRole('button', { name: 'Verify this result' }).click()
  const result = page.getByTestId('recount-result')
  await expect(result).toContainText('The result differs from the published one')
  await expect(result).toContainText(
    'does not match its id: its choices, reason or time were changed after signing',
  )
})
