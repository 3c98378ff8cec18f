// Reactions (ADR 053): a member's reaction on a comment or a topic is their latest `Reaction` message, on
// or off, the latest in log order; each is logged. A locked thread takes none.
import type { CommentJson, ReactionMessage, TopicJson } from '@guildhall/core'
import { eq } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import { comments, reactions, topics } from '../platform/db/schema.ts'
import { commentById, unknownComment } from './comments.ts'
import type { DiscussionDeps } from './deps.ts'
import { checkKeySigned, recordMessage } from './signed.ts'
import { lockThread, threadLocked } from './threads.ts'
import { topicById } from './topics.ts'

/** POST /api/reactions: the comment reacted to, or the topic. */
export async function react(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  { message, signature }: { message: ReactionMessage; signature: Hex },
): Promise<{ comment: CommentJson } | { topic: TopicJson }> {
  const { id, key, author } = await checkKeySigned(deps, signedIn, 'reaction', message, signature)
  const { db } = deps.governance.database
  const [comment] = await db
    .select({ threadId: comments.threadId })
    .from(comments)
    .where(eq(comments.id, message.target))
  const [topic] = comment
    ? []
    : await db.select({ id: topics.id }).from(topics).where(eq(topics.id, message.target))
  if (!comment && !topic) throw unknownComment()
  const threadId = (comment?.threadId ?? topic?.id) as Hex
  await db.transaction(async (tx) => {
    // A locked thread takes no new reactions either, as the thread says.
    const thread = await lockThread(tx, threadId)
    if (thread.lockedBy !== null) throw threadLocked(thread)
    const seq = await recordMessage(
      tx,
      { kind: 'reaction', id, threadId, author, key, message, signature },
      deps.governance.observer,
    )
    const target = { targetId: message.target, author, reaction: message.reaction }
    // The latest in log order stands, as the recount folds them.
    await tx
      .insert(reactions)
      .values({ ...target, on: message.on, logSeq: seq })
      .onConflictDoUpdate({
        target: [reactions.targetId, reactions.author, reactions.reaction],
        set: { on: message.on, logSeq: seq },
      })
  })
  return comment
    ? { comment: await commentById(deps, message.target, signedIn) }
    : { topic: await topicById(deps, message.target, signedIn) }
}
