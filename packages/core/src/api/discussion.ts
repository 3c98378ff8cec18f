// The discussion API's answers and queries (ADR 052): keys, topics, threads and their items (comments and
// vote cards), comment versions and moderation actions. The signed request bodies are
// `signedDiscussionSchema(xxxMessageSchema)` (discussion/messages.ts).
import { DISCUSSION_KEY_SCOPES, MODERATION_ACTIONS, REACTIONS } from '../discussion/messages.ts'
import { signedText } from '../governance/messages.ts'
import { GOVERNANCE_LIMITS } from '../governance/rules.ts'
import { bytes32Schema, checksummedAddressSchema, decimalStringSchema } from '../primitives.ts'
import { z } from '../zod.ts'
import { cursorParamSchema, cursorSchema, pageLimit } from './lists.ts'

/** A key a member authorised, as GET /api/discussion/keys lists it. */
const discussionKeyJsonSchema = z.strictObject({
  key: checksummedAddressSchema,
  member: checksummedAddressSchema,
  scopes: z.array(z.enum(DISCUSSION_KEY_SCOPES)),
  expires: z.int(),
  /** The authorisation's signed timestamp. */
  createdAt: z.int(),
  /** The revocation's signed timestamp; null while the key stands. */
  revokedAt: z.nullable(z.int()),
  logSeq: z.int(),
})
export type DiscussionKeyJson = z.infer<typeof discussionKeyJsonSchema>
/** POST /api/discussion/keys (201) and POST /api/discussion/keys/revoke (200). */
export const discussionKeyResponseSchema = z.strictObject({ key: discussionKeyJsonSchema })
/** GET /api/discussion/keys: the signed-in member's keys, newest first. */
export const discussionKeyListSchema = z.strictObject({ items: z.array(discussionKeyJsonSchema) })

/** A reaction's count on a comment or topic, and whether the signed-in member's is among them. */
const reactionCountSchema = z.strictObject({
  reaction: z.enum(REACTIONS),
  count: z.int(),
  mine: z.boolean(),
})

const titledLinkSchema = z.strictObject({ id: bytes32Schema, title: z.string() })

const commentJsonSchema = z.strictObject({
  /** The first version's digest. */
  id: bytes32Schema,
  thread: bytes32Schema,
  parent: z.nullable(bytes32Schema),
  depth: z.int(),
  author: checksummedAddressSchema,
  /** The latest version's text; null when withdrawn or taken down. */
  body: z.nullable(z.string()),
  mentions: z.array(checksummedAddressSchema),
  createdAt: z.int(),
  editedAt: z.nullable(z.int()),
  /** 1 = never edited. */
  versions: z.int(),
  /** The latest version's digest. */
  versionId: bytes32Schema,
  /** The first version's log entry. */
  logSeq: z.int(),
  withdrawn: z.boolean(),
  /** `by` null: hidden by members' flags until a moderator decides. */
  hidden: z.nullable(
    z.strictObject({
      by: z.nullable(checksummedAddressSchema),
      reason: z.string(),
      at: z.int(),
      logSeq: z.int(),
    }),
  ),
  takenDown: z.nullable(z.strictObject({ reason: z.string(), at: z.int() })),
  reactions: z.array(reactionCountSchema),
  flags: z.int(),
})
export type CommentJson = z.infer<typeof commentJsonSchema>
/** POST /api/comments (201, new or edit), POST /api/comments/withdraw (200), POST /api/flags (201). */
export const commentResponseSchema = z.strictObject({ comment: commentJsonSchema })

/** GET /api/comments/:id/versions: oldest first. */
export const commentVersionsSchema = z.strictObject({
  items: z.array(
    z.strictObject({
      versionId: bytes32Schema,
      body: z.nullable(z.string()),
      mentions: z.array(checksummedAddressSchema),
      timestamp: z.int(),
      logSeq: z.int(),
    }),
  ),
})
export type CommentVersions = z.infer<typeof commentVersionsSchema>

/** A counting vote with a reason, shown in its proposal's thread. */
const voteCardJsonSchema = z.strictObject({
  voteId: bytes32Schema,
  voter: checksummedAddressSchema,
  /** The chosen choices' labels, as the proposal names them. */
  choice: z.string(),
  power: decimalStringSchema,
  reason: z.string(),
  castAt: z.int(),
  logSeq: z.int(),
  /** It replaced an earlier vote of the same voter. */
  revote: z.boolean(),
})
export type VoteCardJson = z.infer<typeof voteCardJsonSchema>

const threadItemSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('comment'), comment: commentJsonSchema }),
  z.strictObject({ type: z.literal('vote'), vote: voteCardJsonSchema }),
])
export type ThreadItem = z.infer<typeof threadItemSchema>

/** GET /api/threads/:id */
export const threadJsonSchema = z.strictObject({
  id: bytes32Schema,
  kind: z.enum(['proposal', 'topic']),
  proposal: z.nullable(titledLinkSchema),
  topic: z.nullable(titledLinkSchema),
  locked: z.nullable(
    z.strictObject({ by: checksummedAddressSchema, reason: z.string(), at: z.int(), logSeq: z.int() }),
  ),
  commentCount: z.int(),
  /** The signed-in member's last visit (POST /api/threads/:id/seen); null when none or signed out. */
  lastSeenSeq: z.nullable(z.int()),
  mayPost: z.boolean(),
  /** Why not, in a sentence; null when mayPost. */
  mayPostReason: z.nullable(z.string()),
})
export type ThreadJson = z.infer<typeof threadJsonSchema>

/** GET /api/threads/:id/items?cursor=&limit= and GET /api/moderation?cursor=&limit=. */
export const discussionPageQuerySchema = z.strictObject({
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(50, 200),
})
export type DiscussionPageQuery = z.infer<typeof discussionPageQuerySchema>

/** GET /api/threads/:id/items: tree order, each top-level item followed by its replies depth-first. */
export const threadPageSchema = z.strictObject({
  items: z.array(threadItemSchema),
  next: z.nullable(cursorSchema),
})
export type ThreadPage = z.infer<typeof threadPageSchema>

/** POST /api/threads/:id/seen (session): the last log seq the member saw in the thread. */
export const threadSeenRequestSchema = z.strictObject({ seq: z.int().check(z.gte(0)) })

const topicSummarySchema = z.strictObject({
  id: bytes32Schema,
  category: z.string(),
  title: z.string(),
  author: checksummedAddressSchema,
  createdAt: z.int(),
  replies: z.int(),
  lastActivityAt: z.int(),
  /** The proposal made from it, once one links it. */
  proposal: z.nullable(titledLinkSchema),
  locked: z.boolean(),
})
export type TopicSummary = z.infer<typeof topicSummarySchema>

/** GET /api/discussion/topics/:id (topics are not edited). */
export const topicJsonSchema = z.strictObject({
  ...topicSummarySchema.shape,
  /** null when taken down. */
  body: z.nullable(z.string()),
  mentions: z.array(checksummedAddressSchema),
  reactions: z.array(reactionCountSchema),
  logSeq: z.int(),
})
export type TopicJson = z.infer<typeof topicJsonSchema>
/** POST /api/discussion/topics (201). */
export const topicResponseSchema = z.strictObject({ topic: topicJsonSchema })

/** GET /api/discussion/topics?category=&cursor=&limit= : latest activity first. */
export const topicListQuerySchema = z.strictObject({
  category: z.optional(signedText(GOVERNANCE_LIMITS.categoryMax, 'The category')),
  cursor: z.optional(cursorParamSchema),
  limit: pageLimit(20, 100),
})
export type TopicListQuery = z.infer<typeof topicListQuerySchema>
export const topicListSchema = z.strictObject({
  items: z.array(topicSummarySchema),
  next: z.nullable(cursorSchema),
})

/** POST /api/reactions: the comment reacted to, or the topic. */
export const reactionResponseSchema = z.union([
  commentResponseSchema,
  z.strictObject({ topic: topicJsonSchema }),
])

/** A moderation action on the public list: a moderator's, the flags' auto-hide, or the operator's takedown. */
const moderationActionJsonSchema = z.strictObject({
  /** The action's log entry's message id (a takedown's: the id of the message taken down). */
  id: bytes32Schema,
  /** null for an auto-hide by flags and for a takedown (the operator). */
  moderator: z.nullable(checksummedAddressSchema),
  kind: z.enum([...MODERATION_ACTIONS, 'auto-hide', 'takedown']),
  /** A comment's id, or a thread's for lock/unlock. */
  target: bytes32Schema,
  thread: bytes32Schema,
  reason: z.string(),
  at: z.int(),
  logSeq: z.int(),
})
export type ModerationActionJson = z.infer<typeof moderationActionJsonSchema>
/** POST /api/moderation (201). */
export const moderationActionResponseSchema = z.strictObject({ action: moderationActionJsonSchema })
/** An action on the public list, with what a link to its comment or thread needs. */
const moderationActionListItemSchema = z.extend(moderationActionJsonSchema, {
  /** The thread's page: a proposal's (/proposals/:id) or a topic's (/discussions/:id). */
  threadKind: z.enum(['proposal', 'topic']),
  /** The proposal's or the topic's title. */
  threadTitle: z.string(),
})
export type ModerationActionListItem = z.infer<typeof moderationActionListItemSchema>
/** GET /api/moderation: newest first. */
export const moderationActionListSchema = z.strictObject({
  items: z.array(moderationActionListItemSchema),
  next: z.nullable(cursorSchema),
})
export type ModerationActionList = z.infer<typeof moderationActionListSchema>
