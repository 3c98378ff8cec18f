// Comments (ADR 053): a new comment or an edit (a new signed version replacing the latest), a withdrawal,
// and their answer. Each write is one transaction: the message and its log entry, the comment's row, its
// version, the thread's count; nothing of a refused one is stored.
import {
  type CommentJson,
  type CommentMessage,
  type CommentVersions,
  commentDepth,
  commentDepthProblem,
  mentionsProblem,
  type WithdrawalMessage,
} from '@guildhall/core'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { type Address, type Hex, zeroHash } from 'viem'
import type { Db, Tx } from '../platform/db/client.ts'
import { comments, commentVersions, discussionMessages, reactions, threads } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { DiscussionDeps } from './deps.ts'
import { postingProblem } from './policy.ts'
import { checkKeySigned, pathSegment, recordMessage } from './signed.ts'
import { lockThread, requireThread, threadLocked } from './threads.ts'

export type CommentRow = typeof comments.$inferSelect

export const unknownComment = () => new ApiError(404, 'unknown_comment', 'There is no comment with this id.')

/** A 403 with the posting policy's reason, or nothing. */
export async function checkMayPost(deps: DiscussionDeps, author: Address): Promise<void> {
  const problem = await postingProblem(deps, author)
  if (problem) throw new ApiError(403, 'may_not_post', problem)
}

/** A 422 unless the signed mentions are the body's `@` tokens, one address each, in order. */
export function checkMentions(body: string, mentions: readonly Address[]): void {
  const problem = mentionsProblem(body, mentions)
  if (problem) throw new ApiError(422, 'mention_mismatch', problem)
}

/** POST /api/comments: a new comment (`replaces` zero) or an edit of the latest version of the author's own. */
export async function postComment(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  { message, signature }: { message: CommentMessage; signature: Hex },
): Promise<{ comment: CommentJson; created: boolean }> {
  const { id, key, author } = await checkKeySigned(deps, signedIn, 'comment', message, signature)
  checkMentions(message.body, message.mentions)
  const { db } = deps.governance.database
  const thread = await requireThread(db, message.thread)
  if (thread.lockedBy !== null) throw threadLocked(thread)
  const edit = message.replaces !== zeroHash
  if (!edit) await checkMayPost(deps, author)

  const commentId = await db.transaction(async (tx) => {
    const locked = await lockThread(tx, message.thread)
    if (locked.lockedBy !== null) throw threadLocked(locked)
    // A new comment and an edit store the signed message and its version alike.
    const record = () =>
      recordMessage(
        tx,
        { kind: 'comment', id, threadId: message.thread, author, key, message, signature },
        deps.governance.observer,
      )
    const addVersion = (commentId: string, logSeq: number) =>
      tx.insert(commentVersions).values({
        versionId: id,
        commentId,
        body: message.body,
        mentions: [...message.mentions],
        timestamp: message.timestamp,
        logSeq,
      })
    if (edit) {
      const edited = await editableComment(tx, message, author)
      const seq = await record()
      await addVersion(edited.id, seq)
      await tx
        .update(comments)
        .set({
          body: message.body,
          mentions: [...message.mentions],
          versionId: id,
          versions: sql`${comments.versions} + 1`,
          editedAt: message.timestamp,
        })
        .where(eq(comments.id, edited.id))
      return edited.id
    }
    const parent = message.parent === zeroHash ? null : await parentComment(tx, message)
    const depth = commentDepth(parent ? parent.depth : null)
    const tooDeep = commentDepthProblem(depth)
    if (tooDeep) throw new ApiError(422, 'too_deep', tooDeep)
    const seq = await record()
    await tx.insert(comments).values({
      id,
      threadId: message.thread,
      parentId: parent?.id ?? null,
      depth,
      // Its ancestors' seqs then its own: the thread's tree order is this column's order.
      path: parent ? `${parent.path}.${pathSegment(seq)}` : pathSegment(seq),
      author,
      body: message.body,
      mentions: [...message.mentions],
      versionId: id,
      createdAt: message.timestamp,
      logSeq: seq,
    })
    await addVersion(id, seq)
    await tx
      .update(threads)
      .set({ commentCount: sql`${threads.commentCount} + 1` })
      .where(eq(threads.id, message.thread))
    return id
  })
  return { comment: await commentById(deps, commentId, signedIn), created: true }
}

/** The parent of a reply: a comment of the same thread. */
async function parentComment(tx: Tx, message: CommentMessage): Promise<CommentRow> {
  const [parent] = await tx.select().from(comments).where(eq(comments.id, message.parent))
  if (!parent || parent.threadId !== message.thread) {
    throw new ApiError(404, 'unknown_comment', 'The comment this replies to is not in this thread.')
  }
  return parent
}

/** The comment an edit replaces the latest version of, locked: its author's, in this thread, not withdrawn. */
async function editableComment(tx: Tx, message: CommentMessage, author: Address): Promise<CommentRow> {
  const [version] = await tx
    .select({ commentId: commentVersions.commentId })
    .from(commentVersions)
    .where(eq(commentVersions.versionId, message.replaces))
  const [comment] = version
    ? await tx.select().from(comments).where(eq(comments.id, version.commentId)).for('update')
    : []
  if (!comment || comment.threadId !== message.thread) throw unknownComment()
  if (comment.author !== author) {
    throw new ApiError(403, 'not_author', 'Only its author may edit or withdraw a comment.')
  }
  if (comment.withdrawnSeq !== null) throw new ApiError(409, 'withdrawn', 'This comment was withdrawn.')
  if (comment.versionId !== message.replaces) {
    throw new ApiError(
      409,
      'not_latest',
      'This edit replaces an earlier version; the comment has changed since. Edit its latest version.',
    )
  }
  if (message.parent !== (comment.parentId ?? zeroHash)) {
    throw new ApiError(422, 'bad_parent', 'An edit keeps the comment where it is: the same parent.')
  }
  return comment
}

/** POST /api/comments/withdraw: the author's own comment; its text hidden, every entry kept. */
export async function withdrawComment(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  { message, signature }: { message: WithdrawalMessage; signature: Hex },
): Promise<CommentJson> {
  const { id, key, author } = await checkKeySigned(deps, signedIn, 'withdrawal', message, signature)
  const { db } = deps.governance.database
  await db.transaction(async (tx) => {
    const [comment] = await tx.select().from(comments).where(eq(comments.id, message.comment)).for('update')
    if (!comment) throw unknownComment()
    if (comment.author !== author) {
      throw new ApiError(403, 'not_author', 'Only its author may edit or withdraw a comment.')
    }
    if (comment.withdrawnSeq !== null)
      throw new ApiError(409, 'withdrawn', 'This comment was withdrawn already.')
    const seq = await recordMessage(
      tx,
      {
        kind: 'withdrawal',
        id,
        threadId: comment.threadId as Hex,
        author,
        key,
        message,
        signature,
      },
      deps.governance.observer,
    )
    await tx.update(comments).set({ withdrawnSeq: seq }).where(eq(comments.id, comment.id))
  })
  return commentById(deps, message.comment, signedIn)
}

/** GET /api/comments/:id/versions: oldest first; a withdrawn comment's texts are not shown. */
export async function commentVersionList(deps: DiscussionDeps, id: string): Promise<CommentVersions> {
  const { db } = deps.governance.database
  const [comment] = await db.select().from(comments).where(eq(comments.id, id))
  if (!comment) throw unknownComment()
  const rows = await db
    .select()
    .from(commentVersions)
    .where(eq(commentVersions.commentId, id))
    .orderBy(asc(commentVersions.logSeq))
  const withdrawn = comment.withdrawnSeq !== null
  return {
    items: rows.map((row) => ({
      versionId: row.versionId as Hex,
      body: withdrawn ? null : row.body,
      mentions: row.mentions as Address[],
      timestamp: row.timestamp,
      logSeq: row.logSeq,
    })),
  }
}

export async function commentById(deps: DiscussionDeps, id: string, reader: Address | undefined) {
  const { db } = deps.governance.database
  const [row] = await db.select().from(comments).where(eq(comments.id, id))
  if (!row) throw unknownComment()
  const [json] = await commentsJson(db, [row], reader)
  return json as CommentJson
}

/** Reaction counts per target (and whether `reader`'s is among them), for a page of targets at once. */
export async function reactionCounts(db: Db, targets: string[], reader: Address | undefined) {
  const counts = new Map<string, CommentJson['reactions']>()
  if (targets.length === 0) return counts
  const rows = await db
    .select({
      target: reactions.targetId,
      reaction: reactions.reaction,
      count: sql<number>`count(*)::int`,
      mine: reader ? sql<boolean>`bool_or(${reactions.author} = ${reader})` : sql<boolean>`false`,
    })
    .from(reactions)
    .where(and(inArray(reactions.targetId, targets), eq(reactions.on, true)))
    .groupBy(reactions.targetId, reactions.reaction)
    .orderBy(reactions.targetId, reactions.reaction)
  for (const row of rows) {
    const list = counts.get(row.target) ?? []
    list.push({
      reaction: row.reaction as CommentJson['reactions'][number]['reaction'],
      count: row.count,
      mine: row.mine,
    })
    counts.set(row.target, list)
  }
  return counts
}

/** Stored comments as the API answers them: a withdrawn or taken-down comment's text is not shown. */
export async function commentsJson(
  db: Db,
  rows: CommentRow[],
  reader: Address | undefined,
): Promise<CommentJson[]> {
  const counts = await reactionCounts(
    db,
    rows.map((row) => row.id),
    reader,
  )
  const takedowns = await takenDown(db, rows)
  return rows.map((row) => {
    const takedown = takedowns.get(row.id) ?? null
    const withdrawn = row.withdrawnSeq !== null
    return {
      id: row.id as Hex,
      thread: row.threadId as Hex,
      parent: row.parentId as Hex | null,
      depth: row.depth,
      author: row.author as Address,
      body: withdrawn || takedown ? null : row.body,
      mentions: row.mentions as Address[],
      createdAt: row.createdAt,
      editedAt: row.editedAt,
      versions: row.versions,
      versionId: row.versionId as Hex,
      logSeq: row.logSeq,
      withdrawn,
      hidden:
        row.hiddenSeq !== null && (row.hiddenBy !== null || row.hiddenAuto)
          ? {
              by: row.hiddenBy as Address | null,
              reason: row.hiddenReason ?? '',
              at: row.hiddenAt ?? 0,
              logSeq: row.hiddenSeq,
            }
          : null,
      takenDown: takedown,
      reactions: counts.get(row.id) ?? [],
      flags: row.flagCount,
    }
  })
}

/** The operator's takedowns of these comments' latest versions (moderation's columns on their messages). */
async function takenDown(db: Db, rows: CommentRow[]) {
  const result = new Map<string, { reason: string; at: number }>()
  const versionIds = rows.map((row) => row.versionId)
  if (versionIds.length === 0) return result
  const found = await db
    .select({
      id: discussionMessages.id,
      at: discussionMessages.takenDownAt,
      reason: discussionMessages.takedownReason,
    })
    .from(discussionMessages)
    .where(
      and(inArray(discussionMessages.id, versionIds), sql`${discussionMessages.takenDownAt} is not null`),
    )
  const byVersion = new Map(rows.map((row) => [row.versionId, row.id]))
  for (const row of found) {
    const comment = byVersion.get(row.id)
    if (comment) result.set(comment, { reason: row.reason ?? '', at: row.at ?? 0 })
  }
  return result
}
