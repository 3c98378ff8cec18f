// A member's page in the browser, against the local name service (Ada is ada.eth): it opens from the
// directory and by name, and shows who the member is, their figures, voting power over time, votes and
// delegators; on your own page you sign, see and edit your delegate statement; it reads at phone and desktop
// width; an unknown name is said so.

import { glossaryEntry } from '@guildhall/core'
import type { Page } from '@playwright/test'
import { connect, expect, member, test } from '../support/fixtures.ts'
import { connectAndPropose, vote } from './governance-helpers.ts'
import { expectAddressesWhole } from './layout-helpers.ts'

const ADA = member(1)
const CLEO = member(3)

const header = (page: Page) => page.locator('.member-page-header')

/** Ada's page as anyone sees it: her name and avatar, her figures, her chart, her votes and Dev's delegation. */
async function expectAdasPage(page: Page, proposalTitle?: string) {
  await expect(header(page).getByRole('heading', { level: 1, name: 'ada.eth' })).toBeVisible()
  await expect(header(page).getByTestId('member-address')).toHaveText(ADA)
  // Her avatar is her record's image on the gateway, loaded, not the generated one.
  const avatar = header(page).locator('img.avatar')
  await expect(avatar).toHaveAttribute('width', '64')
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await expect(page.getByTestId('member-power')).toContainText(/1,250 GHD\s+\d/)
  await expect(page.getByTestId('member-delegators')).not.toHaveText('0')
  const chart = page.getByTestId('power-chart')
  await expect(chart.locator('svg path')).toHaveAttribute('d', /^M.+H/)
  await expect(chart.getByTestId('power-chart-summary')).toContainText('to 1,250 GHD')
  if (proposalTitle) {
    const ballot = page.getByTestId('member-vote').filter({ hasText: proposalTitle })
    await expect(ballot).toContainText(/For\s*·\s*1,250 GHD/)
    await expect(ballot.getByRole('link', { name: proposalTitle })).toHaveAttribute(
      'href',
      /^\/proposals\/0x[0-9a-f]{64}$/,
    )
  }
  await expect(
    page.getByTestId('member-delegator').filter({ hasText: 'dev.eth' }).getByTestId('member-name'),
  ).toHaveAttribute('href', `/members/${member(4)}`)
}

test.describe('Ada', () => {
  test.use({ walletOptions: { accounts: [ADA] } })

  test('her page opens from the directory and shows her name, avatar, power, chart, votes and delegators; her proposal is there', async ({
    page,
    app,
  }) => {
    const title = `Plant an orchard ${Date.now()}`
    await connectAndPropose(page, app, title)
    await vote(page, 'For')

    await page.getByRole('link', { name: 'Members', exact: true }).first().click()
    await page
      .getByTestId('member-row')
      .and(page.locator(`[href="/members/${ADA}"]`))
      .click()
    await expect(page).toHaveURL(new RegExp(`/members/${ADA}$`))
    await expectAdasPage(page, title)
    await expect(
      page.getByTestId('member-proposal').filter({ hasText: title }).getByText('Active'),
    ).toBeVisible()
  })
})

test('/members/ada.eth opens the same page; a name nobody has says so', async ({ page, app }) => {
  // A name opens a page once the server has looked its owner's address up (any page showing her asks).
  await expect
    .poll(
      async () => (await (await page.request.get(`${app.url}/api/names?addresses=${ADA}`)).json()).names[0],
    )
    .toMatchObject({ name: 'ada.eth', pending: false })
  await page.goto(`${app.url}/members/ada.eth`)
  await expectAdasPage(page)
  // Not her own page here: her statement is shown, not an editor.
  await expect(page.getByTestId('member-statement')).toBeVisible()
  await expect(page.getByTestId('statement-editor')).toHaveCount(0)

  await page.goto(`${app.url}/members/nobody.eth`)
  await expect(page.getByRole('heading', { level: 1, name: 'No such member' })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveText('No member is named nobody.eth.')
})

for (const width of [390, 1280]) {
  test(`a member page reads at ${width} px: no sideways scrolling`, async ({ page, app }) => {
    await page.setViewportSize({ width, height: 844 })
    await page.goto(`${app.url}/members/${ADA}`)
    await expect(page.getByTestId('power-chart')).toBeVisible()
    await expect(page.getByTestId('member-delegator').first()).toBeVisible()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    // Her full address wraps, if at all, between its halves.
    await expect(page.getByTestId('member-address')).toHaveText(ADA)
    await expectAddressesWhole(page)
  })
}

test.describe('Cleo', () => {
  test.use({ walletOptions: { accounts: [CLEO] } })

  test('from the Overview to her own page, she signs a statement, sees it rendered without its script, and edits it into a new version', async ({
    page,
    app,
  }) => {
    await connect(page, app, '/')
    await page.getByTestId('my-account').getByRole('link', { name: 'Your member page' }).click()
    await expect(page).toHaveURL(new RegExp(`/members/${CLEO}$`))
    await expect(header(page).getByRole('heading', { level: 1, name: 'cleo.eth' })).toBeVisible()

    const editor = page.getByTestId('statement-editor')
    const textarea = editor.getByLabel(/Who you are/)
    await expect(textarea).toBeEnabled()
    await textarea.fill(
      '## Cleo for delegate\n\nI read **every** proposal. <img src=x onerror="window.hacked = true">',
    )
    await expect(editor.getByTestId('statement-size')).toContainText('/ 10,000 characters')
    await editor.getByRole('button', { name: 'Preview' }).click()
    await expect(
      editor.getByTestId('statement-preview').getByRole('heading', { name: 'Cleo for delegate' }),
    ).toBeVisible()
    await editor.getByRole('button', { name: 'Sign and publish' }).click()
    await expect(editor.getByRole('status')).toHaveText(
      'Your statement is published. Sign a new version to change it.',
    )

    const shown = editor.getByTestId('delegate-statement')
    await expect(shown.getByRole('heading', { name: 'Cleo for delegate' })).toBeVisible()
    await expect(shown.locator('strong')).toHaveText('every')
    await expect(shown.locator('[onerror]')).toHaveCount(0)
    expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined()
    const firstEntry = await shown.getByText(/governance log entry \d+/).textContent()
    // "Governance log entry" is explained as on a proposal's page: the same term, linked to the glossary.
    const entryTerm = shown.getByRole('link', { name: /^governance log entry \d+$/ })
    await expect(entryTerm).toHaveAttribute('href', '/glossary#log-entry')
    await expect(entryTerm).toHaveAccessibleDescription(glossaryEntry('log-entry').short)
    await entryTerm.focus()
    await expect(shown.getByRole('tooltip')).toHaveText(glossaryEntry('log-entry').short)

    await editor.getByRole('button', { name: 'Edit statement' }).click()
    await editor.getByLabel(/Who you are/).fill('## Cleo for delegate\n\nI explain each vote.')
    await editor.getByRole('button', { name: 'Sign and publish new version' }).click()
    await expect(shown.getByText('I explain each vote.')).toBeVisible()
    await expect(shown.getByText(/governance log entry \d+/)).not.toHaveText(firstEntry ?? '')
    // The server answers the latest version, and anyone opening her page reads it.
    const answer = await page.request.get(`${app.url}/api/delegates/${CLEO}/statement`)
    expect((await answer.json()).message.statement).toBe('## Cleo for delegate\n\nI explain each vote.')
    const member = await page.request.get(`${app.url}/api/members/cleo.eth`)
    expect((await member.json()).statement.message.statement).toBe(
      '## Cleo for delegate\n\nI explain each vote.',
    )
  })
})
