// Live views at a server's cap (issue 26, item 3; ADR 064): the server holds at most LIVE_MAX_STREAMS=2 open
// streams, and another client holds both. A proposal page opened now has its streams refused (503
// live_full): it still shows the result, says nothing of the refusal, follows a vote by reading the result
// again, and goes live by itself once places are free. The proposal and the votes are signed with the demo
// members' keys and sent over HTTP, as their wallets would.

import { demoDomain, signProposal, signVote } from '@guildhall/api/testbed'
import { createPublicClient, http } from 'viem'
import { expect, test } from '../support/fixtures.ts'
import { account, postAccepted } from './governance-helpers.ts'

// Voting power at the snapshot: Ada 1,250 GHD (with Dev's), Ben 850 (with Eve's).
const ADA = account(1)
const BEN = account(2)

test.use({ appEnv: { LIVE_MAX_STREAMS: '2' } })

test('a page refused its live streams (the server is full) shows the result, says nothing of it, follows a vote by reading again, and goes live once places are free', async ({
  page,
  app,
  chains,
}) => {
  const domain = demoDomain(chains.deployment)
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(chains.dao.url) }).getBlockNumber()) - 1
  const proposal = await signProposal(ADA, domain, {
    snapshot,
    title: 'Lanterns for the full house',
    body: '',
    start: now - 60,
    end: now + 3_600,
    timestamp: now - 60,
  })
  await postAccepted(app, '/api/proposals', { message: proposal.message, signature: proposal.signature })
  const voteOf = async (voter: typeof ADA, timestamp: number) => {
    const { message, signature } = await signVote(voter, domain, {
      proposal: proposal.id,
      choices: [1],
      timestamp,
    })
    await postAccepted(app, `/api/proposals/${proposal.id}/votes`, { message, signature })
  }

  // Another client holds every place. Its responses stay referenced until it lets go: fetch cancels the
  // unread body of a response once it is garbage-collected, which would free a place at a random moment.
  const holder = new AbortController()
  const held: Response[] = []
  for (let i = 0; i < 2; i++) {
    held.push(
      await fetch(`${app.url}/api/events`, {
        headers: { accept: 'text/event-stream' },
        signal: holder.signal,
      }),
    )
  }
  expect(held.map((response) => response.status)).toEqual([200, 200])

  const eventsPath = `/api/proposals/${proposal.id}/events`
  const answersOf = (path: string) => {
    const statuses: number[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === path) statuses.push(response.status())
    })
    return statuses
  }
  const streamAnswers = answersOf(eventsPath)
  const detailAnswers = answersOf(`/api/proposals/${proposal.id}`)
  await page.goto(`${app.url}/proposals/${proposal.id}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Lanterns for the full house' })).toBeVisible()
  await expect.poll(() => streamAnswers).toEqual([503])
  await expect(page.getByTestId('results')).toContainText('For · 0 GHD')
  // Nothing alarming: no alert, no word of the refusal.
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(page.locator('body')).not.toContainText(/live view|error|failed/i)

  // Not live: the page reads the result again (every 10 s) and so shows Ada's vote.
  await voteOf(ADA, now)
  await expect(page.getByTestId('results')).toContainText('For · 1,250 GHD · 100.00 %', { timeout: 20_000 })

  // Places free: the page opens its stream again by itself (after 5 to 10 s) and is live.
  holder.abort()
  await Promise.all(held.map((response) => response.body?.cancel().catch(() => {})))
  await expect.poll(() => streamAnswers.at(-1), { timeout: 30_000 }).toBe(200)
  const readsBefore = detailAnswers.length
  await voteOf(BEN, now + 1)
  await expect(page.getByTestId('results')).toContainText('For · 2,100 GHD · 100.00 %')
  // The tally came with the stream's event, not from reading the proposal again.
  expect(detailAnswers.length).toBe(readsBefore)
  await expect(page.locator('body')).not.toContainText(/live view|error|failed/i)
})
