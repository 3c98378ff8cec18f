// Discussion reads over HTTP (in-process; the live stream over a real socket), against a real anvil, real
// signatures and the test database (PGlite, or PostgreSQL under scripts/with-postgres.sh): a thread's page
// in tree order and its pages, vote cards from the votes with a reason, the bundle the thread recount
// verifies (and an altered body it reports), the live stream, a topic made a proposal, visits and reactions.
import { type ThreadPage, threadPageSchema, topicJsonSchema } from '@guildhall/core'
import { recountThread } from '@guildhall/core/recount'
import { eq, sql } from 'drizzle-orm'
import { createPublicClient, type Hex, http, type PublicClient, zeroHash } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  authoriseKey,
  ben,
  cleo,
  commentMessage,
  cookies,
  createProposal,
  createTopic,
  database,
  domain,
  get,
  post,
  postComment,
  signWith,
  useDiscussionBed,
} from '../../testbed/beds/discussion.ts'
import { openStream } from '../../testbed/event-stream.ts'
import { nowSeconds, signVote } from '../../testbed/signers.ts'
import { discussionMessages } from '../platform/db/schema.ts'

useDiscussionBed()

/** Every page of a thread at `limit` a page: the bodies or vote reasons, page by page. */
async function pagesOf(thread: Hex, limit: number, cookie?: string) {
  const pages: ThreadPage[] = []
  let cursor: string | null = null
  do {
    const query: string = cursor ? `&cursor=${cursor}` : ''
    const response = await get(`/api/threads/${thread}/items?limit=${limit}${query}`, cookie)
    expect(response.statusCode).toBe(200)
    const page = threadPageSchema.parse(response.json())
    pages.push(page)
    cursor = page.next
  } while (cursor)
  return pages.map((page) =>
    page.items.map((item) => (item.type === 'comment' ? item.comment.body : `vote: ${item.vote.reason}`)),
  )
}

const vote = async (
  voter: typeof ada,
  proposal: Hex,
  fields: { reason: string; choices?: number[]; timestamp?: number },
) => {
  const { message, signature } = await signVote(voter, domain, { proposal, ...fields })
  const response = await post(`/api/proposals/${proposal}/votes`, { message, signature })
  expect(response.statusCode).toBe(201)
}

describe('a thread read in tree order, a page at a time', () => {
  test('behavior: each top-level comment is followed by its replies depth-first; pages of 2 walk it without gaps or repeats', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const say = async (body: string, parent: Hex = zeroHash) =>
      (await postComment(key, ada, commentMessage(ada.address, thread, { body, parent }))).id
    const a = await say('A')
    const b = await say('B')
    const a1 = await say('A.1', a)
    await say('A.1.a', a1)
    await say('A.2', a)
    await say('B.1', b)
    await say('C')
    expect(await pagesOf(thread, 2)).toEqual([['A', 'A.1'], ['A.1.a', 'A.2'], ['B', 'B.1'], ['C']])
    expect((await pagesOf(thread, 50)).flat()).toEqual(['A', 'A.1', 'A.1.a', 'A.2', 'B', 'B.1', 'C'])
    const view = await get(`/api/threads/${thread}`)
    expect(view.json()).toMatchObject({ id: thread, kind: 'topic', commentCount: 7, locked: null })
  })
})

describe('vote cards', () => {
  test('behavior: a counting vote with a reason is a card in log order with the comments; a re-vote moves it and is marked; a vote without a reason is none', async () => {
    const proposal = await createProposal(ada)
    const { key } = await authoriseKey(cleo)
    await vote(ada, proposal, { reason: 'The roof must hold.', timestamp: nowSeconds() - 5 })
    await vote(ben, proposal, { reason: '' })
    await postComment(key, cleo, commentMessage(cleo.address, proposal, { body: 'What does it cost?' }))
    expect((await pagesOf(proposal, 50)).flat()).toEqual(['vote: The roof must hold.', 'What does it cost?'])
    await vote(ada, proposal, { reason: 'Too dear: against.', choices: [2] })
    const [page] = await pagesOf(proposal, 50)
    expect(page).toEqual(['What does it cost?', 'vote: Too dear: against.'])
    // Pages of one card or comment each: the cards page by their log seq as the comments by their path.
    expect(await pagesOf(proposal, 1)).toEqual([['What does it cost?'], ['vote: Too dear: against.']])
    const items = threadPageSchema.parse((await get(`/api/threads/${proposal}/items`)).json()).items
    const card = items.find((item) => item.type === 'vote')
    expect(card?.type === 'vote' && card.vote).toMatchObject({
      voter: ada.address,
      choice: 'Against',
      revote: true,
    })
    const view = await get(`/api/threads/${proposal}`)
    expect(view.json()).toMatchObject({
      kind: 'proposal',
      proposal: { id: proposal, title: 'Repair the roof' },
    })
  })
})

describe('the bundle', () => {
  test('behavior: a thread’s bundle verifies with the thread recount; an altered stored body is reported', async () => {
    const { key } = await authoriseKey(ben, { scopes: ['comment', 'react'] })
    const thread = await createTopic(key, ben)
    const { id } = await postComment(
      key,
      ben,
      commentMessage(ben.address, thread, { body: 'Original words.' }),
    )
    await postComment(key, ben, commentMessage(ben.address, thread, { body: 'A reply.', parent: id }))
    const reaction = await signWith(key, 'reaction', {
      author: ben.address,
      target: id,
      reaction: 'heart',
      on: true,
      timestamp: nowSeconds(),
    })
    const reacted = await post(
      '/api/reactions',
      { message: reaction.message, signature: reaction.signature },
      cookies.get(ben.address),
    )
    expect(reacted.statusCode).toBe(200)
    expect(reacted.json().comment.reactions).toEqual([{ reaction: 'heart', count: 1, mine: true }])
    // The page is read once for readers asking together; only Ben's answer marks the heart as his.
    const [asBen, asAda, signedOut] = await Promise.all([
      get(`/api/threads/${thread}/items`, cookies.get(ben.address)),
      get(`/api/threads/${thread}/items`, cookies.get(ada.address)),
      get(`/api/threads/${thread}/items`),
    ])
    const reactionsOf = (response: typeof asBen) =>
      threadPageSchema
        .parse(response.json())
        .items.flatMap((item) =>
          item.type === 'comment' && item.comment.id === id ? item.comment.reactions : [],
        )
    expect(reactionsOf(asBen)).toEqual([{ reaction: 'heart', count: 1, mine: true }])
    expect(reactionsOf(asAda)).toEqual([{ reaction: 'heart', count: 1, mine: false }])
    expect(reactionsOf(signedOut)).toEqual([{ reaction: 'heart', count: 1, mine: false }])
    const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
    const clean = await get(`/api/threads/${thread}/bundle`)
    expect(clean.statusCode).toBe(200)
    const report = await recountThread(clean.json(), { client })
    expect(report.problems).toEqual([])
    expect(report).toMatchObject({ matches: true, messagesChecked: 4 })
    // The stored text changed behind the log's back.
    await database.db
      .update(discussionMessages)
      .set({ message: sql`jsonb_set(${discussionMessages.message}, '{body}', '"Altered words."')` })
      .where(eq(discussionMessages.id, id))
    const altered = await recountThread((await get(`/api/threads/${thread}/bundle`)).json(), { client })
    expect(altered.matches).toBe(false)
    expect(altered.problems.join('\n')).toContain('its text does not match its signature')
  })
})

describe('live', () => {
  test('behavior: the thread’s stream sends a `thread` event after a comment', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('not listening')
    const stream = await openStream(`http://127.0.0.1:${address.port}/api/threads/${thread}/events`)
    try {
      expect(stream.response.status).toBe(200)
      const { response } = await postComment(key, ada, commentMessage(ada.address, thread, { body: 'Live!' }))
      const [event] = await stream.until(1)
      expect(event).toEqual({
        id: String(response.json().comment.logSeq),
        event: 'thread',
        data: { threadId: thread, seq: response.json().comment.logSeq, kind: 'comment' },
      })
    } finally {
      stream.close()
    }
  })
})

describe('topics', () => {
  test('behavior: a proposal whose body links a topic becomes its proposal, and each links the other', async () => {
    const { key } = await authoriseKey(ada)
    const topic = await createTopic(key, ada, { title: 'Fix the roof?' })
    const proposal = await createProposal(ada, {
      body: `Discussed at http://127.0.0.1:3999/discussions/${topic}`,
    })
    const read = topicJsonSchema.parse((await get(`/api/discussion/topics/${topic}`)).json())
    expect(read.proposal).toEqual({ id: proposal, title: 'Repair the roof' })
    const view = await get(`/api/threads/${proposal}`)
    expect(view.json().topic).toEqual({ id: topic, title: 'Fix the roof?' })
    const list = await get('/api/discussion/topics?category=Ideas&limit=100')
    expect(list.json().items.map((item: { id: string }) => item.id)).toContain(topic)
  })

  test('behavior: the topics list pages by latest activity; a topic with a new comment comes first', async () => {
    const { key } = await authoriseKey(ben)
    const older = await createTopic(key, ben, { category: 'Questions' })
    const newer = await createTopic(key, ben, { category: 'Questions' })
    await postComment(key, ben, commentMessage(ben.address, older, { body: 'Bump.' }))
    const first = await get('/api/discussion/topics?category=Questions&limit=1')
    expect(first.json().items.map((item: { id: string }) => item.id)).toEqual([older])
    const second = await get(`/api/discussion/topics?category=Questions&limit=1&cursor=${first.json().next}`)
    expect(second.json().items.map((item: { id: string }) => item.id)).toEqual([newer])
  })

  test('behavior: a category with a NUL character or over the limit is a 400 naming it, never a 500', async () => {
    for (const category of ['%00', 'x'.repeat(41)]) {
      const answer = await get(`/api/discussion/topics?category=${category}`)
      expect(answer.statusCode, answer.body).toBe(400)
      expect(answer.json().message).toContain('The category')
    }
  })
})

describe('visits', () => {
  test('behavior: seen marks a member’s last visit, moving forward only; a signed-out reader has none', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const cookie = cookies.get(ada.address)
    expect((await post(`/api/threads/${thread}/seen`, { seq: 40 }, cookie)).statusCode).toBe(204)
    expect((await post(`/api/threads/${thread}/seen`, { seq: 30 }, cookie)).statusCode).toBe(204)
    expect((await get(`/api/threads/${thread}`, cookie)).json().lastSeenSeq).toBe(40)
    expect((await get(`/api/threads/${thread}`)).json().lastSeenSeq).toBeNull()
    expect((await post(`/api/threads/${thread}/seen`, { seq: 1 })).json().error).toBe('not_signed_in')
  })
})
