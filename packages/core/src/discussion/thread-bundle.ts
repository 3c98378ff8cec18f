/**
 * What GET /api/threads/:id/bundle answers (format guildhall-thread-bundle/1): every signed message of a
 * thread with its governance log entry, the keys that signed them with their authorisations and
 * revocations, the moderators the server names, and the state the server publishes, for the thread
 * recount (`recountThread`) to re-check.
 */
import { logEntrySchema } from '../governance/log.ts'
import { governanceDomainSchema } from '../governance/messages.ts'
import { hexSchema } from '../primitives.ts'
import { z } from '../zod.ts'
import {
  commentMessageSchema,
  discussionKeyMessageSchema,
  flagMessageSchema,
  keyRevocationMessageSchema,
  moderationMessageSchema,
  REACTIONS,
  reactionMessageSchema,
  topicMessageSchema,
  withdrawalMessageSchema,
} from './messages.ts'

export const THREAD_BUNDLE_FORMAT = 'guildhall-thread-bundle/1'

/** The operator removed the text (a legal takedown): the entry and its hash stay. */
const takenDownSchema = z.object({ reason: z.string(), at: z.int() })

/** A signed message with its id (digest) and log entry. */
const logged = <T extends z.ZodMiniType>(message: T) =>
  z.object({ id: hexSchema, message, signature: hexSchema, log: logEntrySchema })

/** A topic or comment as signed, its body null when a takedown removed it. */
const removableTopicSchema = z.strictObject({
  ...topicMessageSchema.shape,
  body: z.nullable(topicMessageSchema.shape.body),
})
const removableCommentSchema = z.strictObject({
  ...commentMessageSchema.shape,
  body: z.nullable(commentMessageSchema.shape.body),
})

const bundleMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('comment'),
    ...logged(removableCommentSchema).shape,
    takenDown: z.optional(takenDownSchema),
  }),
  z.object({ kind: z.literal('withdrawal'), ...logged(withdrawalMessageSchema).shape }),
  z.object({ kind: z.literal('reaction'), ...logged(reactionMessageSchema).shape }),
  z.object({
    kind: z.literal('flag'),
    ...logged(flagMessageSchema).shape,
    /**
     * The token index's block at which the server read the flagger's voting power and tokens (a flag counts
     * toward hiding when either is above zero); null for a flag stored before servers kept it, absent from
     * older servers' bundles.
     */
    powerBlock: z.optional(z.nullable(z.int().check(z.nonnegative()))),
  }),
  z.object({ kind: z.literal('moderation'), ...logged(moderationMessageSchema).shape }),
])
export type ThreadBundleMessage = z.infer<typeof bundleMessageSchema>

export const threadBundleSchema = z.object({
  format: z.literal(THREAD_BUNDLE_FORMAT),
  domain: governanceDomainSchema,
  thread: z.object({
    id: hexSchema,
    kind: z.enum(['proposal', 'topic']),
    /** A topic's thread: the topic itself (its id is the thread's). */
    topic: z.optional(
      z.object({
        ...logged(removableTopicSchema).shape,
        takenDown: z.optional(takenDownSchema),
      }),
    ),
  }),
  /** The moderators as the server names them (MODERATORS). */
  moderators: z.array(hexSchema),
  /** How many flags from members with voting power or tokens hide a comment (DISCUSSION_FLAGS_TO_HIDE); absent from older servers' bundles. */
  flagsToHide: z.optional(z.int().check(z.positive())),
  /** Every key that signed a message here: its authorisation by the member's wallet. */
  keys: z.array(logged(discussionKeyMessageSchema)),
  /** Those keys' revocations. */
  revocations: z.array(logged(keyRevocationMessageSchema)),
  /** In log order. */
  messages: z.array(bundleMessageSchema),
  /** What the server shows, for the recount to compare with the state its messages make. */
  published: z.object({
    comments: z.array(
      z.object({
        /** The first version's id. */
        id: hexSchema,
        /** The latest version's. */
        versionId: hexSchema,
        withdrawn: z.boolean(),
        hidden: z.boolean(),
        reactions: z.array(z.object({ reaction: z.enum(REACTIONS), count: z.int() })),
      }),
    ),
  }),
})
export type ThreadBundle = z.infer<typeof threadBundleSchema>
