/**
 * The signed discussion messages (ADR 052): a member's wallet authorises a browser key once
 * (`DiscussionKey`), and that key signs topics, comments, edits, withdrawals, reactions, flags and
 * moderation actions under the same Guildhall domain as proposals and votes. Each message's id is its
 * EIP-712 digest and each accepted one is a governance log entry whose kind is the message's kind here.
 * Shared by apps/web (what the key signs), apps/api (what the server verifies) and the thread recount.
 */
import { secp256k1 } from '@noble/curves/secp256k1'
import type { Address, Hex, LocalAccount, TypedDataDefinition } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import { type GovernanceDomain, signedText, unixSeconds } from '../governance/messages.ts'
import { durationInWords, GOVERNANCE_LIMITS } from '../governance/rules.ts'
import { bytes32Schema, checksummedAddressSchema, signatureSchema } from '../primitives.ts'
import { typedDataDigest } from '../typed-data-digest.ts'
import { z } from '../zod.ts'
import { DISCUSSION_LIMITS, REACTIONS, type Reaction } from './limits.ts'

// The limits and the reactions live in a module of their own, which imports nothing: the public config (on
// the first page) names them without bringing these schemas with it.
export { DISCUSSION_LIMITS, REACTIONS, type Reaction } from './limits.ts'

export const REACTION_EMOJI: Record<Reaction, string> = {
  'thumbs-up': '👍',
  heart: '❤️',
  party: '🎉',
  laugh: '😄',
  thinking: '🤔',
  eyes: '👀',
}

/** What a key may sign: 'comment' covers topics, comments, edits and withdrawals. */
export const DISCUSSION_KEY_SCOPES = ['comment', 'react', 'flag', 'moderate'] as const
export type DiscussionKeyScope = (typeof DISCUSSION_KEY_SCOPES)[number]

/** hide/unhide name a comment, lock/unlock a thread. */
export const MODERATION_ACTIONS = ['hide', 'unhide', 'lock', 'unlock'] as const

/** A comment's depth under a parent at `parentDepth` (null: top level). */
export function commentDepth(parentDepth: number | null): number {
  return parentDepth === null ? 0 : parentDepth + 1
}

/** Why a comment at `depth` is refused, or null: replies nest at most DISCUSSION_LIMITS.depthMax deep. */
export function commentDepthProblem(depth: number): string | null {
  return depth > DISCUSSION_LIMITS.depthMax
    ? `Replies nest at most ${DISCUSSION_LIMITS.depthMax} deep: reply to a comment higher up the thread.`
    : null
}

// EIP-712 types: wallet-friendly fields, one flat array at most, the signer's address inside each.
const discussionTypes = {
  'discussion-key': {
    DiscussionKey: [
      { name: 'member', type: 'address' },
      { name: 'key', type: 'address' },
      { name: 'scopes', type: 'string[]' },
      { name: 'expires', type: 'uint64' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  'key-revocation': {
    KeyRevocation: [
      { name: 'member', type: 'address' },
      { name: 'key', type: 'address' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  topic: {
    Topic: [
      { name: 'author', type: 'address' },
      { name: 'category', type: 'string' },
      { name: 'title', type: 'string' },
      { name: 'body', type: 'string' },
      { name: 'mentions', type: 'address[]' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  comment: {
    Comment: [
      { name: 'author', type: 'address' },
      { name: 'thread', type: 'bytes32' },
      { name: 'parent', type: 'bytes32' },
      { name: 'replaces', type: 'bytes32' },
      { name: 'body', type: 'string' },
      { name: 'mentions', type: 'address[]' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  withdrawal: {
    Withdrawal: [
      { name: 'author', type: 'address' },
      { name: 'comment', type: 'bytes32' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  reaction: {
    Reaction: [
      { name: 'author', type: 'address' },
      { name: 'target', type: 'bytes32' },
      { name: 'reaction', type: 'string' },
      { name: 'on', type: 'bool' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  flag: {
    Flag: [
      { name: 'author', type: 'address' },
      { name: 'comment', type: 'bytes32' },
      { name: 'reason', type: 'string' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
  moderation: {
    Moderation: [
      { name: 'moderator', type: 'address' },
      { name: 'target', type: 'bytes32' },
      { name: 'action', type: 'string' },
      { name: 'reason', type: 'string' },
      { name: 'timestamp', type: 'uint64' },
    ],
  },
} as const

/** Each message's kind: its governance log entry's kind too. */
export type DiscussionMessageKind = keyof typeof discussionTypes
export const DISCUSSION_MESSAGE_KINDS = Object.keys(discussionTypes) as DiscussionMessageKind[]

const mentionsSchema = z
  .array(checksummedAddressSchema)
  .check(
    z.maxLength(
      DISCUSSION_LIMITS.mentionsMax,
      `A message mentions at most ${DISCUSSION_LIMITS.mentionsMax} members`,
    ),
  )
const notBlank = (what: string) =>
  z.refine<string>((value) => value.trim().length > 0, `${what} must not be empty`)

export const discussionKeyMessageSchema = z
  .strictObject({
    member: checksummedAddressSchema,
    key: checksummedAddressSchema,
    scopes: z
      .array(z.enum(DISCUSSION_KEY_SCOPES, `A scope is one of ${DISCUSSION_KEY_SCOPES.join(', ')}`))
      .check(
        z.minLength(1, 'A key needs at least one scope'),
        z.refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope may appear once'),
      ),
    expires: unixSeconds,
    timestamp: unixSeconds,
  })
  .check(
    z.superRefine((message, context) => {
      const lifetime = message.expires - message.timestamp
      if (lifetime <= 0 || lifetime > DISCUSSION_LIMITS.keyLifetimeMaxSeconds) {
        context.addIssue({
          code: 'custom',
          path: ['expires'],
          message: `A key expires after its authorisation, within ${durationInWords(DISCUSSION_LIMITS.keyLifetimeMaxSeconds)}`,
        })
      }
    }),
  )
export type DiscussionKeyMessage = z.infer<typeof discussionKeyMessageSchema>

/** Signed by the member's wallet or by the key itself. */
export const keyRevocationMessageSchema = z.strictObject({
  member: checksummedAddressSchema,
  key: checksummedAddressSchema,
  timestamp: unixSeconds,
})
export type KeyRevocationMessage = z.infer<typeof keyRevocationMessageSchema>

/** A topic's id is its digest, and its thread's id. */
export const topicMessageSchema = z.strictObject({
  author: checksummedAddressSchema,
  /** One of the DAO's DISCUSSION_CATEGORIES (the API checks which). */
  category: signedText(GOVERNANCE_LIMITS.categoryMax, 'The category').check(notBlank('The category')),
  title: signedText(DISCUSSION_LIMITS.titleMaxChars, 'The title').check(notBlank('The title')),
  /** Markdown; may be empty when the title says it all. */
  body: signedText(DISCUSSION_LIMITS.bodyMaxChars, 'The body'),
  mentions: mentionsSchema,
  timestamp: unixSeconds,
})
export type TopicMessage = z.infer<typeof topicMessageSchema>

/**
 * A new comment (`replaces` zero) or an edit (`replaces` = the version it edits). `thread` is a proposal's
 * or a topic's id; `parent` zero for top level. A comment's id is its first version's digest.
 */
export const commentMessageSchema = z.strictObject({
  author: checksummedAddressSchema,
  thread: bytes32Schema,
  parent: bytes32Schema,
  replaces: bytes32Schema,
  body: signedText(DISCUSSION_LIMITS.bodyMaxChars, 'The comment').check(notBlank('The comment')),
  mentions: mentionsSchema,
  timestamp: unixSeconds,
})
export type CommentMessage = z.infer<typeof commentMessageSchema>

/** The author withdraws a comment (its first version's id): the text is hidden, the entry stays. */
export const withdrawalMessageSchema = z.strictObject({
  author: checksummedAddressSchema,
  comment: bytes32Schema,
  timestamp: unixSeconds,
})
export type WithdrawalMessage = z.infer<typeof withdrawalMessageSchema>

/** `target` is a comment's or a topic's id; `on` false takes the reaction back. */
export const reactionMessageSchema = z.strictObject({
  author: checksummedAddressSchema,
  target: bytes32Schema,
  reaction: z.enum(REACTIONS, `The reaction must be one of ${REACTIONS.join(', ')}`),
  on: z.boolean(),
  timestamp: unixSeconds,
})
export type ReactionMessage = z.infer<typeof reactionMessageSchema>

export const flagMessageSchema = z.strictObject({
  author: checksummedAddressSchema,
  comment: bytes32Schema,
  reason: signedText(DISCUSSION_LIMITS.reasonMaxChars, 'The reason'),
  timestamp: unixSeconds,
})
export type FlagMessage = z.infer<typeof flagMessageSchema>

/** hide/unhide target a comment, lock/unlock a thread; always with a reason, shown in public. */
export const moderationMessageSchema = z.strictObject({
  moderator: checksummedAddressSchema,
  target: bytes32Schema,
  action: z.enum(MODERATION_ACTIONS, `The action must be one of ${MODERATION_ACTIONS.join(', ')}`),
  reason: signedText(DISCUSSION_LIMITS.reasonMaxChars, 'The reason').check(notBlank('The reason')),
  timestamp: unixSeconds,
})
export type ModerationMessage = z.infer<typeof moderationMessageSchema>

/** Each kind's message. */
export type DiscussionMessages = {
  'discussion-key': DiscussionKeyMessage
  'key-revocation': KeyRevocationMessage
  topic: TopicMessage
  comment: CommentMessage
  withdrawal: WithdrawalMessage
  reaction: ReactionMessage
  flag: FlagMessage
  moderation: ModerationMessage
}

export const discussionMessageSchemas = {
  'discussion-key': discussionKeyMessageSchema,
  'key-revocation': keyRevocationMessageSchema,
  topic: topicMessageSchema,
  comment: commentMessageSchema,
  withdrawal: withdrawalMessageSchema,
  reaction: reactionMessageSchema,
  flag: flagMessageSchema,
  moderation: moderationMessageSchema,
} as const satisfies { [K in DiscussionMessageKind]: z.ZodMiniType<DiscussionMessages[K]> }

/**
 * The scope a key needs to sign each kind; null for a key's authorisation (the member's wallet signs it)
 * and its revocation (the wallet or the key itself, whatever its scopes).
 */
export const DISCUSSION_KIND_SCOPES: Record<DiscussionMessageKind, DiscussionKeyScope | null> = {
  'discussion-key': null,
  'key-revocation': null,
  topic: 'comment',
  comment: 'comment',
  withdrawal: 'comment',
  reaction: 'react',
  flag: 'flag',
  moderation: 'moderate',
}

/** Who signs (or, for a key's authorisation and revocation, on whose behalf): the member it is from. */
export function discussionAuthor<K extends DiscussionMessageKind>(
  kind: K,
  message: DiscussionMessages[K],
): Address {
  const fields = message as Partial<Record<'author' | 'member' | 'moderator', Address>>
  const author = kind === 'moderation' ? fields.moderator : (fields.author ?? fields.member)
  if (!author) throw new TypeError(`A ${kind} message names no author`)
  return author
}

/** `{ message, signature }`: a POST body of the discussion API for `messageSchema`'s kind. */
export const signedDiscussionSchema = <T extends z.ZodMiniType>(messageSchema: T) =>
  z.strictObject({ message: messageSchema, signature: signatureSchema })

/** The typed data a key (or, for DiscussionKey, the member's wallet) signs, numbers widened to uint64. */
export function discussionTypedData<K extends DiscussionMessageKind>(
  domain: GovernanceDomain,
  kind: K,
  message: DiscussionMessages[K],
): TypedDataDefinition {
  const types = discussionTypes[kind]
  const widened = Object.fromEntries(
    Object.entries(message).map(([field, value]) => [
      field,
      field === 'timestamp' || field === 'expires' ? BigInt(value as number) : value,
    ]),
  )
  return { domain, types, primaryType: Object.keys(types)[0] as string, message: widened }
}

/** A message's id: the EIP-712 digest of what was signed (an edit's is its version id). */
export function discussionMessageId<K extends DiscussionMessageKind>(
  domain: GovernanceDomain,
  kind: K,
  message: DiscussionMessages[K],
): Hex {
  return typedDataDigest(discussionTypedData(domain, kind, message))
}

// Per kind where the apps name one; any other kind through discussionTypedData / discussionMessageId.
export const discussionKeyTypedData = (domain: GovernanceDomain, message: DiscussionKeyMessage) =>
  discussionTypedData(domain, 'discussion-key', message)
export const discussionKeyId = (domain: GovernanceDomain, message: DiscussionKeyMessage) =>
  discussionMessageId(domain, 'discussion-key', message)
export const keyRevocationTypedData = (domain: GovernanceDomain, message: KeyRevocationMessage) =>
  discussionTypedData(domain, 'key-revocation', message)
export const keyRevocationId = (domain: GovernanceDomain, message: KeyRevocationMessage) =>
  discussionMessageId(domain, 'key-revocation', message)
export const commentTypedData = (domain: GovernanceDomain, message: CommentMessage) =>
  discussionTypedData(domain, 'comment', message)
/** The version's digest: a new comment's is the comment's id, an edit's its version id. */
export const commentId = (domain: GovernanceDomain, message: CommentMessage) =>
  discussionMessageId(domain, 'comment', message)

/**
 * `message` signed with a local key (the browser's discussion key, from viem's `privateKeyToAccount`; or,
 * in tests and the demo seed, a member's own key for their DiscussionKey): the body the API receives, and
 * the id it is stored and logged under.
 */
export async function signWithDiscussionKey<K extends DiscussionMessageKind>(
  account: Pick<LocalAccount, 'signTypedData'>,
  domain: GovernanceDomain,
  kind: K,
  message: DiscussionMessages[K],
): Promise<{ message: DiscussionMessages[K]; signature: Hex; id: Hex }> {
  const typedData = discussionTypedData(domain, kind, message)
  return { message, signature: await account.signTypedData(typedData), id: typedDataDigest(typedData) }
}

/**
 * The address whose key signed `message` (ECDSA recovery of its digest), or null when the signature is
 * not a 65-byte secp256k1 signature. Synchronous, so a server can check a key without awaiting; a
 * member's wallet signature on a DiscussionKey may be a contract's, which only verifyHashSignature checks.
 */
export function discussionSigner<K extends DiscussionMessageKind>(
  domain: GovernanceDomain,
  kind: K,
  message: DiscussionMessages[K],
  signature: Hex,
): Address | null {
  return digestSigner(discussionMessageId(domain, kind, message), signature)
}

/**
 * The only form a key's signature takes: 65 bytes of hex whose last byte is a recovery bit (27, 28, 0 or 1).
 * Anything else is nobody's signature, without recovering (a server checks this before its signature workers).
 */
export function isKeySignature(signature: string): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false
  const v = Number.parseInt(signature.slice(130), 16)
  return v === 27 || v === 28 || v === 0 || v === 1
}

/** discussionSigner for a digest already computed (the recount has checked it is the message's id). */
export function digestSigner(digest: Hex, signature: Hex): Address | null {
  if (!isKeySignature(signature)) return null
  const v = Number.parseInt(signature.slice(130), 16)
  const recovery = v === 27 || v === 28 ? v - 27 : v
  try {
    const point = secp256k1.Signature.fromCompact(signature.slice(2, 130))
      .addRecoveryBit(recovery)
      .recoverPublicKey(digest.slice(2))
    return publicKeyToAddress(`0x${point.toHex(false)}`)
  } catch {
    // r or s out of range, or no point recovers: nobody's signature.
    return null
  }
}
