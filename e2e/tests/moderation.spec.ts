// Moderation in the browser (ADR 054): a moderator hides a comment from its menu with a reason, the thread
// shows it collapsed with who and why, and the public moderation log lists the action with a link back to
// the comment; the operator's takedown shows there as "Removed by the operator"; the log at 390 px.
// Ben's topic and comment are posted over the API with his own signed-in session and key (the thread's
// own UI is discussion.spec.ts's); Cleo, a moderator, works in the browser.

import { takedown } from '@guildhall/api/operations'
import { demoDomain, signIn as signInOverHttp } from '@guildhall/api/testbed'
import { type DiscussionMessageKind, type DiscussionMessages, signWithDiscussionKey } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { Page } from '@playwright/test'
import { type Hex, zeroHash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { type App, expect, member, test } from '../support/fixtures.ts'
import { axeFindings } from './axe-helpers.ts'
import { connectToVerify, SIGN_IN_APP_ENV, signIn } from './sign-in-helpers.ts'

const CLEO = member(3)
const ben = privateKeyToAccount(anvilAccounts[2]?.privateKey as Hex)

test.use({ appEnv: { ...SIGN_IN_APP_ENV, MODERATORS: CLEO }, walletOptions: { accounts: [CLEO] } })

const comments = (page: Page) => page.locator('#discussion').getByTestId('comment')
const commentWith = (page: Page, text: string | RegExp) => comments(page).filter({ hasText: text })
const logRows = (page: Page) => page.getByTestId('moderation-action')

/** Ben signed in over HTTP with a key of his own: what he posts is signed and checked as in the browser. */
async function benOnTheApi(app: App) {
  const cookie = await signInOverHttp(app.url, ben, app.settings.publicConfig.dao.name)
  const key = privateKeyToAccount(generatePrivateKey())
  const domain = demoDomain({ token: app.settings.publicConfig.token?.address as Hex })
  let clock = Math.floor(Date.now() / 1000) - 60
  const post = async <K extends DiscussionMessageKind>(
    path: string,
    signer: typeof ben,
    kind: K,
    message: DiscussionMessages[K],
  ) => {
    const signed = await signWithDiscussionKey(signer, domain, kind, message)
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/json', cookie },
      body: JSON.stringify({ message: signed.message, signature: signed.signature }),
    })
    expect(response.status, await response.clone().text()).toBe(201)
    return signed.id
  }
  // Posting is open to holders (DISCUSSION_POSTERS), read from the token index, which an app started for
  // this file may not have caught up yet (seen under a full run's load): wait until it lists Ben's tokens.
  await expect
    .poll(
      async () => {
        const profile = (await (await fetch(`${app.url}/api/members/${ben.address}`)).json()) as {
          balance: string
        }
        return BigInt(profile.balance) > 0n
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const timestamp = Math.floor(Date.now() / 1000)
  await post('/api/discussion/keys', ben, 'discussion-key', {
    member: ben.address,
    key: key.address,
    scopes: ['comment', 'react', 'flag'],
    expires: timestamp + 3600,
    timestamp,
  })
  return {
    topic: (title: string, body: string) =>
      post('/api/discussion/topics', key, 'topic', {
        author: ben.address,
        category: 'General',
        title,
        body,
        mentions: [],
        timestamp: ++clock,
      }),
    comment: (thread: Hex, body: string) =>
      post('/api/comments', key, 'comment', {
        author: ben.address,
        thread,
        parent: zeroHash,
        replaces: zeroHash,
        body,
        mentions: [],
        timestamp: ++clock,
      }),
  }
}

test('a moderator hides a comment from its menu with a reason; the thread collapses it with who and why; the public log lists it with a link back, and the operator’s takedown after it', async ({
  page,
  app,
}) => {
  const benApi = await benOnTheApi(app)
  const topic = await benApi.topic('Where should the offsite be?', 'Lisbon or Porto?')
  const spam = await benApi.comment(topic, 'Cheap tokens at scam.example, hurry')

  await connectToVerify(page, app)
  await signIn(page)
  await page.goto(`${app.url}/discussions/${topic}`)
  // By its anchor: once hidden, its text is collapsed.
  const target = page.locator(`#comment-${spam}`)
  await expect(target).toContainText('scam.example')
  await target.getByLabel('More actions').click()
  await target.getByRole('button', { name: 'Hide' }).click()
  await target.getByLabel('Why is it hidden? (shown to everyone)').fill('spam')
  await target.getByRole('button', { name: 'Hide' }).last().click()
  // Collapsed, never deleted: who and why, and the text one click away.
  await expect(target).toContainText(/Hidden by cleo\.eth: spam/)
  await expect(target).not.toContainText('scam.example')
  await target.getByRole('button', { name: 'show' }).click()
  await expect(target).toContainText('scam.example')

  await page.goto(`${app.url}/moderation`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Moderation')
  const hide = logRows(page).first()
  await expect(hide).toContainText(/cleo\.eth\s*hid a comment/)
  await expect(hide).toContainText('Reason: spam')
  await hide.getByRole('link', { name: 'A comment in “Where should the offsite be?”' }).click()
  await expect(page).toHaveURL(`${app.url}/discussions/${topic}#comment-${spam}`)
  await expect(page.locator(`#comment-${spam}`)).toContainText(/Hidden by cleo\.eth: spam/)

  // The operator's takedown, on the server's database as `npm run takedown` runs it.
  await takedown(app.database.db, { id: spam, reason: 'court order 2026-114', now: new Date() })
  await page.goto(`${app.url}/moderation`)
  const removed = logRows(page).first()
  await expect(removed).toContainText('Removed by the operator')
  await expect(removed).toContainText('Reason: court order 2026-114')
  await expect(logRows(page)).toHaveCount(2)
  await page.goto(`${app.url}/discussions/${topic}`)
  await expect(commentWith(page, 'Removed by the operator: court order 2026-114')).toBeVisible()
  await expect(page.locator('#discussion')).not.toContainText('scam.example')
})

test('the moderation log on a phone (390 px) in the dark scheme: no sideways scroll, every row within the page, no axe violations with rows listed', async ({
  page,
  app,
}) => {
  const benApi = await benOnTheApi(app)
  const topic = await benApi.topic(
    'A very long topic title that has to wrap on a narrow phone screen without pushing the page sideways',
    'Body',
  )
  const comment = await benApi.comment(topic, 'x'.repeat(400))
  await takedown(app.database.db, {
    id: comment,
    reason: 'A long reason that should wrap as well: personal data of a third party, removed on request',
    now: new Date(),
  })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(`${app.url}/moderation`)
  await expect(logRows(page).first()).toContainText('Removed by the operator')
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll).toBeLessThanOrEqual(widths.client)
  for (const row of await logRows(page).all()) {
    const box = await row.boundingBox()
    expect((box?.x ?? -1) + (box?.width ?? 1000)).toBeLessThanOrEqual(390)
  }
  expect((await axeFindings(page)).findings).toEqual([])
})
