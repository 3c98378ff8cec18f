// The discussion bench's bulk seed: members' key authorisations and a thread's comments written straight into
// the database, a transaction each of multi-row inserts, leaving exactly what the API’s key and comment paths
// leave for the same messages arriving in this order: the key rows, the proposal's thread row, every comment
// as its message, its row (tree path and depth), its first version and its hash-chained log entry, and the
// thread's count and latest activity. Ten thousand comments through HTTP would measure the bench's patience; the signatures are not
// checked here (the bench made them), the thread's recount checks them.
import {
  comments,
  commentVersions,
  type Database,
  discussionKeys,
  discussionMessages,
  governanceLog,
  threads,
} from '@guildhall/api/database'
import { LOG_LOCK_KEY, pathSegment } from '@guildhall/api/operations'
import { LOG_GENESIS_HASH, type LogEntry, logEntryHash } from '@guildhall/core'
import { and, desc, eq, sql } from 'drizzle-orm'
import { type Hex, zeroHash } from 'viem'
import type { SignedComment, SignedKey } from './messages.ts'

/** Rows per INSERT: 12 columns × 1000 stays far below PostgreSQL's 65,535 parameters. */
const CHUNK = 1000

/** The log's last entry, and an entry maker that chains each new one to the one before. */
async function logChain(tx: Parameters<Parameters<Database['db']['transaction']>[0]>[0]) {
  // The lock the API appends under: the chain stays linear even if a server is running.
  await tx.execute(sql`select pg_advisory_xact_lock(${LOG_LOCK_KEY})`)
  const [last] = await tx
    .select({ seq: governanceLog.seq, hash: governanceLog.hash })
    .from(governanceLog)
    .orderBy(desc(governanceLog.seq))
    .limit(1)
  let previous = { seq: last?.seq ?? 0, hash: (last?.hash as Hex | undefined) ?? LOG_GENESIS_HASH }
  return (kind: LogEntry['kind'], messageId: Hex, signature: Hex) => {
    const unhashed = { seq: previous.seq + 1, kind, messageId, signature, prevHash: previous.hash }
    const logged = { ...unhashed, hash: logEntryHash(unhashed) }
    previous = logged
    return { ...logged, proposalId: null }
  }
}

/** Stores `keys`, each authorised by its member's wallet, with their log entries. */
export async function seedKeys(database: Database, keys: readonly SignedKey[]): Promise<void> {
  await database.db.transaction(async (tx) => {
    const entry = await logChain(tx)
    for (const key of keys) {
      const logged = entry('discussion-key', key.id, key.signature)
      await tx.insert(governanceLog).values(logged)
      await tx.insert(discussionKeys).values({
        key: key.message.key,
        member: key.message.member,
        scopes: [...key.message.scopes],
        expires: key.message.expires,
        timestamp: key.message.timestamp,
        id: key.id,
        message: key.message,
        signature: key.signature,
        logSeq: logged.seq,
      })
    }
  })
}

/**
 * Stores `thread`: new comments on one proposal's thread, each reply after its parent, each signed by its
 * author's key among `keys` (seeded before).
 */
export async function seedThread(
  database: Database,
  keys: readonly SignedKey[],
  thread: readonly SignedComment[],
): Promise<{ lastSeq: number }> {
  const [first] = thread
  const threadId = first?.message.thread
  if (!threadId || thread.some((c) => c.message.thread !== threadId))
    throw new Error('seedThread: the comments of one thread')
  if (thread.some((c) => c.message.replaces !== zeroHash)) throw new Error('seedThread: new comments only')
  const keyOf = new Map(keys.map((key) => [key.message.member, key.message.key]))
  return database.db.transaction(async (tx) => {
    const entry = await logChain(tx)
    let lastSeq = 0
    // A proposal's thread row is stored by its first write, as the comment path does (its latest activity
    // the proposal's own entry until then).
    const [host] = await tx
      .select({ seq: governanceLog.seq })
      .from(governanceLog)
      .where(and(eq(governanceLog.messageId, threadId), eq(governanceLog.kind, 'proposal')))
    if (!host) throw new Error(`seedThread: no proposal ${threadId}`)
    await tx
      .insert(threads)
      .values({
        id: threadId,
        kind: 'proposal',
        proposalId: threadId,
        topicId: null,
        lastActivitySeq: host.seq,
      })
      .onConflictDoNothing()

    const stored = new Map<Hex, { path: string; depth: number }>()
    for (let start = 0; start < thread.length; start += CHUNK) {
      const chunk = thread.slice(start, start + CHUNK).map((comment) => {
        const logged = entry('comment', comment.id, comment.signature)
        lastSeq = logged.seq
        const parent = comment.message.parent === zeroHash ? null : stored.get(comment.message.parent)
        if (comment.message.parent !== zeroHash && !parent)
          throw new Error(`seedThread: comment ${comment.id} replies to one not seeded before it`)
        // Its ancestors' seqs then its own, as the comment path stores it: the thread's tree order.
        const place = {
          path: parent ? `${parent.path}.${pathSegment(logged.seq)}` : pathSegment(logged.seq),
          depth: parent ? parent.depth + 1 : 0,
        }
        stored.set(comment.id, place)
        return { comment, logged, ...place }
      })
      await tx.insert(governanceLog).values(chunk.map(({ logged }) => logged))
      await tx.insert(discussionMessages).values(
        chunk.map(({ comment, logged }) => {
          const key = keyOf.get(comment.message.author) ?? null
          if (!key) throw new Error(`seedThread: ${comment.message.author} has no key among those given`)
          return {
            id: comment.id,
            kind: 'comment' as const,
            threadId,
            author: comment.message.author,
            key,
            message: comment.message,
            signature: comment.signature,
            logSeq: logged.seq,
          }
        }),
      )
      await tx.insert(comments).values(
        chunk.map(({ comment, logged, path, depth }) => ({
          id: comment.id,
          threadId,
          parentId: comment.message.parent === zeroHash ? null : comment.message.parent,
          depth,
          path,
          author: comment.message.author,
          body: comment.message.body,
          mentions: [...comment.message.mentions],
          versionId: comment.id,
          versions: 1,
          createdAt: comment.message.timestamp,
          logSeq: logged.seq,
        })),
      )
      await tx.insert(commentVersions).values(
        chunk.map(({ comment, logged }) => ({
          versionId: comment.id,
          commentId: comment.id,
          body: comment.message.body,
          mentions: [...comment.message.mentions],
          timestamp: comment.message.timestamp,
          logSeq: logged.seq,
        })),
      )
    }
    await tx
      .update(threads)
      .set({
        commentCount: sql`${threads.commentCount} + ${thread.length}`,
        lastActivitySeq: lastSeq,
      })
      .where(eq(threads.id, threadId))
    return { lastSeq }
  })
}
