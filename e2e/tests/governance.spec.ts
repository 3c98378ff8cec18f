// Governance in the browser (issue 5): a member writes a proposal, votes, changes the vote and sees the
// results; a member without voting power is told why; a member on another chain is led through the
// switch; the recount in the browser says "matches", and reports a vote altered in the database.

import type { Page } from '@playwright/test'
import { sql } from 'drizzle-orm'
import { connect, expect, member, SECOND_CHAIN_ID, test } from '../support/fixtures.ts'

const ADA = member(1)
const FINN = member(6)

async function newProposal(page: Page, title: string) {
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  await page
    .getByLabel(/Description/)
    .fill('## Why\n\nThe **roof** leaks. <script>window.hacked = true</script>')
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}

// Ada (account 1) votes with her and Dev's tokens: 1,250 GHD.
test.use({ walletOptions: { accounts: [ADA, FINN] } })

const results = (page: Page) => page.getByTestId('results')
const votePanel = (page: Page) => page.getByTestId('vote-panel')

test('a member creates a proposal, votes, changes the vote and sees the results; the recount matches', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Repair the roof')
  // Markdown is rendered, and the script in it is removed.
  await expect(page.getByTestId('proposal-body').getByRole('heading', { name: 'Why' })).toBeVisible()
  expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined()

  await expect(votePanel(page).getByTestId('voting-power')).toContainText('1,250 GHD')
  await votePanel(page).getByLabel('For').check()
  await votePanel(page).getByRole('button', { name: 'Vote' }).click()
  await expect(votePanel(page).getByRole('status')).toHaveText(
    'Your vote is recorded. You can change it until voting ends.',
  )
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted For')
  await expect(results(page)).toContainText('For · 1,250 GHD · 100.00 %')

  await votePanel(page).getByLabel('Against').check()
  await votePanel(page).getByRole('button', { name: 'Change vote' }).click()
  await expect(votePanel(page).getByTestId('my-vote')).toContainText('You voted Against')
  await expect(results(page)).toContainText('Against · 1,250 GHD · 100.00 %')
  await expect(results(page)).toContainText('For · 0 GHD · 0.00 %')
  await expect(results(page).getByTestId('quorum')).toContainText('reached')

  await page.getByRole('button', { name: 'Verify this result' }).click()
  await expect(page.getByTestId('recount-result')).toHaveText(
    'The result matches: 2 vote signatures checked, 1 vote counted.',
  )
  await page.getByRole('link', { name: '← Proposals' }).click()
  await expect(page.getByRole('link', { name: /Repair the roof/ })).toBeVisible()
})

test("a proposal's page fetches its detail once, preloaded beside the app's code, not after it", async ({
  page,
  app,
  browser,
}) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Mend the gate')
  const url = page.url()
  const id = url.split('/').pop()
  // A first visit by someone else: a fresh context, nothing cached.
  const visitor = await browser.newContext({ locale: 'en-US' })
  await visitor.route(
    (u) => u.hostname !== '127.0.0.1',
    (route) => route.abort('blockedbyclient'),
  )
  try {
    const visit = await visitor.newPage()
    const requested: string[] = []
    visit.on('request', (request) => requested.push(new URL(request.url()).pathname))
    await visit.goto(url)
    await expect(visit.getByRole('heading', { level: 1, name: 'Mend the gate' })).toBeVisible()
    await visit.waitForLoadState('networkidle')
    const detail = requested.filter((path) => path === `/api/proposals/${id}`)
    expect(detail).toHaveLength(1)
    const pageCode = requested.findIndex((path) => /\/assets\/proposal-page-[\w-]+\.js$/.test(path))
    expect(pageCode).toBeGreaterThan(-1)
    expect(requested.indexOf(`/api/proposals/${id}`)).toBeLessThan(pageCode)
  } finally {
    await visitor.close()
  }
})

test('a member with no voting power at the snapshot is told why, and the Vote button is disabled', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Plant a tree')
  await wallet.setAccounts([FINN])
  await expect(votePanel(page).getByTestId('zero-power-reason')).toContainText('had not delegated them')
  await expect(votePanel(page).getByRole('button', { name: 'Vote' })).toBeDisabled()
  await expect(votePanel(page)).toContainText('You have no voting power on this proposal.')
})

test('a member on another chain is led through the switch before signing', async ({ page, app, wallet }) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Paint the hall')
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
  await connect(page, app, '/proposals')
  await newProposal(page, 'Buy chairs')
  await votePanel(page).getByLabel('For').check()
  await votePanel(page).getByRole('button', { name: 'Vote' }).click()
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
