// Topics (ADR 053): a free thread under one of the DAO's categories, signed by a discussion key; its id is
// its digest and its thread's. Listed by latest activity; a proposal whose body links the topic becomes
// its proposal (governance/proposals.ts sets `proposal_id`).
import type { TopicJson, TopicListQuery, TopicMessage, TopicSummary } from '@guildhall/core'
import { and, eq, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { governanceLog, proposals, threads, topics } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { cursorCodec, cursorField, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import { checkMayPost, checkMentions, reactionCounts } from './comments.ts'
import type { DiscussionDeps } from './deps.ts'
import { checkKeySigned, recordMessage } from './signed.ts'

const topicCursor = cursorCodec('activity', [cursorField.int8, cursorField.digest])

/** POST /api/discussion/topics */
export async function createTopic(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  { message, signature }: { message: TopicMessage; signature: Hex },
): Promise<TopicJson> {
  const { id, key, author } = await checkKeySigned(deps, signedIn, 'topic', message, signature)
  if (!deps.categories.includes(message.category)) {
    throw new ApiError(
      400,
      'bad_category',
      `A topic's category is one of ${deps.categories.join(', ')}; this one names "${message.category}".`,
    )
  }
  checkMentions(message.body, message.mentions)
  await checkMayPost(deps, author)
  const { db } = deps.governance.database
  await db.transaction(async (tx) => {
    // The thread first, so the message's entry marks its activity.
    await tx.insert(threads).values({ id, kind: 'topic', topicId: id, lastActivitySeq: 0 })
    const seq = await recordMessage(
      tx,
      { kind: 'topic', id, threadId: id, author, key, message, signature },
      deps.governance.observer,
    )
    await tx.insert(topics).values({
      id,
      author,
      category: message.category,
      title: message.title,
      body: message.body,
      mentions: [...message.mentions],
      createdAt: message.timestamp,
      logSeq: seq,
    })
  })
  return topicById(deps, id, signedIn)
}

const summaryColumns = {
  id: topics.id,
  category: topics.category,
  title: topics.title,
  author: topics.author,
  createdAt: topics.createdAt,
  replies: threads.commentCount,
  lastActivitySeq: threads.lastActivitySeq,
  lastActivityAt:
    sql<number>`coalesce((select extract(epoch from ${governanceLog.createdAt})::bigint from ${governanceLog} where ${governanceLog.seq} = ${threads.lastActivitySeq}), ${topics.createdAt})`.mapWith(
      Number,
    ),
  proposalId: topics.proposalId,
  proposalTitle: sql<string | null>`${proposals.message}->>'title'`,
  locked: sql<boolean>`${threads.lockedBy} is not null`,
}

type SummaryRow = {
  id: string
  category: string
  title: string
  author: string
  createdAt: number
  replies: number
  lastActivityAt: number
  proposalId: string | null
  proposalTitle: string | null
  locked: boolean
}

const summary = (row: SummaryRow): TopicSummary => ({
  id: row.id as Hex,
  category: row.category,
  title: row.title,
  author: row.author as Address,
  createdAt: row.createdAt,
  replies: row.replies,
  lastActivityAt: row.lastActivityAt,
  proposal: row.proposalId ? { id: row.proposalId as Hex, title: row.proposalTitle ?? '' } : null,
  locked: row.locked,
})

function summaryQuery(db: Db) {
  return db
    .select(summaryColumns)
    .from(threads)
    .innerJoin(topics, eq(topics.id, threads.id))
    .leftJoin(proposals, eq(proposals.id, topics.proposalId))
}

/** GET /api/discussion/topics: latest activity first, on the threads' activity index. */
export async function listTopics(
  deps: DiscussionDeps,
  query: TopicListQuery,
): Promise<{ items: TopicSummary[]; next: string | null }> {
  const { db } = deps.governance.database
  const cursor = query.cursor === undefined ? undefined : topicCursor.decode(query.cursor)
  const rows = await summaryQuery(db)
    .where(
      and(
        eq(threads.kind, 'topic'),
        query.category === undefined ? undefined : eq(topics.category, query.category),
        cursor === undefined
          ? undefined
          : sql`(${threads.lastActivitySeq}, ${threads.id}) < (${String(cursor[0])}::bigint, ${cursor[1]})`,
      ),
    )
    .orderBy(sql`${threads.lastActivitySeq} desc nulls last`, sql`${threads.id} desc nulls last`)
    .limit(rowsForPage(query.limit))
  const { page, next } = keysetPage(rows, query.limit, (last) =>
    topicCursor.encode([BigInt(last.lastActivitySeq), last.id as Hex]),
  )
  return { items: page.map(summary), next }
}

/** GET /api/discussion/topics/:id */
export async function topicById(
  deps: DiscussionDeps,
  id: string,
  reader: Address | undefined,
): Promise<TopicJson> {
  const { db } = deps.governance.database
  const [row] = await summaryQuery(db).where(eq(topics.id, id))
  if (!row) throw new ApiError(404, 'unknown_topic', 'There is no topic with this id.')
  const [topic] = await db
    .select({ body: topics.body, mentions: topics.mentions, logSeq: topics.logSeq })
    .from(topics)
    .where(eq(topics.id, id))
  const reactions = (await reactionCounts(db, [id], reader)).get(id) ?? []
  return {
    ...summary(row),
    body: topic?.body ?? null,
    mentions: (topic?.mentions ?? []) as Address[],
    reactions,
    logSeq: topic?.logSeq ?? 0,
  }
}
