// Live results: a page open on a proposal follows the votes others cast, without reloading and without
// asking for the proposal again (the tally comes with the event), and the list shows a new proposal.

import { expect, member, test } from '../support/fixtures.ts'
import { connectAndPropose, vote } from './governance-helpers.ts'

const ADA = member(1)

test.use({ walletOptions: { accounts: [ADA] } })

test("a vote in one page updates another page's results and votes list without a reload; the list shows a new proposal", async ({
  page,
  context,
  app,
}) => {
  // The onlooker reads the list first (no wallet needed), and stays on it while Ada writes a proposal.
  const onlooker = await context.newPage()
  await onlooker.goto(`${app.url}/proposals`)
  await expect(onlooker.getByRole('heading', { name: 'Proposals' })).toBeVisible()
  await onlooker.evaluate(() => {
    ;(window as { stillHere?: boolean }).stillHere = true
  })

  await connectAndPropose(page, app, 'Light the lanterns')
  const proposalPath = new URL(page.url()).pathname

  await expect(onlooker.getByRole('link', { name: /Light the lanterns/ })).toBeVisible()
  await onlooker.getByRole('link', { name: /Light the lanterns/ }).click()
  await expect(onlooker.getByTestId('votes-list')).toContainText('No votes yet.')
  await expect(onlooker.getByTestId('results')).toContainText('For · 0 GHD')

  // From here on the onlooker asks for nothing but the votes list: the tally arrives on its stream.
  const detailRequests: string[] = []
  onlooker.on('request', (request) => {
    if (new URL(request.url()).pathname === `/api${proposalPath}`) detailRequests.push(request.url())
  })

  await vote(page, 'For')

  await expect(onlooker.getByTestId('results')).toContainText('For · 1,250 GHD · 100.00 %')
  await expect(onlooker.getByTestId('votes-list')).toContainText('ada.eth')
  expect(await onlooker.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true)
  expect(detailRequests).toEqual([])
})
