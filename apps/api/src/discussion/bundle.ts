// A thread's bundle (format guildhall-thread-bundle/1, core's threadBundleSchema): every key-signed message
// of the thread with its log entry, the authorisations and revocations of the keys that signed them, the
// moderators the server names, and the state it publishes, for core's `recountThread`. Streamed a page of
// rows at a time (as the result bundle is), up to the thread's latest activity when it starts, so a
// 10,000-comment thread never sits in memory whole.
import { THREAD_BUNDLE_FORMAT, type ThreadBundle } from '@guildhall/core/recount'
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import { logEntry } from '../governance/log.ts'
import {
  commentFlags,
  comments,
  discussionKeys,
  discussionMessages,
  governanceLog,
  reactions,
} from '../platform/db/schema.ts'
import type { DiscussionDeps } from './deps.ts'
import { requireThread, type ThreadRow } from './threads.ts'

/** The messages' kinds a bundle lists under `messages` (the topic is its `thread.topic`). */
const LISTED = ['comment', 'withdrawal', 'reaction', 'flag', 'moderation'] as const
/** Rows a page of the bundle reads at most. */
const PAGE_SIZE = 1000

type MessageRow = { message: typeof discussionMessages.$inferSelect; log: typeof governanceLog.$inferSelect }

const signed = (row: MessageRow) => ({
  id: row.message.id as Hex,
  message: row.message.message,
  signature: row.message.signature as Hex,
  log: logEntry(row.log),
  ...(row.message.takenDownAt !== null
    ? { takenDown: { reason: row.message.takedownReason ?? '', at: row.message.takenDownAt } }
    : {}),
})

/** The thread (404 when there is none), before the stream starts, so a refusal is an answer, not a cut. */
export const bundledThread = (deps: DiscussionDeps, id: string) =>
  requireThread(deps.governance.database.db, id)

/** The bundle's JSON text, a piece at a time. */
export async function* threadBundleJson(deps: DiscussionDeps, thread: ThreadRow): AsyncGenerator<string> {
  const { db } = deps.governance.database
  const id = thread.id
  const upTo = thread.lastActivitySeq
  const ofThread = and(eq(discussionMessages.threadId, id), lte(discussionMessages.logSeq, upTo))
  // A flag comes with the token index's block its flagger's power was read at (its row, by its primary key).
  const messagesFrom = () =>
    db
      .select({ message: discussionMessages, log: governanceLog, powerBlock: commentFlags.powerBlock })
      .from(discussionMessages)
      .innerJoin(governanceLog, eq(governanceLog.seq, discussionMessages.logSeq))
      .leftJoin(
        commentFlags,
        and(
          eq(discussionMessages.kind, 'flag'),
          eq(commentFlags.commentId, sql`${discussionMessages.message} ->> 'comment'`),
          eq(commentFlags.author, discussionMessages.author),
        ),
      )
  const [topicRow] = thread.kind === 'topic' ? await messagesFrom().where(eq(discussionMessages.id, id)) : []
  const signers = (
    await db.selectDistinct({ key: discussionMessages.key }).from(discussionMessages).where(ofThread)
  ).map((row) => row.key)
  const keyRows = signers.length
    ? await db
        .select({ key: discussionKeys, log: governanceLog })
        .from(discussionKeys)
        .innerJoin(governanceLog, eq(governanceLog.seq, discussionKeys.logSeq))
        .where(inArray(discussionKeys.key, signers))
        .orderBy(asc(discussionKeys.logSeq))
    : []
  const revokedSeqs = keyRows.flatMap((row) => (row.key.revokedSeq !== null ? [row.key.revokedSeq] : []))
  const revocationRows = revokedSeqs.length
    ? await messagesFrom()
        .where(inArray(discussionMessages.logSeq, revokedSeqs))
        .orderBy(asc(discussionMessages.logSeq))
    : []
  const head: Omit<ThreadBundle, 'messages' | 'published'> = {
    format: THREAD_BUNDLE_FORMAT,
    domain: deps.governance.domain,
    thread: {
      id: id as Hex,
      kind: thread.kind,
      ...(topicRow ? { topic: signed(topicRow) as NonNullable<ThreadBundle['thread']['topic']> } : {}),
    },
    moderators: [...deps.moderators],
    flagsToHide: deps.flagsToHide,
    keys: keyRows.map((row) => ({
      id: row.key.id as Hex,
      message: row.key.message as ThreadBundle['keys'][number]['message'],
      signature: row.key.signature as Hex,
      log: logEntry(row.log),
    })),
    revocations: revocationRows.map((row) => signed(row) as ThreadBundle['revocations'][number]),
  }
  yield `${JSON.stringify(head).slice(0, -1)},"messages":[`

  let first = true
  const separated = (json: string) => {
    const piece = first ? json : `,${json}`
    first = false
    return piece
  }
  for (let after = 0; ; ) {
    const rows = await messagesFrom()
      .where(
        and(ofThread, gt(discussionMessages.logSeq, after), inArray(discussionMessages.kind, [...LISTED])),
      )
      .orderBy(asc(discussionMessages.logSeq))
      .limit(PAGE_SIZE)
    if (rows.length > 0)
      yield rows
        .map((row) =>
          separated(
            JSON.stringify({
              kind: row.message.kind,
              ...signed(row),
              ...(row.message.kind === 'flag' ? { powerBlock: row.powerBlock } : {}),
            }),
          ),
        )
        .join('')
    const last = rows.at(-1)
    if (!last || rows.length < PAGE_SIZE) break
    after = last.message.logSeq
  }

  yield '],"published":{"comments":['
  first = true
  for (let after = ''; ; ) {
    const rows = await db
      .select()
      .from(comments)
      .where(and(eq(comments.threadId, id), gt(comments.path, after)))
      .orderBy(asc(comments.path))
      .limit(PAGE_SIZE)
    const counts = await reactionCounts(rows.map((row) => row.id))
    const published = rows.map((row) =>
      separated(
        JSON.stringify({
          id: row.id,
          versionId: row.versionId,
          withdrawn: row.withdrawnSeq !== null,
          hidden: row.hiddenSeq !== null && (row.hiddenBy !== null || row.hiddenAuto),
          reactions: [...(counts.get(row.id) ?? new Map<string, number>())].map(([reaction, count]) => ({
            reaction,
            count,
          })),
        }),
      ),
    )
    if (published.length > 0) yield published.join('')
    const last = rows.at(-1)
    if (!last || rows.length < PAGE_SIZE) break
    after = last.path
  }
  yield ']}}'

  /** Reactions on, per comment and kind, for a page of comments. */
  async function reactionCounts(targets: string[]) {
    const counts = new Map<string, Map<string, number>>()
    if (targets.length === 0) return counts
    const rows = await db
      .select({ target: reactions.targetId, reaction: reactions.reaction })
      .from(reactions)
      .where(and(inArray(reactions.targetId, targets), eq(reactions.on, true)))
      .orderBy(asc(reactions.targetId), asc(reactions.reaction))
    for (const row of rows) {
      const byReaction = counts.get(row.target) ?? new Map<string, number>()
      byReaction.set(row.reaction, (byReaction.get(row.reaction) ?? 0) + 1)
      counts.set(row.target, byReaction)
    }
    return counts
  }
}
