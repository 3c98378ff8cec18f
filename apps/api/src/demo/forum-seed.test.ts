import {
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  type DiscussionMessageKind,
  type DiscussionMessages,
  discussionKeyTypedData,
  discussionSigner,
  type LogEntry,
  logChainProblem,
} from '@guildhall/core'
import { recountThread } from '@guildhall/core/recount'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { asc, eq, sql } from 'drizzle-orm'
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  recoverTypedDataAddress,
} from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoTokenIndex } from '../../testbed/demo-token.ts'
import { demoDomain } from '../../testbed/signers.ts'
import { testSettings } from '../../testbed/test-app.ts'
import { bundledThread, threadBundleJson } from '../discussion/bundle.ts'
import type { DiscussionDeps } from '../discussion/deps.ts'
import { threadItems } from '../discussion/thread-items.ts'
import { listTopics } from '../discussion/topics.ts'
import { ProposalReads } from '../governance/proposal-reads.ts'
import {
  comments,
  commentVersions,
  discussionKeys,
  discussionMessages,
  governanceLog,
  proposals,
  reactions,
  threads,
  topics,
} from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { silentObserver } from '../platform/observer.ts'
import { seedDemoDatabase } from './governance-seed.ts'
import { startDemoChain } from './local-chain.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
const cleo = anvilAccounts[3]?.address as Address

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  database = await testDatabase()
}, 60_000)

afterAll(async () => {
  await database?.close()
  await anvil?.stop()
})

const titleOf = sql<string>`${proposals.message}->>'title'`

test('behavior: the demo starts with a living forum: a topic in each category, threads on its proposals with replies three deep, reactions, a mention, an edited comment, a comment Cleo hid with her reason, a topic that became a proposal; every message signed by an authorised key, once, in one verified log', async () => {
  const settings = testSettings({ rpcUrl: anvil.url, deployment })
  expect(await seedDemoDatabase(settings, database)).toBe(8)
  const { db } = database
  const counts = async () => ({
    log: (await db.select({ seq: governanceLog.seq }).from(governanceLog)).length,
    messages: (await db.select({ id: discussionMessages.id }).from(discussionMessages)).length,
  })
  const first = await counts()
  // A restart seeds nothing more.
  expect(await seedDemoDatabase(settings, database)).toBe(0)
  expect(await counts()).toEqual(first)

  // A topic in each configured category, and the one that became a proposal, linked both ways.
  const topicRows = await db.select().from(topics).orderBy(asc(topics.logSeq))
  expect(new Set(topicRows.map((topic) => topic.category))).toEqual(new Set(settings.discussion.categories))
  const [renew] = await db.select().from(proposals).where(eq(titleOf, 'Renew the treasury multisig signers'))
  const proposed = topicRows.filter((topic) => topic.proposalId !== null)
  expect(proposed.map((topic) => [topic.title, topic.proposalId])).toEqual([
    ['Rotate one treasury signer every year', renew?.id],
  ])
  expect(renew?.message.body).toContain(`/discussions/${proposed[0]?.id}`)

  // Threads on the proposals, replies down to the depth limit.
  const commentRows = await db.select().from(comments)
  const threadTitles = await db
    .select({ title: titleOf })
    .from(threads)
    .innerJoin(proposals, eq(proposals.id, threads.proposalId))
  expect(threadTitles.map((row) => row.title).sort()).toEqual([
    'Adopt the community code of conduct',
    'Fund the documentation sprint (5,000 GHD)',
    'Which city hosts the next meetup?',
    'Which working groups should get a budget this quarter?',
  ])
  expect(new Set(commentRows.map((comment) => comment.depth))).toEqual(new Set([0, 1, 2, 3]))
  expect(
    commentRows.some((comment) => comment.mentions.length === 1 && comment.body?.includes('@ada.eth')),
  ).toBe(true)
  // Reactions of several kinds.
  const reactionRows = await db.select().from(reactions)
  expect(reactionRows.every((reaction) => reaction.on)).toBe(true)
  expect(new Set(reactionRows.map((reaction) => reaction.reaction)).size).toBeGreaterThanOrEqual(5)

  // One comment edited: two versions, the first kept.
  const edited = commentRows.filter((comment) => comment.versions > 1)
  expect(edited).toHaveLength(1)
  const versions = await db
    .select()
    .from(commentVersions)
    .where(eq(commentVersions.commentId, edited[0]?.id as string))
    .orderBy(asc(commentVersions.logSeq))
  expect(versions.map((version) => version.body)).toEqual([
    'The outline is done, so the month is for writing. See the table in the proposal.',
    edited[0]?.body,
  ])

  // One comment hidden by Cleo with her reason, its text kept.
  const hidden = commentRows.filter((comment) => comment.hiddenSeq !== null)
  expect(hidden.map((comment) => [comment.hiddenBy, comment.hiddenReason, comment.body])).toEqual([
    [cleo, 'Spam: an advertisement', 'Cheap GHD for sale, 50% off, send me a message!!!'],
  ])

  // Every message is in the log under its id and signed by a key its author authorised with their wallet.
  const log = await db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
  expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
  const logged = new Map(log.map((entry) => [entry.messageId, entry]))
  const domain = demoDomain(deployment)
  const keys = await db.select().from(discussionKeys)
  expect(keys.map((key) => key.member)).toContain(cleo)
  for (const key of keys) {
    expect(logged.get(key.id)).toMatchObject({ kind: 'discussion-key', signature: key.signature })
    const typed = discussionKeyTypedData(domain, key.message as DiscussionMessages['discussion-key'])
    expect(await recoverTypedDataAddress({ ...typed, signature: key.signature as Hex } as never)).toBe(
      key.member,
    )
  }
  const keyOf = new Map(keys.map((key) => [key.key, key.member]))
  const messages = await db.select().from(discussionMessages)
  expect(new Set(messages.map((message) => message.kind))).toEqual(
    new Set(['topic', 'comment', 'reaction', 'moderation']),
  )
  for (const message of messages) {
    expect(logged.get(message.id)).toMatchObject({ kind: message.kind, signature: message.signature })
    const kind = message.kind as DiscussionMessageKind
    const signer = discussionSigner(domain, kind, message.message as never, message.signature as Hex)
    expect(signer).toBe(message.key)
    expect(keyOf.get(signer as string)).toBe(message.author)
  }

  // Each thread's bundle recounts clean, as the browser and the CLI recount it; the votes' reasons are cards.
  const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  const deps: DiscussionDeps = {
    governance: {
      database,
      client,
      tokenIndex: demoTokenIndex({ db, client, deployment }),
      domain,
      rules: settings.publicConfig.governance,
      snapshotMaxAgeBlocks: DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
      categories: settings.publicConfig.proposalCategories,
      treasury: null,
      now: () => new Date(),
      reads: new ProposalReads(),
      observer: silentObserver,
    },
    categories: settings.discussion.categories,
    posters: 'members',
    moderators: [cleo],
    flagsToHide: 3,
    signedIn: async () => undefined,
  }
  // The topics list (what `npm start`'s CI probe reads): every topic, the proposed one marked.
  const listed = await listTopics(deps, { limit: 20 })
  expect(listed.items.map((topic) => [topic.title, topic.proposal?.title ?? null]).sort()).toEqual(
    [
      ['A rotating chair for the monthly call', null],
      ['How is voting power counted when I delegate?', null],
      ['Introduce yourself', null],
      ['Rotate one treasury signer every year', 'Renew the treasury multisig signers'],
    ].sort(),
  )
  const threadIds = (await db.select({ id: threads.id }).from(threads)).map((row) => row.id)
  expect(threadIds).toHaveLength(4 + topicRows.length)
  for (const id of threadIds) {
    let json = ''
    for await (const piece of threadBundleJson(deps, await bundledThread(deps, id))) json += piece
    const report = await recountThread(JSON.parse(json), { client })
    expect(report).toMatchObject({ matches: true, problems: [], takedowns: [] })
  }
  const [sprint] = await db
    .select({ id: proposals.id })
    .from(proposals)
    .where(eq(titleOf, 'Fund the documentation sprint (5,000 GHD)'))
  const page = await threadItems(deps, sprint?.id as string, { limit: 50 }, undefined)
  expect(
    page.items.flatMap((item) => (item.type === 'vote' ? [[item.vote.choice, item.vote.reason]] : [])),
  ).toEqual([
    ['For', 'Newcomers get lost today.'],
    ['Against', 'Too expensive for one month.'],
  ])
  expect(page.items.filter((item) => item.type === 'comment')).toHaveLength(5)
  // A ranked ballot's card reads as the ranking, in the voter's order (core's ballotText).
  const [grant] = await db
    .select({ id: proposals.id })
    .from(proposals)
    .where(eq(titleOf, 'Which project gets this quarter’s community grant?'))
  const grantPage = await threadItems(deps, grant?.id as string, { limit: 50 }, undefined)
  expect(grantPage.items.flatMap((item) => (item.type === 'vote' ? [item.vote.choice] : []))).toContain(
    '1. Open-source tooling · 2. Translation of the docs · 3. Local meetups fund · 4. Accessibility audit',
  )
}, 120_000)
