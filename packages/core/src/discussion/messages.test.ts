import { type Hex, hashTypedData, recoverTypedDataAddress, zeroHash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { formatIssues } from '../config.ts'
import {
  commentDepth,
  commentDepthProblem,
  commentId,
  commentMessageSchema,
  DISCUSSION_LIMITS,
  DISCUSSION_MESSAGE_KINDS,
  type DiscussionMessageKind,
  type DiscussionMessages,
  discussionKeyMessageSchema,
  discussionMessageId,
  discussionMessageSchemas,
  discussionSigner,
  discussionTypedData,
  moderationMessageSchema,
  REACTION_EMOJI,
  REACTIONS,
  reactionMessageSchema,
  signedDiscussionSchema,
  signWithDiscussionKey,
  topicMessageSchema,
} from './messages.ts'
import { ada, ben, domain, PROPOSAL_THREAD } from './thread-test-kit.ts'

const key = privateKeyToAccount(generatePrivateKey())
const someId: Hex = `0x${'cd'.repeat(32)}`
const T = 1_800_000_000

/** One valid message of each kind, and a change to one of its fields. */
const samples: { [K in DiscussionMessageKind]: [DiscussionMessages[K], Partial<DiscussionMessages[K]>] } = {
  'discussion-key': [
    {
      member: ada.address,
      key: key.address,
      scopes: ['comment', 'react'],
      expires: T + 86_400,
      timestamp: T,
    },
    { scopes: ['comment', 'react', 'moderate'] },
  ],
  'key-revocation': [{ member: ada.address, key: key.address, timestamp: T }, { key: ben.address }],
  topic: [
    {
      author: ada.address,
      category: 'Ideas',
      title: 'A new roof',
      body: 'Tiles or slate?',
      mentions: [],
      timestamp: T,
    },
    { category: 'Questions' },
  ],
  comment: [
    {
      author: ada.address,
      thread: PROPOSAL_THREAD,
      parent: zeroHash,
      replaces: zeroHash,
      body: 'Slate.',
      mentions: [],
      timestamp: T,
    },
    { parent: someId },
  ],
  withdrawal: [{ author: ada.address, comment: someId, timestamp: T }, { timestamp: T + 1 }],
  reaction: [
    { author: ada.address, target: someId, reaction: 'heart', on: true, timestamp: T },
    { on: false },
  ],
  flag: [{ author: ada.address, comment: someId, reason: 'Spam', timestamp: T }, { reason: 'Spam!' }],
  moderation: [
    { moderator: ada.address, target: someId, action: 'hide', reason: 'Spam', timestamp: T },
    { action: 'unhide' },
  ],
}

describe('discussion messages', () => {
  test.each(DISCUSSION_MESSAGE_KINDS)(
    'behavior: a %s is valid for its schema; a key signs it, discussionSigner recovers the key, its id is its digest and a changed field changes it',
    async (kind) => {
      const [message, change] = samples[kind]
      expect(discussionMessageSchemas[kind].parse(message)).toEqual(message)
      const signed = await signWithDiscussionKey(key, domain, kind, message)
      const typedData = discussionTypedData(domain, kind, message)
      expect(signed.id).toBe(hashTypedData(typedData))
      expect(discussionMessageId(domain, kind, message)).toBe(signed.id)
      expect(await recoverTypedDataAddress({ ...typedData, signature: signed.signature })).toBe(key.address)
      expect(discussionSigner(domain, kind, message, signed.signature)).toBe(key.address)
      const changed = { ...message, ...change }
      expect(discussionMessageId(domain, kind, changed)).not.toBe(signed.id)
      // The same signature over the changed message recovers someone else.
      expect(discussionSigner(domain, kind, changed, signed.signature)).not.toBe(key.address)
      // Under another chain's domain too.
      expect(discussionSigner({ ...domain, chainId: 1 }, kind, message, signed.signature)).not.toBe(
        key.address,
      )
    },
  )

  test('behavior: the EIP-712 primary types are named as the contract says, and the kinds are those of their log entries', () => {
    expect(
      DISCUSSION_MESSAGE_KINDS.map((kind) => discussionTypedData(domain, kind, samples[kind][0]).primaryType),
    ).toEqual([
      'DiscussionKey',
      'KeyRevocation',
      'Topic',
      'Comment',
      'Withdrawal',
      'Reaction',
      'Flag',
      'Moderation',
    ])
  })

  test('behavior: an edit’s id (its version id) differs from the comment’s first version, which stays the comment’s id', () => {
    const [first] = samples.comment
    const id = commentId(domain, first)
    const edit = { ...first, replaces: id, body: 'Slate, on reflection.' }
    expect(commentId(domain, edit)).not.toBe(id)
  })

  test('behavior: discussionSigner answers null for what is not a 65-byte ECDSA signature', () => {
    const [message] = samples.comment
    expect(discussionSigner(domain, 'comment', message, '0x')).toBeNull()
    expect(discussionSigner(domain, 'comment', message, `0x${'00'.repeat(65)}`)).toBeNull()
    expect(discussionSigner(domain, 'comment', message, `0x${'11'.repeat(64)}05`)).toBeNull()
  })

  test('behavior: signedDiscussionSchema takes exactly { message, signature }', () => {
    const schema = signedDiscussionSchema(reactionMessageSchema)
    const [message] = samples.reaction
    expect(schema.safeParse({ message, signature: '0x1234' }).success).toBe(true)
    expect(schema.safeParse({ message, signature: '0x1234', extra: 1 }).success).toBe(false)
    expect(schema.safeParse({ message, signature: 'nope' }).success).toBe(false)
  })
})

/** The refusal of `value` by `schema`, as the API words it. */
const refusal = (
  schema: { safeParse: (value: unknown) => { success: boolean; error?: unknown } },
  value: unknown,
) => {
  const result = schema.safeParse(value)
  if (result.success) return null
  return formatIssues(result.error as Parameters<typeof formatIssues>[0])
}

describe('discussion limits', () => {
  const [comment] = samples.comment

  test('behavior: a body over the limit is refused, naming the limit; one at the limit is accepted', () => {
    const atLimit = 'a'.repeat(DISCUSSION_LIMITS.bodyMaxChars)
    expect(refusal(commentMessageSchema, { ...comment, body: atLimit })).toBeNull()
    expect(refusal(commentMessageSchema, { ...comment, body: `${atLimit}a` })).toBe(
      '- body: The comment must be at most 10000 characters',
    )
    expect(refusal(commentMessageSchema, { ...comment, body: '  \n ' })).toBe(
      '- body: The comment must not be empty',
    )
  })

  test('behavior: a mention that is not an address, or not checksummed, is refused; more than the limit too', () => {
    // Both of the address schema's checks speak, as they do for every address field.
    expect(refusal(commentMessageSchema, { ...comment, mentions: ['ada.eth'] })).toBe(
      '- mentions.0: must be 0x followed by 40 hex digits\n- mentions.0: must be EIP-55 checksummed',
    )
    expect(refusal(commentMessageSchema, { ...comment, mentions: [ada.address.toLowerCase()] })).toBe(
      '- mentions.0: must be EIP-55 checksummed',
    )
    const many = Array.from({ length: DISCUSSION_LIMITS.mentionsMax + 1 }, () => ada.address)
    expect(refusal(commentMessageSchema, { ...comment, mentions: many })).toBe(
      '- mentions: A message mentions at most 20 members',
    )
  })

  test('behavior: a key authorised for more than 30 days, or expiring before it is signed, is refused', () => {
    const [authorisation] = samples['discussion-key']
    const month = DISCUSSION_LIMITS.keyLifetimeMaxSeconds
    expect(refusal(discussionKeyMessageSchema, { ...authorisation, expires: T + month })).toBeNull()
    const refused = '- expires: A key expires after its authorisation, within 30 days'
    expect(refusal(discussionKeyMessageSchema, { ...authorisation, expires: T + month + 1 })).toBe(refused)
    expect(refusal(discussionKeyMessageSchema, { ...authorisation, expires: T })).toBe(refused)
    expect(refusal(discussionKeyMessageSchema, { ...authorisation, scopes: [] })).toBe(
      '- scopes: A key needs at least one scope',
    )
    expect(refusal(discussionKeyMessageSchema, { ...authorisation, scopes: ['comment', 'vote'] })).toBe(
      '- scopes.1: A scope is one of comment, react, flag, moderate',
    )
  })

  test('behavior: an unknown reaction is refused, naming the set; every reaction has its emoji', () => {
    const [reaction] = samples.reaction
    expect(refusal(reactionMessageSchema, { ...reaction, reaction: 'fire' })).toBe(
      '- reaction: The reaction must be one of thumbs-up, heart, party, laugh, thinking, eyes',
    )
    expect(REACTIONS.map((name) => REACTION_EMOJI[name])).toEqual(['👍', '❤️', '🎉', '😄', '🤔', '👀'])
  })

  test('behavior: a moderation needs a known action and a reason; a topic a title', () => {
    const [moderation] = samples.moderation
    expect(refusal(moderationMessageSchema, { ...moderation, action: 'delete' })).toBe(
      '- action: The action must be one of hide, unhide, lock, unlock',
    )
    expect(refusal(moderationMessageSchema, { ...moderation, reason: '' })).toBe(
      '- reason: The reason must not be empty',
    )
    const [topic] = samples.topic
    expect(refusal(topicMessageSchema, { ...topic, title: ' ' })).toBe('- title: The title must not be empty')
    expect(refusal(topicMessageSchema, { ...topic, title: 't'.repeat(201) })).toBe(
      '- title: The title must be at most 200 characters',
    )
  })

  test('behavior: a top-level comment has depth 0, a reply its parent’s + 1, and past depth 3 a reply is refused', () => {
    expect(commentDepth(null)).toBe(0)
    expect(commentDepth(2)).toBe(3)
    expect(commentDepthProblem(commentDepth(2))).toBeNull()
    expect(commentDepthProblem(commentDepth(3))).toBe(
      'Replies nest at most 3 deep: reply to a comment higher up the thread.',
    )
  })
})
