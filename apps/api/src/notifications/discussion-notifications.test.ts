// Notifications of the discussion (ADR 055) from comments and topics accepted by the discussion API (signed by
// authorised keys, on a real chain and database: PGlite, or PostgreSQL under scripts/with-postgres.sh): a new
// comment is a `comment.created` webhook (an edit is not), signed and verified with `standardwebhooks`; the
// proposal's discussion feed lists its comments (a withdrawn one without its text) and the topics feed its topics.
import { JSDOM } from 'jsdom'
import { Webhook } from 'standardwebhooks'
import type { Hex } from 'viem'
import { expect, test } from 'vitest'
import {
  ada,
  app,
  authoriseKey,
  commentMessage,
  cookies,
  createProposal,
  createTopic,
  database,
  get,
  post,
  postComment,
  signWith,
  useDiscussionBed,
} from '../../testbed/beds/discussion.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { ORIGIN } from '../../testbed/test-app.ts'
import { useWebhookReceiver, webhookJobFor } from '../../testbed/webhook-receiver.ts'
import type { WebhookPayload } from './webhook-request.ts'

useDiscussionBed()
const hooks = useWebhookReceiver()

/** The leader's job for one webhook on the bed's database, run a pass at a time. */
function webhookJob() {
  return webhookJobFor(database.db, {
    name: 'talk',
    url: hooks.receiver.url,
    secret: hooks.secret,
    events: ['comment.created', 'moderation.action'],
  })
}

const ATOM = 'http://www.w3.org/2005/Atom'
function atomEntries(xml: string) {
  const document = new new JSDOM().window.DOMParser().parseFromString(xml, 'application/xml')
  expect(document.getElementsByTagName('parsererror')).toHaveLength(0)
  return [...document.getElementsByTagNameNS(ATOM, 'entry')].map((entry) => ({
    id: entry.getElementsByTagNameNS(ATOM, 'id')[0]?.textContent,
    title: entry.getElementsByTagNameNS(ATOM, 'title')[0]?.textContent,
    content: entry.getElementsByTagNameNS(ATOM, 'content')[0]?.textContent,
  }))
}

test('a new comment on a proposal is a signed comment.created webhook naming the comment, its thread and the proposal; its edit is not another; the discussion feed lists the comments, a withdrawn one without its text', async () => {
  const job = webhookJob()
  const proposal = await createProposal(ada)
  const { key } = await authoriseKey(ada)
  const first = await postComment(
    key,
    ada,
    commentMessage(ada.address, proposal, { body: 'I support <this> & that.' }),
  )
  expect(first.response.statusCode, first.response.body).toBe(201)
  const second = await postComment(
    key,
    ada,
    commentMessage(ada.address, proposal, { body: 'Second thoughts.' }),
  )
  expect(second.response.statusCode, second.response.body).toBe(201)
  const edit = await postComment(
    key,
    ada,
    commentMessage(ada.address, proposal, {
      body: 'I support <this> & more.',
      replaces: first.id,
      timestamp: nowSeconds() + 1,
    }),
  )
  expect(edit.response.statusCode, edit.response.body).toBe(201)
  const withdrawal = await signWith(key, 'withdrawal', {
    author: ada.address,
    comment: second.id,
    timestamp: nowSeconds(),
  })
  const withdrawn = await post(
    '/api/comments/withdraw',
    { message: withdrawal.message, signature: withdrawal.signature },
    cookies.get(ada.address),
  )
  expect(withdrawn.statusCode, withdrawn.body).toBe(200)

  await job.pass()
  await hooks.receiver.until((received) => received.length >= 2)
  const payloads = hooks.receiver.received.map((request) => {
    new Webhook(hooks.secret).verify(request.body, request.headers as Record<string, string>)
    return JSON.parse(request.body) as WebhookPayload
  })
  expect(payloads.map((p) => [p.type, p.data.commentId])).toEqual([
    ['comment.created', first.id],
    ['comment.created', second.id],
  ])
  expect(payloads[0]?.data).toMatchObject({
    threadId: proposal,
    proposalId: proposal,
    author: ada.address,
    url: `${ORIGIN}/proposals/${proposal}`,
  })
  // No comment text in a webhook: it may be hidden or withdrawn after it is sent.
  expect(hooks.receiver.received.map((r) => r.body).join('')).not.toContain('I support')
  await job.pass()
  expect(hooks.receiver.received).toHaveLength(2)

  const feed = await get(`/feeds/proposals/${proposal}/discussion.atom`)
  expect(feed.statusCode).toBe(200)
  const entries = atomEntries(feed.body)
  const url = `${ORIGIN}/proposals/${proposal}`
  expect(entries.map((e) => [e.id, e.content])).toEqual([
    [`${url}#comment-${second.id}`, 'Withdrawn by its author.'],
    [`${url}#comment-${first.id}`, 'I support <this> & more.'],
    [url, expect.any(String)],
  ])
})

test('GET /feeds/topics.atom lists the latest topics, newest first, title and text as written', async () => {
  const { key } = await authoriseKey(ada)
  const older = await createTopic(key, ada, { title: 'Plant <trees> & "shrubs"', body: 'Where?' })
  const newer = await createTopic(key, ada, { title: 'A second topic', body: 'More.' })
  const feed = await app.inject({ url: '/feeds/topics.atom' })
  expect(feed.statusCode).toBe(200)
  const entries = atomEntries(feed.body)
  expect(entries.slice(0, 2)).toEqual([
    { id: `${ORIGIN}/discussions/${newer as Hex}`, title: 'A second topic', content: 'More.' },
    { id: `${ORIGIN}/discussions/${older as Hex}`, title: 'Plant <trees> & "shrubs"', content: 'Where?' },
  ])
})
