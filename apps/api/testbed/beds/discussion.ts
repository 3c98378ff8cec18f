// The setup the discussion route tests share (discussion-writes, discussion-reads): the demo DAO on a real
// chain (anvil) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh), the demo Safes
// (the 1-of-1 holding voting power through a delegation), the token index synced, members signed in over
// SIWE, discussion keys authorised by their wallets and messages signed by those keys. A test file calls
// useDiscussionBed() once at its top; the bindings below are live (ES modules), set by its beforeAll.
import {
  type CommentMessage,
  type DiscussionKeyMessage,
  type DiscussionKeyScope,
  type DiscussionMessageKind,
  type DiscussionMessages,
  LOCAL_CHAIN_ID,
  signWithDiscussionKey,
  type TopicMessage,
} from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { deploySafes, type SafeDeployment } from '@guildhall/devchain/safe'
import { count } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  zeroHash,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll } from 'vitest'
import {
  comments,
  commentVersions,
  discussionKeys,
  discussionMessages,
  governanceLog,
  reactions,
  threads,
  topics,
} from '../../src/platform/db/schema.ts'
import type { TestDatabase } from '../../src/platform/db/test-database.ts'
import { delegate, demoTokenIndex } from '../demo-token.ts'
import { signInOnApp } from '../sign-in.ts'
import { demoDomain, member, nowSeconds, signProposal } from '../signers.ts'
import { jsonHeaders, ORIGIN, startTestbed, stopTestbed, testApp } from '../test-app.ts'

const DAO_NAME = 'Guildhall Discussion Test DAO'
// The demo DAO (packages/devchain/src/demo-dao.ts): Ada, Ben and Cleo hold tokens and vote; Iris holds nothing.
export const ada = member(1)
export const ben = member(2)
export const cleo = member(3)
export const iris = member(9)

export let anvil: AnvilInstance
let deployment: DemoDeployment
export let database: TestDatabase
export let app: FastifyInstance
export let domain: ReturnType<typeof demoDomain>
export let safes: SafeDeployment
let snapshot: number
/** Session cookies of the members signed in at the start. */
export const cookies = new Map<Address, string>()

/** Anvil account `index` delegates its votes to `to`, mined. */
const delegateFrom = (index: number, to: Address) =>
  delegate(
    { client: createPublicClient({ transport: http(anvil.url) }), url: anvil.url, token: deployment.token },
    index,
    to,
  )

export const signIn = (account: PrivateKeyAccount) =>
  signInOnApp(app, account, { origin: ORIGIN, daoName: DAO_NAME })

/** A request from the app's origin with `cookie` (a member's session), the body as JSON. */
export const post = (url: string, body: unknown, cookie?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...jsonHeaders, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  })
export const get = (url: string, cookie?: string) =>
  app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })

/** `member`'s wallet authorises a new key with `scopes` for `lifetime` seconds: the key's account and the answer. */
export async function authoriseKey(
  owner: PrivateKeyAccount,
  {
    scopes = ['comment', 'react'],
    lifetime = 86_400,
    timestamp = nowSeconds(),
  }: { scopes?: DiscussionKeyScope[]; lifetime?: number; timestamp?: number } = {},
) {
  const key = privateKeyToAccount(generatePrivateKey())
  const message: DiscussionKeyMessage = {
    member: owner.address,
    key: key.address,
    scopes,
    expires: timestamp + lifetime,
    timestamp,
  }
  const signed = await signWithDiscussionKey(owner, domain, 'discussion-key', message)
  const response = await post(
    '/api/discussion/keys',
    { message: signed.message, signature: signed.signature },
    cookies.get(owner.address),
  )
  return { key, response, signed }
}

/** `message` of `kind` signed by `key`: `{ message, signature, id }`. */
export const signWith = <K extends DiscussionMessageKind>(
  key: PrivateKeyAccount,
  kind: K,
  message: DiscussionMessages[K],
) => signWithDiscussionKey(key, domain, kind, message)

/** A new top-level comment by `author` on `thread`; `fields` change any of it. */
export const commentMessage = (
  author: Address,
  thread: Hex,
  fields: Partial<CommentMessage> = {},
): CommentMessage => ({
  author,
  thread,
  parent: zeroHash,
  replaces: zeroHash,
  body: 'A first thought.',
  mentions: [],
  timestamp: nowSeconds(),
  ...fields,
})

/** Topics started so far: each new one's title is its own, so two in one second are not one message. */
let topicsStarted = 0

export const topicMessage = (author: Address, fields: Partial<TopicMessage> = {}): TopicMessage => ({
  author,
  category: 'Ideas',
  title: `A community garden (${++topicsStarted})`,
  body: 'Shall we plant one?',
  mentions: [],
  timestamp: nowSeconds(),
  ...fields,
})

/** Signs a comment with `key` and posts it with `author`'s session. */
export async function postComment(
  key: PrivateKeyAccount,
  author: PrivateKeyAccount,
  message: CommentMessage,
) {
  const signed = await signWith(key, 'comment', message)
  const response = await post(
    '/api/comments',
    { message: signed.message, signature: signed.signature },
    cookies.get(author.address),
  )
  return { response, id: signed.id, signed }
}

/** Creates a topic by `author` with `key`: its id. */
export async function createTopic(
  key: PrivateKeyAccount,
  author: PrivateKeyAccount,
  fields: Partial<TopicMessage> = {},
) {
  const signed = await signWith(key, 'topic', topicMessage(author.address, fields))
  const response = await post(
    '/api/discussion/topics',
    { message: signed.message, signature: signed.signature },
    cookies.get(author.address),
  )
  if (response.statusCode !== 201) throw new Error(`topic: HTTP ${response.statusCode} ${response.body}`)
  return signed.id
}

/** Creates a proposal by `author` (signed by the wallet, as proposals are): its id. */
export async function createProposal(author: PrivateKeyAccount, fields: { body?: string } = {}) {
  const { message, signature, id } = await signProposal(author, domain, { snapshot, ...fields })
  const response = await post('/api/proposals', { message, signature })
  if (response.statusCode !== 201) throw new Error(`proposal: HTTP ${response.statusCode} ${response.body}`)
  return id
}

/** How many rows each discussion table and the log hold: a refused write changes none of them. */
export async function storedCounts() {
  const rows = async (table: Parameters<ReturnType<typeof database.db.select>['from']>[0]) =>
    (await database.db.select({ n: count() }).from(table))[0]?.n ?? 0
  return {
    log: await rows(governanceLog),
    messages: await rows(discussionMessages),
    keys: await rows(discussionKeys),
    threads: await rows(threads),
    topics: await rows(topics),
    comments: await rows(comments),
    versions: await rows(commentVersions),
    reactions: await rows(reactions),
  }
}

/** Starts the bed before the file's tests and stops it after them; `env` adds settings (MODERATORS, say). */
export function useDiscussionBed(env: Record<string, string> = {}) {
  beforeAll(async () => {
    ;({ anvil, deployment, database } = await startTestbed())
    safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    // Gia delegates to the 1-of-1 Safe (owner Ada): a contract member with voting power.
    await delegateFrom(7, safes.oneOfOne.address)
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
    const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
    snapshot = Number(await client.getBlockNumber()) - 1
    domain = demoDomain(deployment)
    app = await testApp(
      { anvil, deployment, database },
      {
        env: {
          DAO_NAME,
          TOKEN_INDEX_CONFIRMATIONS: '0',
          AUTH_RATE_LIMIT_PER_MINUTE: '100000',
          DISCUSSION_RATE_LIMIT_PER_MINUTE: '100000',
          EXPORT_RATE_LIMIT_PER_MINUTE: '100000',
          ...env,
        },
      },
    )
    // The directory's rows the posting policy reads: as the leader's index leaves them.
    await demoTokenIndex({ db: database.db, client, deployment }).syncOnce()
    for (const account of [ada, ben, cleo, iris]) cookies.set(account.address, await signIn(account))
  }, 90_000)
  afterAll(() => stopTestbed({ anvil, database }, app))
}
