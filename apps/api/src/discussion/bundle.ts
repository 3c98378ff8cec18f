// A thread's bundle (format guildhall-thread-bundle/1, core's threadBundleSchema): every key-signed message
// of the thread with its log entry, the authorisations and revocations of the keys that signed them, the
// moderators the server names, and the state it publishes, for core's `recountThread`. Read at one log seq
// (the thread's latest activity when it starts), so messages, keys and published state agree.
import { THREAD_BUNDLE_FORMAT, type ThreadBundle, type ThreadBundleMessage } from '@guildhall/core/recount'
import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import type { Hex } from 'viem'
import { logEntry } from '../governance/log.ts'
import {
  comments,
  discussionKeys,
  discussionMessages,
  governanceLog,
  reactions,
} from '../platform/db/schema.ts'
import type { DiscussionDeps } from './deps.ts'
import { requireThread } from './threads.ts'

/** The messages' kinds a bundle lists under `messages` (the topic is its `thread.topic`). */
const LISTED = ['comment', 'withdrawal', 'reaction', 'flag', 'moderation'] as const

export async function threadBundle(deps: DiscussionDeps, id: string): Promise<ThreadBundle> {
  const { db } = deps.governance.database
  const thread = await requireThread(db, id)
  const rows = await db
    .select({ message: discussionMessages, log: governanceLog })
    .from(discussionMessages)
    .innerJoin(governanceLog, eq(governanceLog.seq, discussionMessages.logSeq))
    .where(and(eq(discussionMessages.threadId, id), lte(discussionMessages.logSeq, thread.lastActivitySeq)))
    .orderBy(asc(discussionMessages.logSeq))
  const signers = [...new Set(rows.map((row) => row.message.key))]
  const keyRows = signers.length
    ? await db
        .select({ key: discussionKeys, log: governanceLog })
        .from(discussionKeys)
        .innerJoin(governanceLog, eq(governanceLog.seq, discussionKeys.logSeq))
        .where(inArray(discussionKeys.key, signers))
        .orderBy(asc(discussionKeys.logSeq))
    : []
  const revocationRows = signers.length
    ? await db
        .select({ message: discussionMessages, log: governanceLog })
        .from(discussionMessages)
        .innerJoin(governanceLog, eq(governanceLog.seq, discussionMessages.logSeq))
        .where(
          and(
            eq(discussionMessages.kind, 'key-revocation'),
            inArray(
              discussionMessages.logSeq,
              keyRows.flatMap((row) => (row.key.revokedSeq ? [row.key.revokedSeq] : [])),
            ),
          ),
        )
        .orderBy(asc(discussionMessages.logSeq))
    : []
  const signed = (row: (typeof rows)[number]) => ({
    id: row.message.id as Hex,
    message: row.message.message,
    signature: row.message.signature as Hex,
    log: logEntry(row.log),
  })
  const topicRow = rows.find((row) => row.message.kind === 'topic')
  const messages = rows
    .filter((row) => (LISTED as readonly string[]).includes(row.message.kind))
    .map((row) => ({
      kind: row.message.kind,
      ...signed(row),
      ...(row.message.takenDownAt !== null
        ? { takenDown: { reason: row.message.takedownReason ?? '', at: row.message.takenDownAt } }
        : {}),
    })) as ThreadBundleMessage[]

  const commentRows = await db
    .select()
    .from(comments)
    .where(eq(comments.threadId, id))
    .orderBy(asc(comments.path))
  const reactionRows = await db
    .select()
    .from(reactions)
    .where(
      and(
        inArray(
          reactions.targetId,
          commentRows.map((row) => row.id),
        ),
        eq(reactions.on, true),
      ),
    )
  const counts = new Map<string, Map<string, number>>()
  for (const row of reactionRows) {
    const byReaction = counts.get(row.targetId) ?? new Map<string, number>()
    byReaction.set(row.reaction, (byReaction.get(row.reaction) ?? 0) + 1)
    counts.set(row.targetId, byReaction)
  }
  return {
    format: THREAD_BUNDLE_FORMAT,
    domain: deps.governance.domain,
    thread: {
      id: id as Hex,
      kind: thread.kind,
      ...(topicRow
        ? {
            topic: {
              ...(signed(topicRow) as NonNullable<ThreadBundle['thread']['topic']>),
              ...(topicRow.message.takenDownAt !== null
                ? {
                    takenDown: {
                      reason: topicRow.message.takedownReason ?? '',
                      at: topicRow.message.takenDownAt,
                    },
                  }
                : {}),
            },
          }
        : {}),
    },
    moderators: [...deps.moderators],
    keys: keyRows.map((row) => ({
      id: row.key.id as Hex,
      message: row.key.message as ThreadBundle['keys'][number]['message'],
      signature: row.key.signature as Hex,
      log: logEntry(row.log),
    })),
    revocations: revocationRows.map((row) => signed(row) as ThreadBundle['revocations'][number]),
    messages,
    published: {
      comments: commentRows.map((row) => ({
        id: row.id as Hex,
        versionId: row.versionId as Hex,
        withdrawn: row.withdrawnSeq !== null,
        hidden: row.hiddenSeq !== null && (row.hiddenBy !== null || row.hiddenAuto),
        reactions: [...(counts.get(row.id) ?? new Map<string, number>())].map(([reaction, count]) => ({
          reaction:
            reaction as ThreadBundle['published']['comments'][number]['reactions'][number]['reaction'],
          count,
        })),
      })),
    },
  }
}
