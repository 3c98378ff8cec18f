import {
  comments,
  commentVersions,
  discussionKeys,
  discussionMessages,
  governanceLog,
  proposals,
  threads,
} from '@guildhall/api/database'
import {
  authoriseKey,
  type DiscussionDeps,
  type GovernanceDeps,
  ProposalReads,
  postComment,
  silentObserver,
  type TokenIndex,
} from '@guildhall/api/operations'
import { demoDomain, type TestDatabase, testDatabase } from '@guildhall/api/testbed'
import {
  BASIC_CHOICES,
  commentMessageSchema,
  DEFAULT_GOVERNANCE_RULES,
  discussionKeyMessageSchema,
  LOG_GENESIS_HASH,
  type LogEntry,
  logChainProblem,
  logEntryHash,
  type ProposalMessage,
  signGovernanceMessage,
} from '@guildhall/core'
import { asc } from 'drizzle-orm'
import type { PublicClient } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { member, signKeys, signThread } from './messages.ts'
import { seedKeys, seedThread } from './seed.ts'

const COMMENTS = 23
const domain = demoDomain({ token: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
const KEYS_AT = 1_790_000_000
const opened: TestDatabase[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

/** The same signed proposal with its log entry in `database`: the thread's host. */
async function storeProposal(database: TestDatabase) {
  const message: ProposalMessage = {
    author: member(1).address,
    title: 'Discussion bench',
    body: 'A thread.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: KEYS_AT - 3600,
    end: KEYS_AT + 10 * 86_400,
    snapshot: 7,
    ...DEFAULT_GOVERNANCE_RULES,
    timestamp: KEYS_AT - 3600,
  }
  const { id, signature } = await signGovernanceMessage(member(1), domain, { type: 'Proposal', message })
  const entry = { seq: 1, kind: 'proposal' as const, messageId: id, signature, prevHash: LOG_GENESIS_HASH }
  await database.db.insert(proposals).values({
    id,
    author: message.author,
    start: message.start,
    end: message.end,
    snapshot: message.snapshot,
    message,
    signature,
  })
  await database.db.insert(governanceLog).values({ ...entry, hash: logEntryHash(entry), proposalId: id })
  return id
}

/** Everything keys and comments leave in the database, without the columns the database's clock fills. */
async function discussionRows(database: TestDatabase) {
  const { db } = database
  return {
    keys: await db.select().from(discussionKeys).orderBy(asc(discussionKeys.logSeq)),
    messages: await db.select().from(discussionMessages).orderBy(asc(discussionMessages.logSeq)),
    threads: await db.select().from(threads),
    comments: await db.select().from(comments).orderBy(asc(comments.path)),
    versions: await db.select().from(commentVersions).orderBy(asc(commentVersions.logSeq)),
    log: (await db.select().from(governanceLog).orderBy(asc(governanceLog.seq))).map(
      ({ createdAt: _, ...row }) => row,
    ),
  }
}

/** The discussion services' deps, their clock at `at`; EOA signatures only, so the chain is never asked. */
function discussionDeps(database: TestDatabase, at: number): DiscussionDeps {
  const governance: GovernanceDeps = {
    database,
    client: {} as PublicClient,
    tokenIndex: {} as TokenIndex,
    domain,
    rules: DEFAULT_GOVERNANCE_RULES,
    snapshotMaxAgeBlocks: 64,
    categories: [],
    treasury: null,
    now: () => new Date(at * 1000),
    reads: new ProposalReads(),
    observer: silentObserver,
  }
  return {
    governance,
    categories: ['Ideas'],
    posters: 'signed-in',
    moderators: [],
    flagsToHide: 3,
    signedIn: async () => undefined,
  }
}

test('behavior: the bulk seed leaves exactly what the key and comment paths leave for the same messages, replies three deep, and the log verifies', async () => {
  const seeded = await testDatabase()
  const posted = await testDatabase()
  opened.push(seeded, posted)
  const thread = await storeProposal(seeded)
  expect(await storeProposal(posted)).toBe(thread)
  const keys = await signKeys(domain, KEYS_AT)
  const signed = await signThread(domain, thread, COMMENTS, KEYS_AT)

  await seedKeys(seeded, keys)
  await seedThread(seeded, keys, signed)

  for (const key of keys)
    await authoriseKey(discussionDeps(posted, key.message.timestamp), key.message.member, key)
  for (const comment of signed) {
    const answer = await postComment(
      discussionDeps(posted, comment.message.timestamp),
      comment.message.author,
      comment,
    )
    expect(answer.comment.id).toBe(comment.id)
  }

  const rows = await discussionRows(seeded)
  expect(rows).toEqual(await discussionRows(posted))
  expect(rows.comments).toHaveLength(COMMENTS)
  expect(new Set(rows.comments.map((comment) => comment.depth))).toEqual(new Set([0, 1, 2, 3]))
  expect(rows.threads).toMatchObject([{ id: thread, commentCount: COMMENTS }])
  expect(logChainProblem(rows.log.map(({ proposalId: _, ...entry }) => entry as LogEntry))).toBeNull()
}, 60_000)

test('behavior: the bench’s keys and comments are messages the API’s schemas accept, within a key’s lifetime', async () => {
  const keys = await signKeys(domain, KEYS_AT)
  const signed = await signThread(domain, `0x${'ab'.repeat(32)}`, 10, KEYS_AT)
  for (const key of keys) expect(discussionKeyMessageSchema.parse(key.message)).toEqual(key.message)
  for (const comment of signed) {
    expect(commentMessageSchema.parse(comment.message)).toEqual(comment.message)
    expect(comment.message.timestamp).toBeGreaterThan(KEYS_AT)
  }
})
