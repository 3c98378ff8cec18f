// Threads (ADR 053): one per proposal, made when its first message arrives (a proposal's thread exists as
// soon as the proposal does), and one per topic, made with it. Their answer, and the member's last visit.
import type { ThreadJson } from '@guildhall/core'
import { and, eq, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import type { Db, Tx } from '../platform/db/client.ts'
import { governanceLog, proposals, threads, threadVisits, topics } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { DiscussionDeps } from './deps.ts'
import { postingProblem } from './policy.ts'

export type ThreadRow = typeof threads.$inferSelect

const unknownThread = () =>
  new ApiError(404, 'unknown_thread', 'There is no proposal or topic with this id to discuss.')

/** A thread's row; a proposal's before its first message is its row to be (nothing stored). */
async function findThread(db: Db | Tx, id: string): Promise<ThreadRow | undefined> {
  const [row] = await db.select().from(threads).where(eq(threads.id, id))
  if (row) return row
  const [proposal] = await db
    .select({ seq: governanceLog.seq })
    .from(proposals)
    .innerJoin(governanceLog, eq(governanceLog.messageId, proposals.id))
    .where(eq(proposals.id, id))
  if (!proposal) return undefined
  return {
    id,
    kind: 'proposal',
    proposalId: id,
    topicId: null,
    commentCount: 0,
    lastActivitySeq: proposal.seq,
    lockedBy: null,
    lockedReason: null,
    lockedAt: null,
    lockedSeq: null,
  }
}

export async function requireThread(db: Db | Tx, id: string): Promise<ThreadRow> {
  const thread = await findThread(db, id)
  if (!thread) throw unknownThread()
  return thread
}

/**
 * The thread's row inside a write's transaction, stored if it was a proposal's to be, and locked: the
 * thread's writes take turns from here to the commit (its count, a lock by a moderator).
 */
export async function lockThread(tx: Tx, id: string): Promise<ThreadRow> {
  const thread = await requireThread(tx, id)
  await tx.insert(threads).values(thread).onConflictDoNothing()
  const [locked] = await tx.select().from(threads).where(eq(threads.id, id)).for('update')
  if (!locked) throw unknownThread()
  return locked
}

export const threadLocked = (thread: ThreadRow) =>
  new ApiError(423, 'thread_locked', `This thread is locked: ${thread.lockedReason ?? 'by a moderator'}.`)

/** GET /api/threads/:id: what the thread is, its lock, its count, and whether the reader may post. */
export async function threadJson(
  deps: DiscussionDeps,
  id: string,
  signedIn: Address | undefined,
): Promise<ThreadJson> {
  const { db } = deps.governance.database
  const thread = await requireThread(db, id)
  const proposalId = thread.proposalId
  const [proposal] = proposalId
    ? await db
        .select({ id: proposals.id, title: sql<string>`${proposals.message}->>'title'` })
        .from(proposals)
        .where(eq(proposals.id, proposalId))
    : []
  // A topic's thread names its topic; a proposal's the topic it was made from, if any.
  const [topic] = await db
    .select({ id: topics.id, title: topics.title })
    .from(topics)
    .where(thread.topicId ? eq(topics.id, thread.topicId) : eq(topics.proposalId, id))
    .limit(1)
  const [visit] = signedIn
    ? await db
        .select({ seq: threadVisits.seq })
        .from(threadVisits)
        .where(and(eq(threadVisits.member, signedIn), eq(threadVisits.threadId, id)))
    : []
  const locked =
    thread.lockedBy !== null
      ? {
          by: thread.lockedBy as Address,
          reason: thread.lockedReason ?? '',
          at: thread.lockedAt ?? 0,
          logSeq: thread.lockedSeq ?? 0,
        }
      : null
  const problem = locked ? `This thread is locked: ${locked.reason}.` : await postingProblem(deps, signedIn)
  return {
    id: id as Hex,
    kind: thread.kind,
    proposal: proposal ? { id: proposal.id as Hex, title: proposal.title } : null,
    topic: topic ? { id: topic.id as Hex, title: topic.title } : null,
    locked,
    commentCount: thread.commentCount,
    lastSeenSeq: visit?.seq ?? null,
    mayPost: problem === null,
    mayPostReason: problem,
  }
}

/** POST /api/threads/:id/seen: the member's last visit moves forward only. */
export async function markSeen(
  deps: DiscussionDeps,
  id: string,
  member: Address,
  seq: number,
): Promise<void> {
  const { db } = deps.governance.database
  await requireThread(db, id)
  await db
    .insert(threadVisits)
    .values({ member, threadId: id, seq })
    .onConflictDoUpdate({
      target: [threadVisits.member, threadVisits.threadId],
      set: { seq: sql`greatest(${threadVisits.seq}, excluded.seq)` },
    })
}
