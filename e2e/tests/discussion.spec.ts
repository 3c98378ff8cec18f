// Discussion in the browser: a signed-in member authorises a key once (one wallet signature for several
// comments), posts, replies, edits (every version shown), reacts and mentions (a link to the member's
// page); another member's comment arrives live without a reload; the author withdraws; a vote with a
// reason appears as a card in the thread; a topic becomes a proposal prefilled from it; the thread and
// the topics fit a phone's 390 px without sideways scrolling.

import { TestWallet } from '@guildhall/devchain/wallet/playwright'
import type { Browser, Page } from '@playwright/test'
import { type App, type Chains, expect, member, SECOND_CHAIN_ID, test } from '../support/fixtures.ts'
import { axeFindings } from './axe-helpers.ts'
import { vote, votePanel } from './governance-helpers.ts'
import { connectToVerify, SIGN_IN_APP_ENV, signIn } from './sign-in-helpers.ts'

const ADA = member(1)
const BEN = member(2)

test.use({ appEnv: SIGN_IN_APP_ENV, walletOptions: { accounts: [ADA] } })

const discussion = (page: Page) => page.locator('#discussion')
const comments = (page: Page) => discussion(page).getByTestId('comment')
const commentWith = (page: Page, text: string | RegExp) => comments(page).filter({ hasText: text })

/** Signs in as the wallet's account and writes a proposal; ends on its page. */
async function signInAndPropose(page: Page, app: App, title: string) {
  await connectToVerify(page, app)
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Proposals' }).click()
  await page.getByRole('link', { name: 'New proposal' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
}

/** Writes a top-level comment and waits until the thread shows it. */
async function comment(page: Page, text: string) {
  const box = discussion(page).getByLabel('Add a comment')
  await box.fill(text)
  await discussion(page).getByRole('button', { name: 'Comment', exact: true }).click()
  await expect(box).toHaveValue('')
  await expect(commentWith(page, text)).toBeVisible()
}

/** A second browser (its own cookies and wallet) signed in as `account`, open on `path`. */
async function otherMember(browser: Browser, chains: Chains, app: App, account: `0x${string}`, path: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await TestWallet.install(page, {
    chains: [
      { chainId: 31337, rpcUrl: chains.dao.url, name: 'Local chain' },
      { chainId: SECOND_CHAIN_ID, rpcUrl: chains.second.url, name: 'Guildhall Testnet' },
    ],
    accounts: [account],
  })
  await connectToVerify(page, app)
  await signIn(page)
  await page.goto(`${app.url}${path}`)
  return { page, close: () => context.close() }
}

test('a member authorises a key once, then posts, replies, edits, reacts and mentions without wallet prompts; another member’s comment arrives live; a withdrawal and a vote card follow; the thread verifies', async ({
  page,
  app,
  wallet,
  browser,
  chains,
}) => {
  await signInAndPropose(page, app, 'Plant an orchard')
  const path = new URL(page.url()).pathname
  await expect(discussion(page).getByRole('heading', { name: 'Discussion (0)' })).toBeVisible()
  await expect(discussion(page)).toContainText('Up to 10,000 characters · replies nest 3 deep')
  await expect(discussion(page)).toContainText(
    'Your wallet will ask once: Let this browser sign your comments, reactions and flags for 30 days. Proposals, votes and delegation still ask your wallet.',
  )
  await wallet.clearRequests()

  // Authorise once: the first comment asks the wallet for the key; the rest are signed by the key alone.
  await comment(page, 'Apples first, @ben.eth?')
  await comment(page, 'Pears do well here too.')
  const first = commentWith(page, 'Apples first')
  await first.getByRole('button', { name: 'Reply' }).click()
  await first.getByLabel('Your reply').fill('Agreed, apples.')
  await first.getByRole('button', { name: 'Reply', exact: true }).last().click()
  await expect(commentWith(page, 'Agreed, apples.')).toBeVisible()
  await expect(page.locator('.thread-item.depth-1')).toContainText('Agreed, apples.')

  // The mention links the member page of the address signed for it.
  await expect(first.getByRole('link', { name: '@ben.eth' })).toHaveAttribute('href', `/members/${BEN}`)

  // Edit: a new version; "edited" opens every version.
  await commentWith(page, 'Pears do well').getByRole('button', { name: 'Edit' }).click()
  await discussion(page).getByLabel('Edit your comment').fill('Pears and plums do well here too.')
  await discussion(page).getByRole('button', { name: 'Save the new version' }).click()
  const edited = commentWith(page, 'Pears and plums')
  await edited.getByRole('button', { name: 'edited' }).click()
  const versions = edited.getByRole('list', { name: 'Versions' }).getByRole('listitem')
  await expect(versions).toHaveCount(2)
  await expect(versions.first()).toContainText('Pears do well here too.')
  await expect(versions.last()).toContainText('Pears and plums do well here too.')

  // React: a toggle, pressed with its count.
  await first.getByRole('button', { name: 'Thumbs up: 0' }).click()
  await expect(first.getByRole('button', { name: 'Thumbs up: 1' })).toHaveAttribute('aria-pressed', 'true')

  expect(await wallet.requests('eth_signTypedData_v4')).toHaveLength(1)
  await expect(discussion(page)).not.toContainText('Your wallet will ask once')

  // Another member's comment arrives without a reload.
  await page.evaluate(() => {
    ;(window as { stillHere?: boolean }).stillHere = true
  })
  const ben = await otherMember(browser, chains, app, BEN, path)
  await comment(ben.page, 'Ben here: plums, please.')
  await expect(commentWith(page, 'Ben here: plums, please.')).toBeVisible()
  await ben.close()
  expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true)

  // Withdraw: the text goes, the comment stays, saying so.
  await commentWith(page, 'Agreed, apples.').getByRole('button', { name: 'Withdraw' }).click()
  await expect(comments(page).filter({ hasText: 'Withdrawn by the author' })).toHaveCount(1)
  await expect(discussion(page)).not.toContainText('Agreed, apples.')

  // A vote with a reason appears in the thread as a card linking the signed vote.
  await votePanel(page)
    .getByLabel(/Reason/)
    .fill('Apples to share.')
  await vote(page, 'For')
  const card = discussion(page).getByTestId('vote-card')
  await expect(card).toContainText(/ada\.eth voted For · 1,250 GHD/)
  await expect(card).toContainText('Apples to share.')
  await expect(card.getByRole('link', { name: 'The signed vote' })).toHaveAttribute(
    'href',
    /^\/api\/governance\/log\?after=\d+$/,
  )
  expect(await wallet.requests('eth_signTypedData_v4')).toHaveLength(2)

  // The thread recounts in the browser: every message signed by an authorised key and in the log.
  await discussion(page).getByRole('button', { name: 'Verify this thread' }).click()
  await expect(discussion(page).getByTestId('thread-recount-result')).toHaveText(
    /^Verified: \d+ messages, all signed by authorised keys and in the log\.$/,
  )
})

test('a topic: started under a category, listed with its replies, proposed from its page with its text and a link back; the proposal and the topic then link each other', async ({
  page,
  app,
}) => {
  await connectToVerify(page, app)
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discussions' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Discussions')
  await page.getByRole('button', { name: 'New topic' }).click()
  await page.getByLabel('Category').selectOption('Ideas')
  await page.getByLabel('Title').fill('A community garden')
  await page.getByLabel('Text').fill('Beds for every member.')
  await page.getByRole('button', { name: 'Start the topic' }).click()
  await expect(page).toHaveURL(/\/discussions\/0x[0-9a-f]{64}$/)
  const topicPath = new URL(page.url()).pathname
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('A community garden')
  await comment(page, 'Count me in.')

  await page.getByRole('link', { name: '← Discussions' }).click()
  const row = page.getByTestId('topic-row').filter({ hasText: 'A community garden' })
  await expect(row).toContainText('Ideas')
  await expect(row).toContainText('1 reply')
  await page.getByRole('button', { name: 'Questions' }).click()
  await expect(row).toHaveCount(0)
  await page.getByRole('button', { name: 'All' }).click()
  await row.getByRole('link', { name: 'A community garden' }).click()

  await page.getByRole('link', { name: 'Propose from this topic' }).click()
  await expect(page).toHaveURL(/\/proposals\/new$/)
  await expect(page.getByLabel('Title')).toHaveValue('A community garden')
  await expect(page.getByLabel(/Description/)).toHaveValue(
    `Beds for every member.\n\nDiscussed at ${app.url}${topicPath}`,
  )

  // Proposed, the two link each other: the proposal's discussion names the topic, the topic the proposal.
  await page.getByRole('button', { name: 'Sign and submit' }).click()
  await expect(page).toHaveURL(/\/proposals\/0x[0-9a-f]{64}$/)
  await expect(discussion(page)).toContainText('Discussed first in the topic A community garden.')
  await discussion(page).getByRole('link', { name: 'A community garden' }).click()
  await expect(page).toHaveURL(new RegExp(`${topicPath}$`))
  await expect(page.getByTestId('topic-body')).toContainText('Became proposal A community garden')
  await expect(page.getByRole('link', { name: 'Propose from this topic' })).toHaveCount(0)
})

test('the keys beside “Your sessions”: this browser’s key listed and revoked by a wallet signature; the next comment asks the wallet again', async ({
  page,
  app,
  wallet,
}) => {
  await signInAndPropose(page, app, 'Keys and their revocation')
  const path = new URL(page.url()).pathname
  await comment(page, 'Signed by this browser’s key.')
  await page.goto(`${app.url}/account/sessions`)
  // The member may hold keys of other browsers (earlier tests on this worker's app): this browser's is one.
  const here = page.getByTestId('discussion-key').filter({ hasText: 'This browser' })
  await expect(here).toHaveCount(1)
  const address = (await here.locator('code').textContent()) ?? ''
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  const key = page.getByTestId('discussion-key').filter({ hasText: address })
  await expect(key).toContainText('may sign: comment, react, flag, moderate')
  await wallet.clearRequests()
  await key.getByRole('button', { name: /^Revoke the key 0x/ }).click()
  await expect(page.getByText('The key is revoked: it can no longer sign for you.')).toBeVisible()
  await expect(key).toContainText('Revoked')
  expect(await wallet.requests('eth_signTypedData_v4')).toHaveLength(1)

  await page.goto(`${app.url}${path}`)
  await expect(discussion(page)).toContainText('Your wallet will ask once:')
  await comment(page, 'Signed by a new key.')
  expect(await wallet.requests('eth_signTypedData_v4')).toHaveLength(1)
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the thread (nested replies, reactions, the composer) and the topics fit 390 px: no sideways scrolling, no axe violations', async ({
    page,
    app,
  }) => {
    await signInAndPropose(page, app, 'A long discussion on a small screen')
    await comment(page, 'A top-level comment with a long unbroken word: Donaudampfschifffahrtsgesellschaft.')
    for (const [depth, text] of ['One deep.', 'Two deep.', 'Three deep.'].entries()) {
      const parent = comments(page).nth(depth)
      await parent.getByRole('button', { name: 'Reply' }).click()
      await parent.getByLabel('Your reply').fill(text)
      await parent.getByRole('button', { name: 'Reply', exact: true }).last().click()
      await expect(commentWith(page, text)).toBeVisible()
    }
    await expect(page.locator('.thread-item.depth-3')).toContainText('Three deep.')
    // At the depth limit a comment offers no reply.
    await expect(commentWith(page, 'Three deep.').getByRole('button', { name: 'Reply' })).toHaveCount(0)
    // The thread as a member sees it (composer, reactions, menus, nested replies) passes axe.
    expect((await axeFindings(page)).findings).toEqual([])
    for (const path of [new URL(page.url()).pathname, '/discussions']) {
      if (path === '/discussions')
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Discussions' })
          .click()
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
        innerWidth: window.innerWidth,
      }))
      expect(scrollWidth, path).toBeLessThanOrEqual(innerWidth)
    }
  })
})
