// The operator's legal takedown (ADR 054, `npm run takedown`): the only removal of text. It runs on the
// server's database, never over HTTP, and removes the body of a topic or of every version of a comment in
// one transaction, keeping each message's log entry and hash and appending a `takedown` entry per message.
import { bytes32Schema, DISCUSSION_LIMITS } from '@guildhall/core'
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { seconds } from '../governance/deps.ts'
import { appendLog } from '../governance/log.ts'
import type { Db } from '../platform/db/client.ts'
import {
  comments,
  commentVersions,
  discussionMessages,
  moderationActions,
  threads,
  topics,
} from '../platform/db/schema.ts'
import { lockThread } from './threads.ts'

/** A takedown the operator asked for that cannot be done, in a sentence. */
export class TakedownRefused extends Error {
  override name = 'TakedownRefused'
}

export interface TakedownResult {
  kind: 'topic' | 'comment'
  /** The comment's id (its first version's) or the topic's. */
  target: Hex
  thread: Hex
  /** The messages whose body was removed, and the log seq of each one's `takedown` entry. */
  removed: { id: Hex; logSeq: number }[]
}

/**
 * Takes down the topic or comment `id` names (a comment's id or any of its version ids): its text goes from
 * the stored messages (`body` null), the comment or topic row and the comment's versions; the messages are
 * marked taken down with `reason`, each gets a `takedown` log entry (signature `0x`), and the public
 * moderation log an entry per message.
 */
export async function takedown(
  db: Db,
  { id, reason, now }: { id: string; reason: string; now: Date },
): Promise<TakedownResult> {
  if (!bytes32Schema.safeParse(id).success) {
    throw new TakedownRefused(`${id} is not a message id (0x and 64 lower-case hex digits).`)
  }
  const why = reason.trim()
  if (why === '') throw new TakedownRefused('Give the reason (--reason "…"): it is shown in public.')
  if (why.length > DISCUSSION_LIMITS.reasonMaxChars) {
    throw new TakedownRefused(`The reason is at most ${DISCUSSION_LIMITS.reasonMaxChars} characters.`)
  }
  const at = seconds(now)
  return db.transaction(async (tx) => {
    const [message] = await tx.select().from(discussionMessages).where(eq(discussionMessages.id, id))
    if (!message || (message.kind !== 'topic' && message.kind !== 'comment') || !message.threadId) {
      throw new TakedownRefused(
        message
          ? `${id} is a ${message.kind}: only a topic's or a comment's text can be taken down.`
          : `No topic or comment has the id ${id}.`,
      )
    }
    const kind = message.kind
    // A comment's every version goes: an edit's text is as much the comment's as its first version's.
    const [version] =
      kind === 'comment'
        ? await tx
            .select({ commentId: commentVersions.commentId })
            .from(commentVersions)
            .where(eq(commentVersions.versionId, id))
        : [{ commentId: id }]
    const target = (version?.commentId ?? id) as Hex
    const thread = await lockThread(tx, message.threadId)
    const ids =
      kind === 'comment'
        ? (
            await tx
              .select({ id: commentVersions.versionId })
              .from(commentVersions)
              .where(eq(commentVersions.commentId, target))
              .orderBy(asc(commentVersions.logSeq))
          ).map((row) => row.id)
        : [id]
    const pending = await tx
      .select({ id: discussionMessages.id })
      .from(discussionMessages)
      .where(and(inArray(discussionMessages.id, ids), isNull(discussionMessages.takenDownAt)))
      .orderBy(asc(discussionMessages.logSeq))
    if (pending.length === 0) throw new TakedownRefused(`This ${kind} was already taken down.`)

    const removed: TakedownResult['removed'] = []
    for (const { id: messageId } of pending) {
      await tx
        .update(discussionMessages)
        .set({
          message: sql`jsonb_set(${discussionMessages.message}, '{body}', 'null'::jsonb)`,
          takenDownAt: at,
          takedownReason: why,
        })
        .where(eq(discussionMessages.id, messageId))
      const logged = await appendLog(tx, {
        kind: 'takedown',
        messageId: messageId as Hex,
        proposalId: null,
        signature: '0x',
        threadId: thread.id as Hex,
      })
      await tx.insert(moderationActions).values({
        logSeq: logged.seq,
        id: messageId,
        kind: 'takedown',
        moderator: null,
        target,
        threadId: thread.id,
        reason: why,
        at,
      })
      removed.push({ id: messageId as Hex, logSeq: logged.seq })
    }
    if (kind === 'comment') {
      await tx.update(comments).set({ body: null }).where(eq(comments.id, target))
      await tx.update(commentVersions).set({ body: null }).where(eq(commentVersions.commentId, target))
    } else {
      await tx.update(topics).set({ body: null }).where(eq(topics.id, target))
    }
    const last = removed.at(-1)?.logSeq ?? thread.lastActivitySeq
    await tx
      .update(threads)
      .set({ lastActivitySeq: sql`greatest(${threads.lastActivitySeq}, ${last})` })
      .where(eq(threads.id, thread.id))
    return { kind, target, thread: thread.id as Hex, removed }
  })
}
