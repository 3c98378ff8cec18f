// The ballots of the new voting kinds in the browser: a member writes a ranked-choice, a weighted and a
// quadratic proposal through the form and votes on each through the vote panel (ranking by the buttons, by
// keyboard and by dragging with the mouse or a finger; weights typed with their live shares), and the vote is
// counted. On a phone the panels fit the screen.
import type { Locator, Page } from '@playwright/test'
import { type App, connect, expect, member, test } from '../support/fixtures.ts'
import { axeFindings } from './axe-helpers.ts'
import { votePanel } from './governance-helpers.ts'

const ADA = member(1)
// Ada votes with her and Dev's tokens: 1,250 GHD. Quadratic proposals need the operator's setting.
test.use({ walletOptions: { accounts: [ADA] }, appEnv: { QUADRATIC_VOTING: 'on' } })

const CANDIDATES = ['Alba', 'Bram', 'Cato', 'Dara']

/** Connects Ada and writes a proposal of `kind` (its label in the form) with `choices`; ends on its page. */
async function proposeKind(page: Page, app: App, title: string, kind: string, choices: string[]) {
  await connect(page, app, '/proposals')
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('combobox', { name: 'Voting' }).selectOption({ label: kind })
  await page.getByLabel(/^Choices/).fill(choices.join('\n'))
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}

const ranking = (page: Page) => votePanel(page).getByTestId('ranking').getByRole('listitem')
const expectRanking = (page: Page, names: string[]) =>
  expect(ranking(page)).toHaveText(names.map((name, index) => new RegExp(`^\\D*${index + 1}\\.\\s*${name}`)))

/** Where a locator's middle is on the page. */
async function middle(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not on the page')
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

async function expectNoHorizontalScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    innerWidth: window.innerWidth,
  }))
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

test('the form explains each kind and offers Quadratic with its warning, as the operator enabled it', async ({
  page,
  app,
}) => {
  await connect(page, app, '/proposals/new')
  const kind = page.getByRole('combobox', { name: 'Voting' })
  await expect(kind.getByRole('option')).toHaveText([
    'For / Against / Abstain',
    'Single choice',
    'Approval',
    'Ranked choice',
    'Weighted',
    'Quadratic',
  ])
  await expect(page.getByTestId('quadratic-warning')).toHaveCount(0)
  await kind.selectOption({ label: 'Ranked choice' })
  await expect(kind).toHaveAccessibleDescription(/rank/i)
  await kind.selectOption({ label: 'Quadratic' })
  await expect(page.getByTestId('quadratic-warning')).toContainText('sybil')
  await expect(page.getByLabel(/^Choices/)).toBeVisible()
  await expect(page.getByTestId('actions-field')).toHaveCount(0)
  expect((await axeFindings(page)).findings).toEqual([])
})

test('ranked choice: the member reorders by buttons, by keyboard and by dragging with the mouse, signs the ranking, and it is counted', async ({
  page,
  app,
}) => {
  await proposeKind(page, app, 'Elect the steward', 'Ranked choice', CANDIDATES)
  await expect(votePanel(page).getByTestId('voting-power')).toContainText('1,250 GHD')
  await expectRanking(page, CANDIDATES)

  // Buttons, by pointer: Cato up one place, announced.
  await votePanel(page).getByRole('button', { name: 'Move Cato up' }).click()
  await expectRanking(page, ['Alba', 'Cato', 'Bram', 'Dara'])
  await expect(votePanel(page).getByTestId('ranking-announcement')).toHaveText(
    'Cato moved to position 2 of 4.',
  )

  // Keyboard only: the focus stays on the moved choice's button, so Enter again moves it again; at the
  // top its Move up is disabled and the focus goes to its Move down.
  await votePanel(page).getByRole('button', { name: 'Move Cato up' }).focus()
  await page.keyboard.press('Enter')
  await expectRanking(page, ['Cato', 'Alba', 'Bram', 'Dara'])
  await expect(votePanel(page).getByRole('button', { name: 'Move Cato up' })).toBeDisabled()
  await expect(votePanel(page).getByRole('button', { name: 'Move Cato down' })).toBeFocused()
  await expect(votePanel(page).getByTestId('ranking-announcement')).toHaveText(
    'Cato moved to position 1 of 4.',
  )
  await votePanel(page).getByRole('button', { name: 'Move Bram down' }).focus()
  await page.keyboard.press('Space')
  await expectRanking(page, ['Cato', 'Alba', 'Dara', 'Bram'])
  await expect(votePanel(page).getByRole('button', { name: 'Move Bram up' })).toBeFocused()

  // Drag with the mouse: Dara's handle onto Alba's row, above its middle.
  const from = await middle(votePanel(page).getByTestId('drag-4'))
  const alba = await votePanel(page).getByTestId('ranking').getByRole('listitem').nth(1).boundingBox()
  if (!alba) throw new Error('no row')
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x, alba.y + alba.height * 0.25, { steps: 8 })
  await page.mouse.up()
  await expectRanking(page, ['Cato', 'Dara', 'Alba', 'Bram'])
  await expect(votePanel(page).getByTestId('ranking-announcement')).toHaveText(
    'Dara moved to position 2 of 4.',
  )

  await votePanel(page).getByRole('button', { name: 'Sign your ranking' }).click()
  await expect(votePanel(page).getByRole('status')).toHaveText(
    'Your vote is recorded. You can change it until voting ends.',
  )
  await expect(votePanel(page).getByTestId('my-vote')).toContainText(
    'You ranked 1. Cato · 2. Dara · 3. Alba · 4. Bram',
  )
  const voters = page.getByTestId('results').getByTestId('voters')
  await expect(voters).toContainText('1 voter')
  await expect(page.getByTestId('results')).toContainText(/Cato\D*1,250 GHD/)

  // A re-vote starts from the ranking that counts: after a reload, the panel shows it.
  await page.reload()
  await expectRanking(page, ['Cato', 'Dara', 'Alba', 'Bram'])
})

test("weighted: typed weights show each choice's share of the power as typed, all zero is refused in words, and the split is counted", async ({
  page,
  app,
}) => {
  await proposeKind(page, app, 'Split the grants budget', 'Weighted', ['Library', 'Garden', 'Kitchen'])
  await expect(votePanel(page).getByTestId('voting-power')).toContainText('1,250 GHD')
  const sign = votePanel(page).getByRole('button', { name: 'Sign your weights' })
  await expect(sign).toBeDisabled()
  await expect(votePanel(page)).toContainText('Every weight is 0: give at least one choice a weight above 0.')

  await votePanel(page).getByLabel('Library').fill('3')
  await votePanel(page).getByLabel('Garden').fill('1')
  await expect(votePanel(page).getByTestId('share-1')).toHaveText('75.00 % · 937.5 GHD')
  await expect(votePanel(page).getByTestId('share-2')).toHaveText('25.00 % · 312.5 GHD')
  await expect(votePanel(page).getByTestId('share-3')).toHaveText('left out')
  await expect(votePanel(page).getByTestId('weights-sum')).toHaveText(
    'Weights sum to 4: all of your voting power (1,250 GHD) is split among 2 choices.',
  )
  await expect(votePanel(page).getByTestId('quadratic-note')).toHaveCount(0)
  expect((await axeFindings(page)).findings).toEqual([])

  // A weight that is not a whole number in range is said in words, and blocks signing.
  await votePanel(page).getByLabel('Kitchen').fill('1.5')
  await expect(votePanel(page).getByTestId('share-3')).toHaveText(
    'A weight is a whole number from 0 to 1,000,000.',
  )
  await expect(votePanel(page).getByLabel('Kitchen')).toHaveAttribute('aria-invalid', 'true')
  await expect(sign).toBeDisabled()
  await votePanel(page).getByLabel('Kitchen').fill('0')

  await sign.click()
  await expect(votePanel(page).getByRole('status')).toHaveText(
    'Your vote is recorded. You can change it until voting ends.',
  )
  await expect(votePanel(page).getByTestId('my-vote')).toContainText(
    'You gave Library 75.00 % · Garden 25.00 %',
  )
  await expect(page.getByTestId('results')).toContainText(/Library\D*937\.5 GHD/)
  await expect(page.getByTestId('results')).toContainText(/Garden\D*312\.5 GHD/)

  // The panel starts again from the counting weights.
  await page.reload()
  await expect(votePanel(page).getByLabel('Library')).toHaveValue('3')
  await expect(votePanel(page).getByLabel('Garden')).toHaveValue('1')
  await expect(votePanel(page).getByLabel('Kitchen')).toHaveValue('')
})

test('quadratic: the same split of the power, with a note that it is counted quadratically; the vote is counted', async ({
  page,
  app,
}) => {
  await proposeKind(page, app, 'Fund the festivals', 'Quadratic', ['Spring', 'Autumn'])
  await expect(votePanel(page).getByTestId('voting-power')).toContainText('1,250 GHD')
  await expect(votePanel(page).getByTestId('quadratic-note')).toContainText('Counted quadratically')
  await votePanel(page).getByLabel('Spring').fill('1')
  await votePanel(page).getByLabel('Autumn').fill('1')
  await expect(votePanel(page).getByTestId('share-1')).toHaveText('50.00 % · 625 GHD')
  await expect(votePanel(page).getByTestId('share-2')).toHaveText('50.00 % · 625 GHD')
  await votePanel(page).getByRole('button', { name: 'Sign your weights' }).click()
  await expect(votePanel(page).getByRole('status')).toHaveText(
    'Your vote is recorded. You can change it until voting ends.',
  )
  await expect(votePanel(page).getByTestId('my-vote')).toContainText(
    'You gave Spring 50.00 % · Autumn 50.00 %',
  )
  await expect(page.getByTestId('results').getByTestId('voters')).toContainText('1 voter')
  // One voter's equal split: rescaled to the total power, each choice half of it.
  await expect(page.getByTestId('results')).toContainText(/Spring\D*625 GHD/)
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true })

  test('the ranked and weights panels fit 390 px, and a finger drags a choice to a new place', async ({
    page,
    app,
  }) => {
    await proposeKind(page, app, 'Name the hall', 'Ranked choice', [
      'A rather long name for a hall that must wrap on a phone',
      ...CANDIDATES.slice(1),
    ])
    await expect(votePanel(page).getByTestId('voting-power')).toContainText('1,250 GHD')
    await expectNoHorizontalScroll(page)
    // Every row's buttons inside the screen.
    for (const button of await votePanel(page)
      .getByRole('button', { name: /^Move / })
      .all()) {
      const box = await button.boundingBox()
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
    }

    // A touch drag: Dara's handle (the last row) onto the first row, through the browser's touch input.
    await votePanel(page).getByTestId('drag-4').scrollIntoViewIfNeeded()
    const from = await middle(votePanel(page).getByTestId('drag-4'))
    const first = await ranking(page).first().boundingBox()
    if (!first) throw new Error('no row')
    const touch = await page.context().newCDPSession(page)
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
    for (let step = 1; step <= 8; step++) {
      const y = from.y + ((first.y + first.height * 0.25 - from.y) * step) / 8
      await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x, y }] })
    }
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    await expect(ranking(page).first()).toContainText('Dara')
    await expect(votePanel(page).getByTestId('ranking-announcement')).toHaveText(
      'Dara moved to position 1 of 4.',
    )
    await expectNoHorizontalScroll(page)

    await page.getByRole('link', { name: '← Proposals' }).click()
    await page.getByRole('link', { name: 'New proposal' }).click()
    await page.getByLabel('Title').fill('Share the workshop hours')
    await page.getByRole('combobox', { name: 'Voting' }).selectOption({ label: 'Weighted' })
    await page
      .getByLabel(/^Choices/)
      .fill('Woodwork for the youth club on weekday evenings\nPottery\nPrinting')
    await page.getByRole('button', { name: 'Sign and submit' }).click()
    await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
    await votePanel(page).getByLabel('Pottery').fill('1000000')
    await expect(votePanel(page).getByTestId('share-2')).toHaveText('100.00 % · 1,250 GHD')
    await expectNoHorizontalScroll(page)
    const input = await votePanel(page).getByLabel('Pottery').boundingBox()
    expect((input?.x ?? 0) + (input?.width ?? 0)).toBeLessThanOrEqual(390)
  })
})
