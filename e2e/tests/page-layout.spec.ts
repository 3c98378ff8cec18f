// The governance pages' layout on a phone and a desktop: controls inside their cards, cards as tall as
// their content and apart from each other, reasons said in text rather than tooltips, the proposal list's
// controls styled as what they are, a way back from a missing page, and answers the app cannot read
// explained in a sentence.
import type { Locator, Page } from '@playwright/test'
import { connect, expect, member, test } from '../support/fixtures.ts'

const ADA = member(1)
const BEN = member(2)
const FINN = member(6)
test.use({ walletOptions: { accounts: [ADA, FINN, BEN] } })

type Box = { left: number; right: number; top: number; bottom: number }
const box = (locator: Locator): Promise<Box> =>
  locator.evaluate((element) => {
    const r = element.getBoundingClientRect()
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }
  })

async function expectNoHorizontalOverflow(page: Page, label: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth, label).toBeLessThanOrEqual(innerWidth)
}

async function newProposal(page: Page, title: string) {
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByLabel(/Description/).fill('A short text.')
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
  await expect(page.getByTestId('results')).toBeVisible()
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('new proposal: every control stays inside its card, the rules read in GHD, typed text is not bold', async ({
    page,
    app,
  }) => {
    await connect(page, app, '/proposals/new')
    const card = page.getByRole('region', { name: 'Proposal' })
    await card.getByRole('combobox', { name: /^Voting/ }).selectOption('single-choice')
    await page.getByLabel(/Choices/).fill('Lisbon\nNairobi')
    await page.getByLabel('Title').fill('A title')
    const cardBox = await box(card)
    const controls = card.locator('input, textarea, select, button')
    // Title, description, voting, choices, category, period, and the submit button.
    expect(await controls.count()).toBe(7)
    for (const control of await controls.all()) {
      const label = await control.evaluate((e) => `${e.tagName} ${e.getAttribute('type') ?? ''}`)
      const controlBox = await box(control)
      expect(controlBox.left, `${label} left`).toBeGreaterThanOrEqual(cardBox.left)
      expect(controlBox.right, `${label} right`).toBeLessThanOrEqual(cardBox.right)
      if ((await control.evaluate((e) => e.tagName)) !== 'BUTTON')
        await expect(control, `${label} font weight`).toHaveCSS('font-weight', '400')
    }
    await expectNoHorizontalOverflow(page, 'new proposal')
    await expect(page.getByTestId('proposal-rules')).toHaveText(
      'Voting opens now. Rules: quorum 1,000 GHD, proposal threshold 1 GHD; abstain counts toward the quorum.',
    )
  })
})

/**
 * The card ends where its content does: below the last line only its padding, border and at most the last
 * paragraph's margin (1em), not the empty space of a box stretched to the height of its neighbours.
 */
async function expectOwnHeight(card: Locator, label: string) {
  const { space, allowed } = await card.evaluate((element) => {
    const style = getComputedStyle(element)
    const range = document.createRange()
    range.selectNodeContents(element)
    return {
      space: element.getBoundingClientRect().bottom - range.getBoundingClientRect().bottom,
      allowed:
        Number.parseFloat(style.paddingBottom) +
        Number.parseFloat(style.borderBottomWidth) +
        Number.parseFloat(style.fontSize),
    }
  })
  expect(space, `${label}: the space below the card's content`).toBeLessThanOrEqual(allowed + 0.5)
}

test("a proposal's page at 1280 and 390 px: each card as tall as its content, a gap between cards, nothing wider than the screen", async ({
  page,
  app,
}) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Oil the hinges')
  // This server has sign-in off, so no discussion (every comment is a signed-in member's): no section.
  await expect(page.getByRole('heading', { name: /^Discussion/ })).toHaveCount(0)
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 })
    const label = `${width} px`
    const cards = ['proposal-body', 'results', 'vote-panel', 'verify', 'votes-list'].map((id) =>
      page.getByTestId(id),
    )
    await expect(page.getByTestId('voting-power')).toContainText('1,250 GHD')
    for (const card of cards)
      await expectOwnHeight(card, `${label} ${await card.getAttribute('data-testid')}`)
    const boxes = await Promise.all(cards.map(box))
    const [body, results, vote, verify, votes] = boxes as [Box, Box, Box, Box, Box]
    // Results, your vote and the recount: one below the other, apart.
    expect(vote.top - results.bottom, `${label}: results to vote`).toBeGreaterThanOrEqual(12)
    expect(verify.top - vote.bottom, `${label}: vote to verify`).toBeGreaterThanOrEqual(12)
    if (width === 1280) {
      // Side by side: the text's card is not drawn down beside the results.
      expect(body.top, label).toBe(results.top)
      expect(body.bottom, `${label}: the text's card is shorter than the column beside it`).toBeLessThan(
        verify.bottom - 100,
      )
      // The votes list under the text, beside the results, its top on the first screen.
      expect(votes.left, label).toBe(body.left)
      expect(votes.top - body.bottom, `${label}: text to votes`).toBeGreaterThanOrEqual(12)
      expect(votes.top - body.bottom, `${label}: text to votes`).toBeLessThanOrEqual(20)
      expect(votes.top, `${label}: the votes list starts on the first screen`).toBeLessThan(844 - 100)
    } else {
      expect(results.top - body.bottom, `${label}: text to results`).toBeGreaterThanOrEqual(12)
      expect(votes.top - verify.bottom, `${label}: verify to votes`).toBeGreaterThanOrEqual(12)
      for (const card of boxes) {
        expect(card.left, label).toBeGreaterThanOrEqual(0)
        expect(card.right, label).toBeLessThanOrEqual(width)
      }
    }
    await expectNoHorizontalOverflow(page, label)
    // The voter count in the results leads to the votes list, wherever it is.
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.getByTestId('voters').getByRole('link', { name: '0 voters' }).click()
    await expect(page.getByTestId('votes-list')).toBeInViewport()
    await expect(page.getByTestId('votes-list').getByRole('heading', { level: 2 })).toHaveText('Votes (0)')
  }
})

test("a reason looks the same in the votes list and in the member's votes: one component", async ({
  page,
  app,
}) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Wax the floor')
  const panel = page.getByTestId('vote-panel')
  await panel.getByLabel('For').check()
  await panel.getByLabel(/Reason/).fill('The floor squeaks.\nIt is old.')
  await panel.getByRole('button', { name: 'Vote' }).click()
  await expect(panel.getByTestId('my-vote')).toContainText('You voted For')
  const look = (reason: Locator) =>
    reason.evaluate((element) => {
      const style = getComputedStyle(element)
      return [
        element.tagName,
        style.color,
        style.fontStyle,
        style.fontSize,
        style.borderLeft,
        style.paddingLeft,
        style.whiteSpace,
        element.textContent,
      ].join(' | ')
    })
  const inList = page.getByTestId('votes-list').locator('.vote-reason')
  await expect(inList).toHaveText('The floor squeaks.\nIt is old.')
  const listLook = await look(inList)
  expect(listLook).toContain('BLOCKQUOTE')
  await page.goto(`${app.url}/members/${ADA}`)
  const onPage = page.getByTestId('member-vote').filter({ hasText: 'Wax the floor' }).locator('.vote-reason')
  await expect(onPage).toBeVisible()
  expect(await look(onPage)).toBe(listLook)
})

test('a disabled Vote button says why in text beside it, linked to it, also to a member without voting power', async ({
  page,
  app,
  wallet,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await connect(page, app, '/proposals')
  await newProposal(page, 'Sweep the yard')
  const panel = page.getByTestId('vote-panel')

  const expectReason = async (button: Locator, text: string) => {
    await expect(button).toBeDisabled()
    const reason = page.locator(`#${await button.getAttribute('aria-describedby')}`)
    await expect(reason).toBeVisible()
    await expect(reason).toHaveText(text)
    await expect(button).toHaveAccessibleDescription(text)
    await expect(button).not.toHaveAttribute('title')
    // Beside the button (or right below it on a narrow screen), inside the card.
    const [buttonBox, reasonBox, panelBox] = await Promise.all([box(button), box(reason), box(panel)])
    expect(reasonBox.top - buttonBox.bottom).toBeLessThan(16)
    expect(reasonBox.right).toBeLessThanOrEqual(panelBox.right)
  }

  // Ada has voting power but has not picked a choice yet.
  await expectReason(panel.getByRole('button', { name: 'Vote' }), 'Pick a choice first.')
  await panel.getByLabel('For').check()
  await expect(panel.getByRole('button', { name: 'Vote' })).toBeEnabled()
  await expect(panel.getByText('Pick a choice first.')).toHaveCount(0)

  // Finn had not delegated his tokens at the snapshot: no voting power.
  await wallet.setAccounts([FINN])
  await expect(panel.getByTestId('zero-power-reason')).toBeVisible()
  await expectReason(
    panel.getByRole('button', { name: 'Vote' }),
    'You have no voting power on this proposal.',
  )
})

test('the percentages of the results add up to 100 %: 1,250 For and 850 Against show 59.52 % and 40.48 %', async ({
  page,
  app,
  wallet,
}) => {
  await connect(page, app, '/proposals')
  await newProposal(page, 'Count the chairs')
  const panel = page.getByTestId('vote-panel')
  // Ada votes For with 1,250 GHD, Ben Against with 850 GHD.
  await panel.getByLabel('For').check()
  await panel.getByRole('button', { name: 'Vote' }).click()
  await expect(panel.getByTestId('my-vote')).toContainText('You voted For')
  await wallet.setAccounts([BEN])
  await expect(panel.getByTestId('voting-power')).toContainText('850 GHD')
  await panel.getByLabel('Against').check()
  await panel.getByRole('button', { name: 'Vote' }).click()
  await expect(panel.getByTestId('my-vote')).toContainText('You voted Against')
  // Each rounded down, they would read 59.52 + 40.47 = 99.99 %.
  await expect(page.getByTestId('results').locator('.result-row')).toHaveText([
    'For · 1,250 GHD · 59.52 %',
    'Against · 850 GHD · 40.48 %',
    'Abstain · 0 GHD · 0.00 %',
  ])
})

test('the proposals list: "New proposal" is not underlined; the filters are a segmented control without a frame, usable by keyboard', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/proposals`)
  await expect(page.getByRole('heading', { level: 1, name: 'Proposals' })).toBeVisible()
  const newLink = page.getByRole('link', { name: 'New proposal' })
  await expect(newLink).toHaveCSS('text-decoration-line', 'none')
  const filters = page.getByRole('group', { name: 'Show' })
  for (const side of ['top', 'right', 'bottom', 'left'])
    await expect(filters).toHaveCSS(`border-${side}-style`, 'none')
  // One control: the options touch, in one row.
  const options = filters.getByRole('button')
  await expect(options).toHaveText(['All', 'Active', 'Pending', 'Closed'])
  const optionBoxes = await Promise.all((await options.all()).map(box))
  for (let i = 1; i < optionBoxes.length; i++) {
    expect(Math.abs((optionBoxes[i] as Box).left - (optionBoxes[i - 1] as Box).right)).toBeLessThanOrEqual(1)
    expect((optionBoxes[i] as Box).top).toBe((optionBoxes[0] as Box).top)
  }
  // Keyboard: Tab to "Active", press it; it is the pressed one.
  await filters.getByRole('button', { name: 'All' }).focus()
  await page.keyboard.press('Tab')
  await expect(filters.getByRole('button', { name: 'Active' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(filters.getByRole('button', { name: 'Active' })).toHaveAttribute('aria-pressed', 'true')
  await expect(filters.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false')
})

test('the not-found page has a way back: to the overview and to the proposals', async ({ page, app }) => {
  await page.goto(`${app.url}/no-such-page`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await page.getByRole('main').getByRole('link', { name: 'Go to the overview' }).click()
  await expect(page).toHaveURL(`${app.url}/`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Guildhall Test DAO')
  await page.goBack()
  await page.getByRole('main').getByRole('link', { name: 'See the proposals' }).click()
  await expect(page).toHaveURL(`${app.url}/proposals`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Proposals')
})

test('an answer the app cannot read is explained in a sentence, on the list and on a proposal; the details go to the console', async ({
  page,
  app,
}) => {
  const logged: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text())
  })
  const sentence = 'The server sent an answer this page cannot read.'
  await page.route(/\/api\/proposals(\?.*)?$/, (route) =>
    route.fulfill({ contentType: 'application/json', body: '{"proposals":[{"id":42}]}' }),
  )
  await page.goto(`${app.url}/proposals`)
  const listAlert = page.getByRole('alert').filter({ hasText: 'could not be loaded' })
  await expect(listAlert).toContainText(sentence)
  await expect(listAlert).not.toContainText('"code"')

  const id = `0x${'ab'.repeat(32)}`
  await page.route(`**/api/proposals/${id}`, (route) =>
    route.fulfill({ contentType: 'application/json', body: '{"id":"x","state":"nonsense"}' }),
  )
  await page.goto(`${app.url}/proposals/${id}`)
  const alert = page.getByRole('alert').filter({ hasText: 'This proposal could not be loaded' })
  await expect(alert).toContainText(sentence)
  await expect(alert).not.toContainText('"code"')
  await expect(alert).not.toContainText('[')
  expect(logged.some((text) => text.includes('does not match what the app expects'))).toBe(true)
})
