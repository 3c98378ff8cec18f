// Moderation over HTTP (ADR 054) against a real chain (anvil with the demo DAO, its token indexed) and a real
// database (PGlite, or PostgreSQL under scripts/with-postgres.sh): moderators' signed hides, unhides, locks and
// unlocks, members' flags and the hide by flags, the operator's takedown, and the public log's pages.
import {
  type CommentJson,
  type LogEntry,
  logChainProblem,
  moderationActionListSchema,
  moderationActionResponseSchema,
  threadPageSchema,
} from '@guildhall/core'
import { recountThread, type ThreadBundle } from '@guildhall/core/recount'
import { asc, count, eq } from 'drizzle-orm'
import { createPublicClient, type Hex, http, type PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  authoriseKey,
  ben,
  cleo,
  commentMessage,
  cookies,
  createTopic,
  database,
  get,
  iris,
  post,
  postComment,
  signIn,
  signWith,
  useDiscussionBed,
} from '../../testbed/beds/discussion.ts'
import { member, nowSeconds } from '../../testbed/signers.ts'
import { logEntry } from '../governance/log.ts'
import {
  commentFlags,
  comments,
  commentVersions,
  discussionMessages,
  governanceLog,
  moderationActions,
  threads,
} from '../platform/db/schema.ts'
import { TakedownRefused, takedown } from './takedown.ts'

// Cleo and Dev moderate. Ada, Ben and Cleo have voting power, Dev holds tokens delegated to Ada, Finn holds
// tokens he never delegated, Iris holds nothing.
const dev = member(4)
const finn = member(6)
const FLAGS_TO_HIDE = 3

useDiscussionBed({
  MODERATORS: `${cleo.address.toLowerCase()},${dev.address}`,
  DISCUSSION_FLAGS_TO_HIDE: String(FLAGS_TO_HIDE),
})

/** Each member's key with every scope, authorised once per file (signed in first if the bed did not). */
const keys = new Map<string, PrivateKeyAccount>()
async function keyOf(account: PrivateKeyAccount): Promise<PrivateKeyAccount> {
  const known = keys.get(account.address)
  if (known) return known
  if (!cookies.has(account.address)) cookies.set(account.address, await signIn(account))
  const { key, response } = await authoriseKey(account, { scopes: ['comment', 'react', 'flag', 'moderate'] })
  expect(response.statusCode, response.body).toBe(201)
  keys.set(account.address, key)
  return key
}

/** Each signed message gets its own second, so two otherwise equal messages are never a replay. */
let clock = nowSeconds() - 120
const timestamp = () => ++clock

const TOPIC_TITLE = 'Where should the offsite be?'
const newTopic = async (author: PrivateKeyAccount): Promise<Hex> =>
  createTopic(await keyOf(author), author, {
    title: TOPIC_TITLE,
    category: 'General',
    timestamp: timestamp(),
  })

async function newComment(author: PrivateKeyAccount, thread: Hex, body: string, replaces?: Hex) {
  const posted = await postComment(
    await keyOf(author),
    author,
    commentMessage(author.address, thread, {
      body,
      timestamp: timestamp(),
      ...(replaces ? { replaces } : {}),
    }),
  )
  return { id: posted.id, status: posted.response.statusCode, response: posted.response.json() }
}

async function moderation(
  moderator: PrivateKeyAccount,
  action: 'hide' | 'unhide' | 'lock' | 'unlock',
  target: Hex,
  reason: string,
) {
  const signed = await signWith(await keyOf(moderator), 'moderation', {
    moderator: moderator.address,
    target,
    action,
    reason,
    timestamp: timestamp(),
  })
  const body = { message: signed.message, signature: signed.signature }
  return { signed, response: await post('/api/moderation', body, cookies.get(moderator.address)) }
}

async function flag(flagger: PrivateKeyAccount, comment: Hex, reason = 'spam') {
  const signed = await signWith(await keyOf(flagger), 'flag', {
    author: flagger.address,
    comment,
    reason,
    timestamp: timestamp(),
  })
  const body = { message: signed.message, signature: signed.signature }
  return { signed, response: await post('/api/flags', body, cookies.get(flagger.address)) }
}

/** The comment as the thread's page shows it. */
async function commentInThread(thread: Hex, id: Hex): Promise<CommentJson> {
  const page = threadPageSchema.parse((await get(`/api/threads/${thread}/items?limit=200`)).json())
  const item = page.items.find((entry) => entry.type === 'comment' && entry.comment.id === id)
  if (item?.type !== 'comment') throw new Error(`comment ${id} is not in its thread's page`)
  return item.comment
}

const rowsOf = async () => ({
  log: (await database.db.select({ n: count() }).from(governanceLog))[0]?.n,
  messages: (await database.db.select({ n: count() }).from(discussionMessages))[0]?.n,
  actions: (await database.db.select({ n: count() }).from(moderationActions))[0]?.n,
  flags: (await database.db.select({ n: count() }).from(commentFlags))[0]?.n,
})

const logEntriesOf = async (messageId: Hex) =>
  (
    await database.db
      .select()
      .from(governanceLog)
      .where(eq(governanceLog.messageId, messageId))
      .orderBy(asc(governanceLog.seq))
  ).map(logEntry)

describe('moderators: hide, unhide, lock, unlock', () => {
  test('behavior: a moderator’s hide → 201, logged as a moderation entry; the thread page shows the comment collapsed with by and reason; its text is still in the thread bundle', async () => {
    const thread = await newTopic(ada)
    const { id } = await newComment(ben, thread, 'Buy my token at scam.example')
    const { signed, response } = await moderation(cleo, 'hide', id, 'spam')
    expect(response.statusCode, response.body).toBe(201)
    const { action } = moderationActionResponseSchema.parse(response.json())
    const [entry, ...more] = await logEntriesOf(signed.id)
    expect(more).toEqual([])
    expect(entry).toMatchObject({ kind: 'moderation', signature: signed.signature })
    expect(action).toEqual({
      id: signed.id,
      moderator: cleo.address,
      kind: 'hide',
      target: id,
      thread,
      reason: 'spam',
      at: signed.message.timestamp,
      logSeq: entry?.seq,
    })

    const shown = await commentInThread(thread, id)
    expect(shown.hidden).toEqual({
      by: cleo.address,
      reason: 'spam',
      at: signed.message.timestamp,
      logSeq: entry?.seq,
    })
    // Collapsed, not deleted: the text is still served with it, and in the bundle with its signature.
    expect(shown.body).toBe('Buy my token at scam.example')
    const bundle = (await get(`/api/threads/${thread}/bundle`)).json()
    const exported = bundle.messages.find((m: { id: string }) => m.id === id)
    expect(exported.message.body).toBe('Buy my token at scam.example')
    expect(bundle.messages.find((m: { id: string }) => m.id === signed.id).message).toEqual(signed.message)
    const client = createPublicClient({ transport: http(anvil.url) })
    expect(await recountThread(bundle, { client })).toMatchObject({
      matches: true,
      problems: [],
      takedowns: [],
    })
  })

  test('behavior: a non-moderator’s hide → 403 not_moderator, nothing stored; an unknown comment or thread → 404; hiding twice → 409; unhide shows the comment again', async () => {
    const thread = await newTopic(ada)
    const { id } = await newComment(ben, thread, 'A fine comment')
    const before = await rowsOf()
    const refused = await moderation(ada, 'hide', id, 'I disagree')
    expect(refused.response.statusCode).toBe(403)
    expect(refused.response.json()).toEqual({
      error: 'not_moderator',
      message: `${ada.address} is not one of this DAO's moderators, so it may not hide.`,
    })
    // A target that is not there: its own 404, nothing stored either.
    const nowhere = `0x${'99'.repeat(32)}` as Hex
    expect((await moderation(cleo, 'hide', nowhere, 'spam')).response.json().error).toBe('unknown_comment')
    expect((await moderation(cleo, 'lock', nowhere, 'spam')).response.json().error).toBe('unknown_thread')
    expect((await flag(ada, nowhere)).response.json().error).toBe('unknown_comment')
    expect(await rowsOf()).toEqual(before)
    expect((await commentInThread(thread, id)).hidden).toBeNull()

    expect((await moderation(dev, 'hide', id, 'off topic')).response.statusCode).toBe(201)
    const twice = await moderation(cleo, 'hide', id, 'spam')
    expect(twice.response.statusCode).toBe(409)
    expect(twice.response.json().error).toBe('already_hidden')

    const unhide = await moderation(cleo, 'unhide', id, 'on topic after all')
    expect(unhide.response.statusCode, unhide.response.body).toBe(201)
    expect(moderationActionResponseSchema.parse(unhide.response.json()).action.kind).toBe('unhide')
    expect((await commentInThread(thread, id)).hidden).toBeNull()
    const again = await moderation(cleo, 'unhide', id, 'still fine')
    expect(again.response.statusCode).toBe(409)
    expect(again.response.json().error).toBe('not_hidden')
  })

  test('behavior: a locked thread refuses new comments and reactions (423 thread_locked, nothing stored); unlock allows them again', async () => {
    const thread = await newTopic(ada)
    const lock = await moderation(cleo, 'lock', thread, 'cooling off')
    expect(lock.response.statusCode, lock.response.body).toBe(201)
    const detail = (await get(`/api/threads/${thread}`)).json()
    expect(detail.locked).toMatchObject({ by: cleo.address, reason: 'cooling off' })
    const before = await rowsOf()
    const refused = await newComment(ben, thread, 'But wait')
    expect(refused.status).toBe(423)
    expect(refused.response.error).toBe('thread_locked')
    const reaction = await signWith(await keyOf(ben), 'reaction', {
      author: ben.address,
      target: thread,
      reaction: 'heart',
      on: true,
      timestamp: timestamp(),
    })
    const reacted = await post(
      '/api/reactions',
      { message: reaction.message, signature: reaction.signature },
      cookies.get(ben.address),
    )
    expect(reacted.statusCode, reacted.body).toBe(423)
    expect(reacted.json().error).toBe('thread_locked')
    expect(await rowsOf()).toEqual(before)

    expect((await moderation(cleo, 'lock', thread, 'again')).response.json().error).toBe('already_locked')
    expect((await moderation(cleo, 'unlock', thread, 'calmer now')).response.statusCode).toBe(201)
    expect((await get(`/api/threads/${thread}`)).json().locked).toBeNull()
    expect((await newComment(ben, thread, 'Now then')).status).toBe(201)
    expect((await moderation(cleo, 'unlock', thread, 'twice')).response.json().error).toBe('not_locked')
  })
})

describe('flags', () => {
  test('behavior: flags from zero-power accounts are stored and logged but do not hide; three from members with power hide (hidden_auto) until a moderator’s unhide, which stands against later flags', async () => {
    const thread = await newTopic(ada)
    const { id } = await newComment(ben, thread, 'Borderline')
    const nobodies = [
      iris,
      privateKeyToAccount(generatePrivateKey()),
      privateKeyToAccount(generatePrivateKey()),
    ]
    for (const nobody of nobodies) {
      const { signed, response } = await flag(nobody, id)
      expect(response.statusCode, response.body).toBe(201)
      expect(await logEntriesOf(signed.id)).toMatchObject([{ kind: 'flag' }])
    }
    let shown = await commentInThread(thread, id)
    expect(shown).toMatchObject({ flags: 3, hidden: null })

    const twice = await flag(iris, id)
    expect(twice.response.statusCode).toBe(409)
    expect(twice.response.json().error).toBe('already_flagged')

    // Finn's tokens count though he never delegated; Ada and Cleo have voting power.
    expect((await flag(finn, id)).response.json().comment.hidden).toBeNull()
    expect((await flag(ada, id)).response.json().comment.hidden).toBeNull()
    const third = await flag(cleo, id, 'scam link')
    expect(third.response.statusCode).toBe(201)
    const [flagEntry] = await logEntriesOf(third.signed.id)
    expect(third.response.json().comment).toMatchObject({
      flags: 6,
      hidden: {
        by: null,
        reason: 'Flagged by 3 members with voting power or tokens',
        logSeq: flagEntry?.seq,
      },
    })
    const [row] = await database.db.select().from(comments).where(eq(comments.id, id))
    expect(row).toMatchObject({ hiddenAuto: true, hiddenBy: null, flagCount: 6 })
    shown = await commentInThread(thread, id)
    expect(shown.hidden?.by).toBeNull()

    // The moderator decides: shown again, for good.
    expect((await moderation(dev, 'unhide', id, 'not spam')).response.statusCode).toBe(201)
    expect((await database.db.select().from(comments).where(eq(comments.id, id)))[0]).toMatchObject({
      hiddenAuto: false,
      hiddenSeq: null,
    })
    expect((await flag(ben, id)).response.json().comment).toMatchObject({ flags: 7, hidden: null })
  })
})

describe('the hide by flags in the thread recount', () => {
  test('behavior: the recount reads each flagger’s power from the chain at the block the server read it: three counting flags of four hid it (matches); published as shown, under a threshold of 4, or with a block the chain cannot answer, it is reported', async () => {
    const thread = await newTopic(ada)
    const { id } = await newComment(ben, thread, 'Buy my token at scam.example')
    // Iris holds nothing: her flag is stored but does not count. Finn's tokens, Ada's and Cleo's votes do.
    for (const flagger of [iris, finn, ada]) expect((await flag(flagger, id)).response.statusCode).toBe(201)
    expect((await flag(cleo, id)).response.json().comment.hidden).toMatchObject({ by: null })
    const bundle = (await get(`/api/threads/${thread}/bundle`)).json() as ThreadBundle
    const flags = bundle.messages.filter((message) => message.kind === 'flag')
    expect(flags).toHaveLength(4)
    for (const flagged of flags) expect(flagged.powerBlock).toBeGreaterThan(0)
    expect(bundle.flagsToHide).toBe(FLAGS_TO_HIDE)
    const client = createPublicClient({ transport: http(anvil.url) })
    const recounted = (edit: (copy: ThreadBundle) => void) => {
      const copy = structuredClone(bundle)
      edit(copy)
      return recountThread(copy, { client })
    }
    expect(await recounted(() => {})).toMatchObject({ matches: true, problems: [] })

    const label = `Comment ${id.slice(0, 10)}…`
    const published = (copy: ThreadBundle) => copy.published.comments.find((comment) => comment.id === id)
    expect(
      (
        await recounted((copy) => {
          ;(published(copy) as { hidden: boolean }).hidden = false
        })
      ).problems,
    ).toEqual([
      `${label} is published as shown, but 3 of its flags are from members with voting power or tokens (DISCUSSION_FLAGS_TO_HIDE is 3) and no moderator decided on it.`,
    ])
    // Four flags reach a threshold of 4 only if Iris's counted: the chain says she had nothing.
    expect(
      (
        await recounted((copy) => {
          copy.flagsToHide = 4
        })
      ).problems,
    ).toEqual([
      `${label} is published as hidden, but no moderator hid it and 3 of its 4 flags are from members with voting power or tokens (DISCUSSION_FLAGS_TO_HIDE is 4).`,
    ])
    const unanswerable = await recounted((copy) => {
      const first = copy.messages.find((message) => message.kind === 'flag')
      if (first?.kind === 'flag') first.powerBlock = 1_000_000_000
    })
    expect(unanswerable.problems).toHaveLength(1)
    expect(unanswerable.problems[0]).toMatch(
      new RegExp(
        `^${label} cannot be checked against its flags: the power of flagger 0x[0-9a-fA-F]{40} at block 1000000000 could not be read from the chain`,
      ),
    )
    // An older server's bundle (no threshold, no blocks) is checked as far as it goes: hidden with flags.
    expect(
      await recounted((copy) => {
        delete copy.flagsToHide
        for (const message of copy.messages) if (message.kind === 'flag') delete message.powerBlock
      }),
    ).toMatchObject({ matches: true, problems: [] })
  })
})

describe('the operator’s takedown', () => {
  test('behavior: takedown removes the text of every version everywhere, keeps the log entries and their hashes, appends takedown entries; the bundle’s recount reports the takedown, not a failure; a second one is refused', async () => {
    const thread = await newTopic(ada)
    const first = await newComment(ben, thread, 'Private data: 12 Main St')
    expect(first.status).toBe(201)
    const edit = await newComment(ben, thread, 'Private data: 12 Main St, flat 3', first.id)
    expect(edit.status, JSON.stringify(edit.response)).toBe(201)
    const entriesBefore = [...(await logEntriesOf(first.id)), ...(await logEntriesOf(edit.id))]
    expect(entriesBefore.map((entry) => entry.kind)).toEqual(['comment', 'comment'])

    const done = await takedown(database.db, { id: edit.id, reason: 'court order 2026-114', now: new Date() })
    expect(done).toMatchObject({ kind: 'comment', target: first.id, thread })
    expect(done.removed.map((message) => message.id)).toEqual([first.id, edit.id])

    // Gone from every table that held it.
    const messages = await database.db
      .select()
      .from(discussionMessages)
      .where(eq(discussionMessages.threadId, thread))
    for (const id of [first.id, edit.id]) {
      const stored = messages.find((message) => message.id === id)
      expect(stored?.message.body).toBeNull()
      expect(stored).toMatchObject({ takedownReason: 'court order 2026-114' })
    }
    expect((await database.db.select().from(comments).where(eq(comments.id, first.id)))[0]?.body).toBeNull()
    const versions = await database.db
      .select()
      .from(commentVersions)
      .where(eq(commentVersions.commentId, first.id))
    expect(versions.map((version) => version.body)).toEqual([null, null])
    const all = JSON.stringify(await database.db.select().from(discussionMessages))
    expect(all).not.toContain('12 Main St')

    // The thread says so; the versions list and the bundle carry no text.
    const shown = await commentInThread(thread, first.id)
    expect(shown).toMatchObject({ body: null, takenDown: { reason: 'court order 2026-114' } })
    const versionList = (await get(`/api/comments/${first.id}/versions`)).json()
    expect(JSON.stringify(versionList)).not.toContain('12 Main St')
    const bundle = await get(`/api/threads/${thread}/bundle`)
    expect(bundle.body).not.toContain('12 Main St')
    // Its recount finds every signature and entry in order and reports the takedown as such, not as a failure.
    const client = createPublicClient({ transport: http(anvil.url) })
    const report = await recountThread(bundle.json(), { client })
    expect(report.problems).toEqual([])
    expect(report.takedowns).toHaveLength(2)
    for (const line of report.takedowns)
      expect(line).toContain('taken down by the operator: court order 2026-114.')

    // The entries stay as they were, hashes included, and each removal has its own entry.
    const entriesAfter = await Promise.all([first.id, edit.id].map(logEntriesOf))
    expect(entriesAfter.map((entries) => entries[0])).toEqual(entriesBefore)
    expect(entriesAfter.map((entries) => entries.slice(1).map((e) => [e.kind, e.signature]))).toEqual([
      [['takedown', '0x']],
      [['takedown', '0x']],
    ])
    const log: LogEntry[] = (
      await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
    ).map(logEntry)
    expect(logChainProblem(log)).toBeNull()

    await expect(takedown(database.db, { id: first.id, reason: 'again', now: new Date() })).rejects.toThrow(
      new TakedownRefused('This comment was already taken down.'),
    )
    const threadRow = (await database.db.select().from(threads).where(eq(threads.id, thread)))[0]
    expect(threadRow?.lastActivitySeq).toBe(done.removed.at(-1)?.logSeq)
  })

  test('behavior: a takedown of an unknown id, of a message that is not a topic or comment, or without a reason is refused and changes nothing', async () => {
    const thread = await newTopic(ada)
    const { id } = await newComment(ben, thread, 'Fine')
    const hide = await moderation(cleo, 'hide', id, 'test')
    const before = await rowsOf()
    const now = new Date()
    await expect(takedown(database.db, { id: `0x${'77'.repeat(32)}`, reason: 'x', now })).rejects.toThrow(
      `No topic or comment has the id 0x${'77'.repeat(32)}.`,
    )
    await expect(takedown(database.db, { id: hide.signed.id, reason: 'x', now })).rejects.toThrow(
      `${hide.signed.id} is a moderation: only a topic's or a comment's text can be taken down.`,
    )
    await expect(takedown(database.db, { id, reason: '  ', now })).rejects.toThrow(
      'Give the reason (--reason "…"): it is shown in public.',
    )
    await expect(takedown(database.db, { id: 'comment', reason: 'x', now })).rejects.toThrow(
      'comment is not a message id (0x and 64 lower-case hex digits).',
    )
    expect(await rowsOf()).toEqual(before)
  })
})

describe('GET /api/moderation: the public log', () => {
  test('behavior: every action newest first, with its thread’s kind and title, a page at a time to the end; a bad cursor → 400', async () => {
    const log = [] as ReturnType<typeof moderationActionListSchema.parse>['items']
    let next: string | null = null
    do {
      const url: string = `/api/moderation?limit=2${next ? `&cursor=${next}` : ''}`
      const response = await get(url)
      expect(response.statusCode, response.body).toBe(200)
      const page = moderationActionListSchema.parse(response.json())
      expect(page.items.length).toBeLessThanOrEqual(2)
      log.push(...page.items)
      next = page.next
    } while (next)
    const stored = await database.db.select().from(moderationActions).orderBy(asc(moderationActions.logSeq))
    expect(log.map((action) => action.logSeq)).toEqual(stored.map((row) => row.logSeq).reverse())
    expect(new Set(log.map((action) => action.kind))).toEqual(
      new Set(['hide', 'unhide', 'lock', 'unlock', 'auto-hide', 'takedown']),
    )
    for (const action of log)
      expect(action).toMatchObject({ threadKind: 'topic', threadTitle: 'Where should the offsite be?' })
    expect(log.find((action) => action.kind === 'auto-hide')?.moderator).toBeNull()
    expect(log.find((action) => action.kind === 'takedown')?.moderator).toBeNull()

    const bad = await get('/api/moderation?cursor=not-ours')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toBe('bad_cursor')
  })
})
