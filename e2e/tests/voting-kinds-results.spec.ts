// The results of the new voting kinds in the browser (issue 25): a ranked-choice count that takes three
// rounds, shown round by round (the table, the eliminations, the chart's summary), each ballot readable in
// the votes list, recounted in the browser (the rounds agree; a round altered in the database is named),
// then closed: "Won by …" on its page and in the proposal list; a weighted proposal's shares; a quadratic
// one's warning and rescaled power; the round table at a phone's width. The proposals and votes are signed
// with the demo members' keys and sent over HTTP as their wallets would (the ballots themselves are
// voting-kinds-ballot.spec.ts's).

import { demoDomain, signProposal, signVote } from '@guildhall/api/testbed'
import { FINALITY_DELAY_SECONDS, type ProposalKind, QUADRATIC_WARNING } from '@guildhall/core'
import type { Page } from '@playwright/test'
import { sql } from 'drizzle-orm'
import { createPublicClient, type Hex, http } from 'viem'
import { type App, type Chains, expect, serverClock, test } from '../support/fixtures.ts'
import { axeFindings } from './axe-helpers.ts'
import { account, postAccepted } from './governance-helpers.ts'

// Voting power at the snapshot: Ada 1,250 GHD (with Dev's), Ben 850 (with Eve's), Cleo 500.
const ADA = account(1)
const BEN = account(2)
const CLEO = account(3)

const VOTING_SECONDS = 3_600

// The operator's setting a quadratic proposal needs (off by default).
test.use({ appEnv: { QUADRATIC_VOTING: 'on' } })

test.afterEach(() => {
  serverClock.aheadSeconds = 0
})

type Ballot = { voter: typeof ADA; choices: number[]; weights?: number[] }

/** Ada's proposal of `kind`, open for an hour from a minute ago, and each ballot signed by its voter. */
async function proposalWithVotes(
  app: App,
  chains: Chains,
  {
    title,
    kind,
    choices,
    ballots,
  }: { title: string; kind: ProposalKind; choices: string[]; ballots: Ballot[] },
): Promise<Hex> {
  const domain = demoDomain(chains.deployment)
  const rules = app.settings.publicConfig.governance
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(chains.dao.url) }).getBlockNumber()) - 1
  const proposal = await signProposal(ADA, domain, {
    snapshot,
    title,
    body: '',
    kind,
    choices,
    start: now - 60,
    end: now + VOTING_SECONDS,
    quorum: String(rules.quorum),
    threshold: String(rules.threshold),
    abstainCountsToQuorum: rules.abstainCountsToQuorum,
    timestamp: now - 60,
  })
  await postAccepted(app, '/api/proposals', { message: proposal.message, signature: proposal.signature })
  for (const { voter, choices: picked, weights } of ballots) {
    const vote = await signVote(voter, domain, {
      proposal: proposal.id,
      choices: picked,
      ...(weights ? { version: 2, weights } : {}),
      timestamp: now,
    })
    await postAccepted(app, `/api/proposals/${proposal.id}/votes`, {
      message: vote.message,
      signature: vote.signature,
    })
  }
  return proposal.id
}

const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro']

/**
 * Ada ranks Lisbon first, Ben Porto, Cleo Braga then Porto; nobody ranks Faro first. Round 1: Lisbon 1,250,
 * Porto 850, Braga 500, Faro 0 of 2,600: no majority, Faro out. Round 2: the same, Braga out, its 500 to
 * Porto. Round 3: Porto 1,350 of 2,600, more than half.
 */
const rankedProposal = (app: App, chains: Chains, title: string) =>
  proposalWithVotes(app, chains, {
    title,
    kind: 'ranked-choice',
    choices: CITIES,
    ballots: [
      { voter: ADA, choices: [1, 2, 3, 4] },
      { voter: BEN, choices: [2, 1, 3, 4] },
      { voter: CLEO, choices: [3, 2, 1, 4] },
    ],
  })

const results = (page: Page) => page.getByTestId('results')
const cellsOf = (page: Page, testId: string) =>
  results(page).getByTestId(testId).locator('th, td').allTextContents()

test('a ranked-choice count of three rounds: the round table with each elimination, the chart, the ballots as rankings, the browser recount agrees, and once closed "Won by Porto" on the page and in the list', async ({
  page,
  app,
  chains,
}) => {
  const id = await rankedProposal(app, chains, 'Where the meetup goes')
  await page.goto(`${app.url}/proposals/${id}`)

  await expect(results(page).getByTestId('proposal-kind')).toContainText('Ranked choice')
  await expect(results(page).getByTestId('ranked-headline')).toHaveText(
    'Leading: Porto, with 1,350 GHD of 2,600 GHD in round 3',
  )
  await expect(results(page).getByTestId('ranked-recount')).toHaveText(
    'While voting is open the rounds are recounted every few seconds; these count 3 ballots.',
  )
  // A row per choice, a column per round; an eliminated choice is "out" in the rounds after, never 0.
  const rows = results(page).getByTestId('round-row')
  await expect(rows).toHaveCount(4)
  expect(await rows.nth(0).locator('th, td').allTextContents()).toEqual([
    'Lisbon',
    '1,250 GHD',
    '1,250 GHD',
    '1,250 GHD',
  ])
  expect(await rows.nth(1).locator('th, td').allTextContents()).toEqual([
    'Porto',
    '850 GHD',
    '850 GHD',
    '1,350 GHD · leads',
  ])
  expect(await rows.nth(2).locator('th, td').allTextContents()).toEqual([
    'Braga',
    '500 GHD',
    '500 GHD · eliminated',
    'out',
  ])
  expect(await rows.nth(3).locator('th, td').allTextContents()).toEqual([
    'Faro',
    '0 GHD · eliminated',
    'out',
    'out',
  ])
  expect(await cellsOf(page, 'round-continuing')).toEqual([
    'Continuing',
    '2,600 GHD',
    '2,600 GHD',
    '2,600 GHD',
  ])
  expect(await cellsOf(page, 'round-majority')).toEqual([
    'To win: more than',
    '1,300 GHD',
    '1,300 GHD',
    '1,300 GHD',
  ])
  expect(await cellsOf(page, 'round-eliminated')).toEqual(['Eliminated', 'Faro', 'Braga', '—'])
  // The table's scrolling box, the chart and the rest of the card pass axe's checks.
  await expect(results(page).getByTestId('rounds-chart')).toBeVisible()
  expect((await axeFindings(page)).findings).toEqual([])
  // The chart (its own chunk) says in words how the eliminated choices' power moved.
  await expect(results(page).getByTestId('rounds-chart-summary')).toHaveText(
    'After round 1 Faro was eliminated: no power moved. After round 2 Braga was eliminated: its ballots moved 500 GHD to Porto.',
  )
  await expect(
    results(page)
      .getByRole('img', { name: /After round 2 Braga was eliminated/ })
      .locator('rect.chart-bar'),
  ).not.toHaveCount(0)

  // Each ballot reads as the voter ranked it.
  const votes = page.getByTestId('votes-list')
  await expect(votes.getByRole('listitem')).toHaveCount(3)
  await expect(votes.getByRole('listitem').filter({ hasText: 'cleo.eth' })).toContainText(
    '1. Braga · 2. Porto · 3. Lisbon · 4. Faro',
  )
  // Every ranked ballot ranks every choice: the filter keeps those that rank it first.
  await votes.getByLabel('First choice').selectOption('Porto')
  await expect(votes.getByRole('listitem')).toHaveCount(1)
  await expect(votes.getByRole('listitem')).toContainText('ben.eth')
  await votes.getByLabel('First choice').selectOption('All choices')
  await expect(votes.getByRole('listitem')).toHaveCount(3)

  await page.getByRole('button', { name: 'Verify this result' }).click()
  await expect(page.getByTestId('recount-result')).toHaveText(
    'The result matches: 3 vote signatures checked, 3 votes counted; all 3 rounds agree.',
  )

  // Closed: the count is final.
  serverClock.aheadSeconds = VOTING_SECONDS + FINALITY_DELAY_SECONDS + 5
  await page.reload()
  await expect(results(page).getByTestId('ranked-headline')).toHaveText(
    'Won by Porto, with 1,350 GHD of 2,600 GHD in round 3',
  )
  await expect(results(page).getByTestId('voters')).toHaveText('3 voters · Passed')
  await expect(rows.nth(1).locator('td').last()).toHaveText('1,350 GHD · wins')
  await expect(results(page).getByTestId('ranked-recount')).toHaveCount(0)

  await page.getByRole('link', { name: '← Proposals' }).click()
  await expect(
    page.getByRole('link', { name: /Where the meetup goes/ }).getByTestId('proposal-result'),
  ).toHaveText('Ranked choice · Won by Porto')
})

test('a round altered in the database: the browser recount names the round and the choice that differ', async ({
  page,
  app,
  chains,
}) => {
  const id = await rankedProposal(app, chains, 'Where the meetup goes, altered')
  await page.goto(`${app.url}/proposals/${id}`)
  await expect(results(page).getByTestId('round-row')).toHaveCount(4)
  // Someone with database access gives Porto 900 GHD in round 2 of the stored result.
  await app.database.db.execute(
    sql`update ranked_results set result = jsonb_set(result, '{rounds,1,perChoice,1}', '"900000000000000000000"') where proposal_id = ${id}`,
  )
  await page.getByRole('button', { name: 'Verify this result' }).click()
  await expect(page.getByTestId('recount-result')).toContainText('The result differs from the published one:')
  await expect(page.getByTestId('recount-result').getByRole('listitem')).toHaveText([
    'Round 2, "Porto": recounted 850000000000000000000, published 900000000000000000000.',
  ])
})

test('a weighted proposal: each choice’s power and share, each ballot as shares of its voter’s power, and the list’s "Leading"', async ({
  page,
  app,
  chains,
}) => {
  // Ada gives 3 : 2 of her 1,250 GHD (750 and 500); Ben all of his 850 to Garden.
  const id = await proposalWithVotes(app, chains, {
    title: 'Split the grants budget',
    kind: 'weighted',
    choices: ['Library', 'Garden', 'Kitchen'],
    ballots: [
      { voter: ADA, choices: [1, 2], weights: [3, 2] },
      { voter: BEN, choices: [2], weights: [5] },
    ],
  })
  await page.goto(`${app.url}/proposals/${id}`)
  await expect(results(page).getByTestId('proposal-kind')).toContainText('Weighted')
  await expect(results(page).locator('.result-row')).toHaveText([
    'Library · 750 GHD · 35.71 %',
    'Garden · 1,350 GHD · 64.29 %',
    'Kitchen · 0 GHD · 0.00 %',
  ])
  await expect(results(page).getByTestId('quadratic-warning')).toHaveCount(0)
  const votes = page.getByTestId('votes-list')
  await expect(votes.getByRole('listitem').filter({ hasText: 'ada.eth' })).toContainText(
    'Library 60.00 % · Garden 40.00 %',
  )
  await expect(votes.getByRole('listitem').filter({ hasText: 'ben.eth' })).toContainText('Garden 100.00 %')

  await page.getByRole('button', { name: 'Verify this result' }).click()
  await expect(page.getByTestId('recount-result')).toHaveText(
    'The result matches: 2 vote signatures checked, 2 votes counted.',
  )

  await page.getByRole('link', { name: '← Proposals' }).click()
  await expect(
    page.getByRole('link', { name: /Split the grants budget/ }).getByTestId('proposal-result'),
  ).toHaveText('Weighted · Leading: Garden')
})

test('a quadratic proposal: the warning on its page, the rescaled power and shares, and the browser recount agrees', async ({
  page,
  app,
  chains,
}) => {
  // Ada splits 1,250 GHD 1 : 1, Ben gives 850 to Garden. Per choice the square of its summed roots
  // (each √(part · 10¹⁸)): Library 625 · 10³⁶, Garden (√625 + √850)² · 10³⁶; rescaled to the 2,100 GHD
  // that voted: 368.914… and 1,731.085… GHD (computed apart from the app, in whole numbers).
  const id = await proposalWithVotes(app, chains, {
    title: 'Split the grants budget, quadratically',
    kind: 'quadratic',
    choices: ['Library', 'Garden', 'Kitchen'],
    ballots: [
      { voter: ADA, choices: [1, 2], weights: [1, 1] },
      { voter: BEN, choices: [2], weights: [1] },
    ],
  })
  await page.goto(`${app.url}/proposals/${id}`)
  await expect(results(page).getByTestId('proposal-kind')).toContainText('Quadratic')
  await expect(results(page).getByTestId('quadratic-warning')).toHaveText(QUADRATIC_WARNING)
  await expect(results(page).locator('.result-row')).toHaveText([
    'Library · 368.91 GHD · 17.57 %',
    'Garden · 1,731.08 GHD · 82.43 %',
    'Kitchen · 0 GHD · 0.00 %',
  ])
  await expect(
    page.getByTestId('votes-list').getByRole('listitem').filter({ hasText: 'ada.eth' }),
  ).toContainText('Library 50.00 % · Garden 50.00 %')
  await page.getByRole('button', { name: 'Verify this result' }).click()
  await expect(page.getByTestId('recount-result')).toHaveText(
    'The result matches: 2 vote signatures checked, 2 votes counted.',
  )
})

test.describe('at a phone’s width', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('a ranked-choice proposal at 390 px: the round table scrolls in its own box if it must, the page never does', async ({
    page,
    app,
    chains,
  }) => {
    const id = await rankedProposal(app, chains, 'Where the meetup goes, on a phone')
    await page.goto(`${app.url}/proposals/${id}`)
    await expect(results(page).getByTestId('round-row')).toHaveCount(4)
    await expect(results(page).getByTestId('rounds-chart-summary')).toBeVisible()
    const sizes = await page.evaluate(() => {
      const box = document.querySelector('.table-scroll') as HTMLElement
      const card = document.querySelector('[data-testid="results"]') as HTMLElement
      return {
        page: document.scrollingElement?.scrollWidth ?? 0,
        window: window.innerWidth,
        box: box.getBoundingClientRect().right,
        card: card.getBoundingClientRect().right,
        table: box.scrollWidth,
        shown: box.clientWidth,
      }
    })
    expect(sizes.page).toBeLessThanOrEqual(sizes.window)
    expect(sizes.box).toBeLessThanOrEqual(sizes.card)
    // Three rounds of "1,250 GHD" are wider than a phone's card: here the table must scroll, in its box.
    expect(sizes.table).toBeGreaterThan(sizes.shown)
    // Each ballot takes a line of its own: the voter's name beside their power is not squeezed.
    const cleo = page.getByTestId('votes-list').getByRole('listitem').filter({ hasText: 'cleo.eth' })
    await expect(cleo).toContainText('1. Braga · 2. Porto · 3. Lisbon · 4. Faro')
    const voter = await cleo.locator('.vote-voter').evaluate((element) => ({
      whole: element.scrollWidth,
      shown: element.clientWidth,
    }))
    expect(voter.whole).toBeLessThanOrEqual(voter.shown)
  })
})
