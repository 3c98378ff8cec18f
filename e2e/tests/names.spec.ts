// Names and avatars against the local name service (ada.eth, ben.eth, cleo.eth, dev.eth with an avatar record
// the gateway does not have, finn.eth without one; Eve's reverse record claims ada.eth, which is Ada's):
// the directory shows them and searches by them, and the votes list names its voters and opens their pages.

import { shortenAddress } from '@guildhall/core'
import type { Locator, Page } from '@playwright/test'
import { expect, member, resolvedNames, test } from '../support/fixtures.ts'
import { connectAndPropose, vote } from './governance-helpers.ts'

const ADA = member(1)
const BEN = member(2)
const CLEO = member(3)
const DEV = member(4)
const EVE = member(5)
const FINN = member(6)

test.use({ walletOptions: { accounts: [ADA, BEN] } })

const rows = (page: Page) => page.getByTestId('member-row')
const row = (page: Page, address: string) => rows(page).and(page.locator(`[href="/members/${address}"]`))
/** The avatar image of a row that loaded, as the browser decoded it: 0 when it did not. */
const loadedWidth = (avatar: Locator) => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)

test.beforeEach(async ({ page, app }) => {
  // Names are looked up for members only (ADR 033): until the token index has applied the demo's history,
  // the server answers "no name" for them, not "pending". On a fresh worker under load that takes seconds.
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${app.url}/api/members`)).json()) as { members: [] }).members.length,
    )
    .toBeGreaterThanOrEqual(8)
  const nameOf = await resolvedNames(page, app, [ADA, BEN, CLEO, DEV, EVE, FINN])
  // What the name service holds, as the server's refresher resolved it.
  expect([ADA, BEN, CLEO, DEV, EVE, FINN].map(nameOf)).toEqual([
    'ada.eth',
    'ben.eth',
    'cleo.eth',
    'dev.eth',
    null,
    'finn.eth',
  ])
})

test('the directory shows names and avatars: an image from the gateway, a generated one without a record or when the record is broken, the shortened address for a member whose reverse record fails the forward check', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/members`)

  const ada = row(page, ADA)
  await expect(ada.getByTestId('member-who')).toHaveText(`ada.eth${shortenAddress(ADA)}`)
  await expect(ada.getByTestId('member-who')).toHaveAttribute('title', ADA)
  await expect.poll(() => loadedWidth(ada.locator('img.avatar'))).toBeGreaterThan(0)
  await expect(ada.locator('svg.avatar')).toHaveCount(0)

  for (const [address, name] of [
    [FINN, 'finn.eth'],
    [DEV, 'dev.eth'],
  ] as const) {
    const named = row(page, address)
    await expect(named.getByTestId('member-who')).toHaveText(`${name}${shortenAddress(address)}`)
    await expect(named.locator('svg.avatar')).toBeVisible()
    await expect(named.locator('img.avatar')).toHaveCount(0)
  }

  const eve = row(page, EVE)
  await expect(eve.getByTestId('member-who')).toHaveText(shortenAddress(EVE))
  await expect(eve.locator('svg.avatar')).toBeVisible()
})

test('the directory searches by the start of a name or the full name, in any case; a name claimed by a reverse record alone finds only its owner', async ({
  page,
  app,
}) => {
  await page.goto(`${app.url}/members`)
  await expect(page.getByLabel('Search')).toHaveAttribute('placeholder', '0x… or name')
  await page.getByLabel('Search').fill('BEN.ETH')
  await expect(page).toHaveURL(/q=BEN\.ETH/)
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toHaveAttribute('href', `/members/${BEN}`)
  await expect(rows(page)).toContainText('ben.eth')

  // Eve's reverse record claims ada.eth: only Ada is found.
  await page.getByLabel('Search').fill('ada')
  await expect(page).toHaveURL(/q=ada$/)
  await expect(rows(page)).toHaveCount(1)
  await expect(rows(page)).toHaveAttribute('href', `/members/${ADA}`)

  await page.getByLabel('Search').fill('nobody.eth')
  await expect(page.getByText('No members match.')).toBeVisible()
})

test("the proposal names its author and the votes list its voters; a voter's name opens their member page", async ({
  page,
  app,
  wallet,
}) => {
  await connectAndPropose(page, app, 'Name the bell')
  await expect(page.locator('.page-header').getByTestId('member-name')).toHaveText('ada.eth')
  await vote(page, 'For')
  await wallet.setAccounts([BEN])
  await expect(page.getByTestId('vote-panel').getByTestId('my-vote')).toHaveCount(0)
  await vote(page, 'Against')

  const votes = page.getByTestId('votes-list').getByRole('listitem')
  await expect(votes).toHaveCount(2)
  await expect(votes.filter({ hasText: 'ada.eth' })).toContainText(/^ada\.eth\s*For/)
  await expect(votes.filter({ hasText: 'ben.eth' })).toContainText(/^ben\.eth\s*Against/)
  const ben = votes.getByRole('link', { name: 'ben.eth' })
  await expect(ben).toHaveAttribute('title', BEN)
  await ben.click()
  await expect(page).toHaveURL(new RegExp(`/members/${BEN}$`))
  await expect(page.getByText(BEN).first()).toBeVisible()
})
