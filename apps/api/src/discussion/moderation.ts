// Moderation (ADR 054): a moderator's signed hide, unhide, lock and unlock; members' flags, which hide a
// comment once enough members with power flagged it, until a moderator decides; the public log of every
// action. Each write is one transaction with its log entry, through the discussion's own checks.
import type {
  CommentJson,
  DiscussionPageQuery,
  FlagMessage,
  ModerationActionJson,
  ModerationActionList,
  ModerationMessage,
} from '@guildhall/core'
import { and, count, desc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { Address, Hex } from 'viem'
import { seconds } from '../governance/deps.ts'
import type { Tx } from '../platform/db/client.ts'
import {
  commentFlags,
  comments,
  moderationActions,
  proposals,
  threads,
  topics,
} from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { cursorCodec, cursorField, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import { commentById, unknownComment } from './comments.ts'
import type { DiscussionDeps } from './deps.ts'
import { stakeOf } from './policy.ts'
import { checkKeySigned, recordMessage, requireAuthor } from './signed.ts'
import { lockThread } from './threads.ts'

type ActionRow = typeof moderationActions.$inferInsert

const actionJson = (row: ActionRow): ModerationActionJson => ({
  id: row.id as Hex,
  moderator: row.moderator as Address | null,
  kind: row.kind,
  target: row.target as Hex,
  thread: row.threadId as Hex,
  reason: row.reason,
  at: row.at,
  logSeq: row.logSeq,
})

/** A comment's row inside a write's transaction, held until it commits. */
async function commentForUpdate(tx: Tx, id: string) {
  const [row] = await tx.select().from(comments).where(eq(comments.id, id)).for('update')
  if (!row) throw unknownComment()
  return row
}

/** A comment's thread, read before the transaction: writes lock the thread first, then the comment. */
async function commentThread(deps: DiscussionDeps, id: string): Promise<string> {
  const [row] = await deps.governance.database.db
    .select({ threadId: comments.threadId })
    .from(comments)
    .where(eq(comments.id, id))
  if (!row) throw unknownComment()
  return row.threadId
}

/**
 * A moderator's action (POST /api/moderation): signed with their key of scope `moderate` by a signed-in
 * address in MODERATORS (else 403 `not_moderator`, nothing stored); an action that would change nothing is
 * a 409 with what the comment or thread already is.
 */
export async function moderate(
  deps: DiscussionDeps,
  request: FastifyRequest,
  { message, signature }: { message: ModerationMessage; signature: Hex },
): Promise<ModerationActionJson> {
  const signedIn = await deps.signedIn(request)
  requireAuthor(signedIn, message.moderator)
  if (!deps.moderators.includes(message.moderator)) {
    throw new ApiError(
      403,
      'not_moderator',
      `${message.moderator} is not one of this DAO's moderators, so it may not ${message.action}.`,
    )
  }
  const { id, key } = await checkKeySigned(deps, signedIn, 'moderation', message, signature)
  const onComment = message.action === 'hide' || message.action === 'unhide'
  const threadId = onComment ? await commentThread(deps, message.target) : message.target
  return deps.governance.database.db.transaction(async (tx) => {
    const thread = await lockThread(tx, threadId)
    const comment = onComment ? await commentForUpdate(tx, message.target) : null
    if (message.action === 'hide' && comment?.hiddenBy) {
      throw new ApiError(409, 'already_hidden', `This comment is already hidden by ${comment.hiddenBy}.`)
    }
    if (message.action === 'unhide' && comment?.hiddenSeq === null) {
      throw new ApiError(409, 'not_hidden', 'This comment is not hidden.')
    }
    if (message.action === 'lock' && thread.lockedBy !== null) {
      throw new ApiError(409, 'already_locked', `This thread is already locked by ${thread.lockedBy}.`)
    }
    if (message.action === 'unlock' && thread.lockedBy === null) {
      throw new ApiError(409, 'not_locked', 'This thread is not locked.')
    }
    const logSeq = await recordMessage(
      tx,
      {
        kind: 'moderation',
        id,
        threadId: thread.id as Hex,
        author: message.moderator,
        key,
        message,
        signature,
      },
      deps.governance.observer,
    )
    const at = message.timestamp
    if (message.action === 'hide' || message.action === 'unhide') {
      const hide = message.action === 'hide'
      // A moderator's hide of a comment hidden by flags makes it theirs; either decision ends the flags' say.
      await tx
        .update(comments)
        .set({
          hiddenBy: hide ? message.moderator : null,
          hiddenReason: hide ? message.reason : null,
          hiddenAt: hide ? at : null,
          hiddenSeq: hide ? logSeq : null,
          hiddenAuto: false,
        })
        .where(eq(comments.id, message.target))
    } else {
      const lock = message.action === 'lock'
      await tx
        .update(threads)
        .set({
          lockedBy: lock ? message.moderator : null,
          lockedReason: lock ? message.reason : null,
          lockedAt: lock ? at : null,
          lockedSeq: lock ? logSeq : null,
        })
        .where(eq(threads.id, thread.id))
    }
    const row: ActionRow = {
      logSeq,
      id,
      kind: message.action,
      moderator: message.moderator,
      target: message.target,
      threadId: thread.id,
      reason: message.reason,
      at,
    }
    await tx.insert(moderationActions).values(row)
    return actionJson(row)
  })
}

/**
 * A member's flag (POST /api/flags), once per comment and member, signed with their key of scope `flag`.
 * It counts toward hiding only when the flagger has voting power or tokens at the token index's latest
 * block (the posting policy's lookup, stored with the flag and that block, which the thread bundle carries
 * for the recount to read again from the chain); the flag that brings the counting flags to
 * DISCUSSION_FLAGS_TO_HIDE hides the comment, unless a moderator has already decided on it.
 */
export async function flagComment(
  deps: DiscussionDeps,
  request: FastifyRequest,
  { message, signature }: { message: FlagMessage; signature: Hex },
): Promise<CommentJson> {
  const signedIn = await deps.signedIn(request)
  const { id, key, author } = await checkKeySigned(deps, signedIn, 'flag', message, signature)
  const threadId = await commentThread(deps, message.comment)
  const { votes, balance, block } = await stakeOf(deps.governance.database.db, author)
  // Its voting power, else its tokens: either above zero makes the flag count.
  const power = votes > 0n ? votes : balance
  const at = seconds(deps.governance.now())
  await deps.governance.database.db.transaction(async (tx) => {
    await lockThread(tx, threadId)
    const comment = await commentForUpdate(tx, message.comment)
    const [earlier] = await tx
      .select({ logSeq: commentFlags.logSeq })
      .from(commentFlags)
      .where(and(eq(commentFlags.commentId, comment.id), eq(commentFlags.author, author)))
    if (earlier) throw new ApiError(409, 'already_flagged', 'You have already flagged this comment.')
    const logSeq = await recordMessage(
      tx,
      {
        kind: 'flag',
        id,
        threadId: threadId as Hex,
        author,
        key,
        message,
        signature,
      },
      deps.governance.observer,
    )
    await tx
      .insert(commentFlags)
      .values({ commentId: comment.id, author, reason: message.reason, power, powerBlock: block, logSeq })
    await tx
      .update(comments)
      .set({ flagCount: sql`${comments.flagCount} + 1` })
      .where(eq(comments.id, comment.id))
    if (comment.hiddenSeq !== null || (await moderatorDecided(tx, comment.id))) return
    const [counting] = await tx
      .select({ n: count() })
      .from(commentFlags)
      .where(and(eq(commentFlags.commentId, comment.id), gt(commentFlags.power, 0n)))
    const flags = counting?.n ?? 0
    if (flags < deps.flagsToHide) return
    const reason = `Flagged by ${flags} members with voting power or tokens`
    await tx
      .update(comments)
      .set({ hiddenBy: null, hiddenReason: reason, hiddenAt: at, hiddenSeq: logSeq, hiddenAuto: true })
      .where(eq(comments.id, comment.id))
    await tx.insert(moderationActions).values({
      logSeq,
      id,
      kind: 'auto-hide',
      moderator: null,
      target: comment.id,
      threadId,
      reason,
      at,
    })
  })
  return commentById(deps, message.comment, author)
}

/** Whether a moderator has hidden or unhidden the comment: then flags no longer hide it. */
async function moderatorDecided(tx: Tx, commentId: string): Promise<boolean> {
  const [decided] = await tx
    .select({ logSeq: moderationActions.logSeq })
    .from(moderationActions)
    .where(and(eq(moderationActions.target, commentId), isNotNull(moderationActions.moderator)))
    .limit(1)
  return decided !== undefined
}

/** The log's pages: newest first on the primary key, the log seq. */
const moderationCursor = cursorCodec(null, [cursorField.int8])

/** GET /api/moderation: every action, newest first, with its thread's kind and title for a link. */
export async function listModeration(
  deps: DiscussionDeps,
  query: DiscussionPageQuery,
): Promise<ModerationActionList> {
  const before = query.cursor === undefined ? null : moderationCursor.decode(query.cursor)[0]
  const rows = await deps.governance.database.db
    .select({
      action: moderationActions,
      threadKind: threads.kind,
      threadTitle: sql<string>`coalesce(${topics.title}, ${proposals.message}->>'title', '')`,
    })
    .from(moderationActions)
    .innerJoin(threads, eq(threads.id, moderationActions.threadId))
    .leftJoin(proposals, eq(proposals.id, threads.proposalId))
    .leftJoin(topics, eq(topics.id, threads.topicId))
    .where(before === null ? undefined : lt(moderationActions.logSeq, Number(before)))
    .orderBy(desc(moderationActions.logSeq))
    .limit(rowsForPage(query.limit))
  const { page, next } = keysetPage(rows, query.limit, (last) =>
    moderationCursor.encode([BigInt(last.action.logSeq)]),
  )
  return {
    items: page.map((row) => ({
      ...actionJson(row.action),
      threadKind: row.threadKind,
      threadTitle: row.threadTitle,
    })),
    next,
  }
}
