// A member's page in the browser, against the local name service (Ada is ada.eth): it opens from the
// directory and by name, and shows who the member is, their figures, voting power over time, votes and
// delegators; on your own page you sign, see and edit your delegate statement; it reads at phone and desktop
// width; an unknown name is said so.

import { glossaryEntry, powerHistorySchema } from '@guildhall/core'
import type { Page } from '@playwright/test'
import { connect, expect, member, resolvedNames, test } from '../support/fixtures.ts'
import { connectAndPropose, vote } from './governance-helpers.ts'
import { expectAddressesWhole } from './layout-helpers.ts'

const ADA = member(1)
const CLEO = member(3)
const DEV = member(4)
const FINN = member(6)

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
  // A step line (the chart library's path: moves along, then up or down), not an empty one.
  await expect(chart.locator('svg path.chart-line')).toHaveAttribute(
    'd',
    /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){2,}$/,
  )
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
    // Her own page: she delegates to herself.
    await expect(page.getByTestId('member-delegate')).toHaveText('Yourself')
    await expect(
      page.getByTestId('member-proposal').filter({ hasText: title }).getByText('Active'),
    ).toBeVisible()
  })
})

test.describe('Dev, whose avatar record names a CID the gateway lacks', () => {
  test.use({ walletOptions: { accounts: [DEV, ADA] } })

  test('on his own page Dev reads viem\'s "Unable to resolve ENS avatar URI …" for his record, with what to do; on his page another member does not', async ({
    page,
    app,
    chains,
    wallet,
  }) => {
    const record = chains.names.deployment.members.find((entry) => entry.member === 'Dev')?.avatar
    expect(record).toMatch(/^ipfs:\/\//)
    // A member once the token index has seen him, then looked up by the server's refresher.
    await expect.poll(async () => (await resolvedNames(page, app, [DEV]))(DEV)).toBe('dev.eth')
    await connect(page, app, `/members/${DEV}`)
    await expect(header(page).getByRole('heading', { level: 1, name: 'dev.eth' })).toBeVisible()
    await expect(header(page).locator('svg.avatar')).toBeVisible()
    const problem = page.getByTestId('member-avatar-problem')
    await expect(problem.locator('span')).toHaveText(
      `Unable to resolve ENS avatar URI "${record}". The URI may be malformed, invalid, or does not respond with a valid image.`,
    )
    await expect(problem).toContainText('set the record to an ipfs:// or ar:// image')

    // Ada, looking at Dev's page, is not told about his record.
    await wallet.setAccounts([ADA, DEV])
    await expect(page.getByTestId('rk-account-button')).toContainText('ada.eth')
    await expect(header(page).getByRole('heading', { level: 1, name: 'dev.eth' })).toBeVisible()
    await expect(problem).toHaveCount(0)
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

test('without a wallet: one way to connect (the header’s Connect Wallet, which the page points to), and Ada’s power over time is dated and drawn from zero; she delegates to “Self”', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/members/${ADA}`)
  await expect(page.getByTestId('delegation-connect')).toHaveText(
    /^Connect a wallet to delegate to (ada\.eth|0x70…79C8): use Connect Wallet at the top of the page\.$/,
  )
  // The header's button is the only way to connect on the page.
  await expect(page.getByRole('button', { name: /connect/i })).toHaveCount(1)
  await expect(page.getByRole('banner').getByRole('button', { name: 'Connect Wallet' })).toBeVisible()
  await expect(page.getByTestId('member-delegate')).toHaveText('Self')

  const chart = page.getByTestId('power-chart')
  await expect(chart.getByTestId('power-chart-zero')).toHaveText('0')
  await expect(chart.getByTestId('power-chart-top')).toHaveText('1,250 GHD')
  // The dates are those of the blocks the token index dated her changes with.
  const history = powerHistorySchema.parse(
    await (await page.request.get(`${app.url}/api/members/${ADA}/power`)).json(),
  )
  const first = history.points[0]
  if (!first) throw new Error('Ada has no voting power history')
  const firstDate = new Date(first.time * 1000)
  const day = firstDate.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })
  await expect(chart.getByTestId('power-chart-dates').locator('time').first()).toHaveAttribute(
    'datetime',
    firstDate.toISOString(),
  )
  await expect(chart.getByTestId('power-chart-dates')).toContainText(day)
  await expect(chart.getByTestId('power-chart-summary')).toContainText(`From ${day}`)
  await expect(chart.getByTestId('power-chart-summary')).toContainText(
    `(block ${first.block.toLocaleString('en-US')})`,
  )
})

test('Finn holds tokens but delegates to nobody: his page says why he has no voting power, to anyone, without a wallet or a session', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/members/${FINN}`)
  await expect(page.getByTestId('member-balance')).toHaveText('50 GHD')
  await expect(page.getByTestId('member-power')).toContainText('0 GHD')
  await expect(page.getByTestId('member-delegate')).toHaveText('Nobody')
  await expect(page.getByTestId('member-zero-power')).toHaveText(
    /^(finn\.eth|0x97…0aa9) holds 50 GHD but has not delegated them, so they are nobody's votes: tokens become votes only when delegated, to their holder or to another member\.$/,
  )
  // Ada, who has voting power, gets no such sentence.
  await page.goto(`${app.url}/members/${ADA}`)
  await expect(page.getByTestId('member-figures')).toBeVisible()
  await expect(page.getByTestId('member-zero-power')).toHaveCount(0)
})

test.describe('Ben, on Ada’s page', () => {
  test.use({ walletOptions: { accounts: [member(2)] } })

  for (const width of [390, 1280]) {
    test(`a member page reads at ${width} px: no sideways scrolling, the figures not flush on what is above or below them`, async ({
      page,
      app,
    }) => {
      await page.setViewportSize({ width, height: 844 })
      await connect(page, app, `/members/${ADA}`)
      await expect(page.getByRole('button', { name: 'Delegate to ada.eth', exact: true })).toBeVisible()
      await expect(page.getByTestId('power-chart')).toBeVisible()
      await expect(page.getByTestId('member-delegator').first()).toBeVisible()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      // Her full address wraps, if at all, between its halves.
      await expect(page.getByTestId('member-address')).toHaveText(ADA)
      await expectAddressesWhole(page)
      // The figures keep their distance from the header's actions above and the cards below: nothing flush.
      const box = async (selector: string) => {
        const found = await page.locator(selector).first().boundingBox()
        if (!found) throw new Error(`${selector} is not shown`)
        return found
      }
      const [actions, figures, cards] = await Promise.all([
        box('.member-page-actions'),
        box('[data-testid="member-figures"]'),
        box('.member-page-grid'),
      ])
      expect(figures.y - (actions.y + actions.height)).toBeGreaterThanOrEqual(12)
      expect(cards.y - (figures.y + figures.height)).toBeGreaterThanOrEqual(12)
    })
  }
})

test.describe('Cleo', () => {
  test.use({ walletOptions: { accounts: [CLEO] } })

  test('from the Overview to her own page, she signs a statement, sees it rendered without its script and without the husks sanitising leaves, and edits it into a new version', async ({
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
      '## Cleo for delegate\n\nI read **every** proposal. <img src=x onerror="window.hacked = true">\n\nSee [my record](javascript:alert(1)).\n\n<svg width="300" height="150"><script>alert(1)</script></svg>',
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
    // Nothing left of what sanitising removed: no image without a source, no dead link, no empty box (in
    // the statement's own text; the line under it links its log entry to the glossary).
    await expect(shown.locator('.markdown')).toHaveCount(1)
    await expect(shown.locator('.markdown').locator('img, a, svg')).toHaveCount(0)
    await expect(shown.getByText('See my record.', { exact: true })).toBeVisible()
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
