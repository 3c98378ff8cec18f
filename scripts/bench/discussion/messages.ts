// The discussion bench's signed messages, all deterministic but their dates: each demo member authorises a
// key of its own (keccak256("guildhall-discussion-key-<account>"), see benchVoterKey) with its wallet
// signature, and that key signs its comments. The thread's shape: groups of five comments, a top-level one
// followed by a reply, a reply to the reply, one more level (the depth limit, 3) and a second reply to the
// top-level one, so the page's tree order and its nesting have work to do.
import {
  type CommentMessage,
  DISCUSSION_LIMITS,
  type DiscussionKeyMessage,
  type GovernanceDomain,
  signWithDiscussionKey,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type Address, type Hex, zeroHash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { benchVoterKey } from '../harness/chain.ts'
import { seededRandom } from '../harness/random.ts'
import { AUTHORS } from './plan.ts'

const DAY = 86_400

export const member = (account: number) => privateKeyToAccount(anvilAccounts[account]?.privateKey as Hex)
const authorKey = (account: number) => privateKeyToAccount(benchVoterKey('discussion-key', account))

export type SignedKey = { id: Hex; message: DiscussionKeyMessage; signature: Hex }
export type SignedComment = { id: Hex; message: CommentMessage; signature: Hex }

/** Each author's key authorisation, signed by the member's wallet: valid from `from` for the longest lifetime. */
export async function signKeys(domain: GovernanceDomain, from: number): Promise<SignedKey[]> {
  const keys: SignedKey[] = []
  for (const account of AUTHORS) {
    const message: DiscussionKeyMessage = {
      member: member(account).address,
      key: authorKey(account).address,
      scopes: ['comment', 'react', 'flag'],
      expires: from + DISCUSSION_LIMITS.keyLifetimeMaxSeconds,
      timestamp: from,
    }
    keys.push(await signWithDiscussionKey(member(account), domain, 'discussion-key', message))
  }
  return keys
}

/** Comment i's parent (its index in the thread) and depth, in groups of five. */
function commentShape(i: number): { parent: number | null; depth: number } {
  const top = i - (i % 5)
  switch (i % 5) {
    case 1:
    case 4:
      return { parent: top, depth: 1 }
    case 2:
      return { parent: i - 1, depth: 2 }
    case 3:
      return { parent: i - 1, depth: 3 }
    default:
      return { parent: null, depth: 0 }
  }
}

const WORDS = (
  'the a budget proposal vote delegate treasury guide month review writers meetup city quorum threshold ' +
  'members token power snapshot signers safe audit report funding grant events outreach infrastructure ' +
  'community conduct moderators chair call agenda onboarding newcomers documentation chapter table figures ' +
  'quarter spending payout invoice deadline timeline milestone risk cost benefit option alternative ' +
  'support oppose abstain agree disagree prefer suggest propose amend clarify question answer reason ' +
  'because however although since unless whether which while after before during within without ' +
  'we you they it this that these those our their my your some every each most fewer more less ' +
  'should could would might must can will may need want think believe expect doubt hope worry ' +
  'clear fair cheap expensive early late short long small large simple hard open public private ' +
  'first second next last again already still only also even just perhaps probably certainly'
).split(' ')

/**
 * Comment i's text: two to four sentences of words drawn from a vocabulary of 200, some **bold**, some with a
 * link, 75 to 400 characters (210 on average): text that compresses as prose does, not as one sentence
 * repeated.
 */
function commentBody(i: number): string {
  const next = seededRandom(i + 1)
  const sentences = 2 + Math.floor(next() * 3)
  return Array.from({ length: sentences }, () => {
    const words = Array.from({ length: 6 + Math.floor(next() * 8) }, () => {
      const word = WORDS[Math.floor(next() * WORDS.length)] as string
      return next() < 0.03 ? `**${word}**` : word
    })
    if (next() < 0.1) words.push(`([see](https://example.org/notes/${Math.floor(next() * 10_000)}))`)
    const sentence = words.join(' ')
    return `${sentence[0]?.toUpperCase()}${sentence.slice(1)}${next() < 0.2 ? '?' : '.'}`
  }).join(' ')
}

/**
 * The `count` comments of `thread`, signed by their authors' keys, comment i at `from + 60 + 5·i` (the
 * large thread's 10,000 span about fourteen hours).
 */
export async function signThread(
  domain: GovernanceDomain,
  thread: Hex,
  count: number,
  from: number,
): Promise<SignedComment[]> {
  const signed: SignedComment[] = []
  for (let i = 0; i < count; i++) {
    const account = AUTHORS[i % AUTHORS.length] as number
    const { parent } = commentShape(i)
    const message: CommentMessage = {
      author: member(account).address,
      thread,
      parent: parent === null ? zeroHash : (signed[parent]?.id as Hex),
      replaces: zeroHash,
      body: commentBody(i),
      mentions: [],
      timestamp: from + 60 + 5 * i,
    }
    signed.push(await signWithDiscussionKey(authorKey(account), domain, 'comment', message))
  }
  return signed
}

/** `count` new top-level comments on `thread` dated `timestamp`, authors in turn: the posting measurement's bodies. */
export async function signPosts(
  domain: GovernanceDomain,
  thread: Hex,
  count: number,
  timestamp: number,
): Promise<{ author: Address; body: string }[]> {
  const posts: { author: Address; body: string }[] = []
  for (let i = 0; i < count; i++) {
    const account = AUTHORS[i % AUTHORS.length] as number
    const message: CommentMessage = {
      author: member(account).address,
      thread,
      parent: zeroHash,
      replaces: zeroHash,
      body: `Posted over HTTP, comment ${i}: ${commentBody(i)}`,
      mentions: [],
      timestamp,
    }
    const { signature } = await signWithDiscussionKey(authorKey(account), domain, 'comment', message)
    posts.push({ author: message.author, body: JSON.stringify({ message, signature }) })
  }
  return posts
}

/** Keys are authorised two days before now: every seeded comment is dated after its key and before now. */
export const keysFrom = (nowSeconds: number) => nowSeconds - 2 * DAY
