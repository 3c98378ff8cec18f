// A thread's page in tree order (ADR 053): top-level items (comments and, on a proposal's thread, vote
// cards) by log seq, each comment followed by its replies depth-first. A comment's stored `path` (its
// ancestors' log seqs and its own, zero-padded) is that order; a vote card's path is its vote's log seq. A
// page is a range of the (thread, path) index after the cursor's path, and of the proposal's votes with a
// reason, so it costs a page whatever the thread's size.
import type { DiscussionPageQuery, ThreadPage, VoteCardJson } from '@guildhall/core'
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { ballots, comments, governanceLog, proposals, votes } from '../platform/db/schema.ts'
import { cursorCodec, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import { commentsJson } from './comments.ts'
import type { DiscussionDeps } from './deps.ts'
import { PATH_PATTERN, pathSegment } from './signed.ts'
import { requireThread } from './threads.ts'

const pathField = { read: (text: string) => (PATH_PATTERN.test(text) ? text : undefined) }
const itemsCursor = cursorCodec('path', [pathField])

type Item = { path: string } & (
  | { type: 'comment'; row: typeof comments.$inferSelect }
  | { type: 'vote'; vote: VoteCardJson }
)

export async function threadItems(
  deps: DiscussionDeps,
  id: string,
  query: DiscussionPageQuery,
  reader: Address | undefined,
): Promise<ThreadPage> {
  const { db } = deps.governance.database
  const thread = await requireThread(db, id)
  const [after] = query.cursor === undefined ? [''] : itemsCursor.decode(query.cursor)
  const rows = rowsForPage(query.limit)
  const commentRows = await db
    .select()
    .from(comments)
    .where(and(eq(comments.threadId, id), gt(comments.path, after)))
    .orderBy(asc(comments.path))
    .limit(rows)
  const cards = thread.proposalId ? await voteCards(db, thread.proposalId, after, rows) : []
  const merged: Item[] = [
    ...commentRows.map((row) => ({ type: 'comment' as const, path: row.path, row })),
    ...cards,
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const { page, next } = keysetPage(merged.slice(0, rows), query.limit, (last) =>
    itemsCursor.encode([last.path]),
  )
  const json = await commentsJson(
    db,
    page.flatMap((item) => (item.type === 'comment' ? [item.row] : [])),
    reader,
  )
  const byId = new Map(json.map((comment) => [comment.id, comment]))
  return {
    items: page.map((item) =>
      item.type === 'comment'
        ? { type: 'comment' as const, comment: byId.get(item.row.id as Hex) as (typeof json)[number] }
        : { type: 'vote' as const, vote: item.vote },
    ),
    next,
  }
}

/**
 * The proposal's counting votes with a reason whose log entry comes after `after` (a path: a top-level
 * item's seq leads it), in log order: from the partial index of votes with a reason, to their entries.
 */
async function voteCards(db: Db, proposalId: string, after: string, limit: number): Promise<Item[]> {
  const afterSeq = after === '' ? 0 : Number(after.slice(0, 12))
  const rows = await db
    .select({
      voteId: votes.id,
      voter: votes.voter,
      message: votes.message,
      power: votes.power,
      seq: governanceLog.seq,
      choices: sql<string[]>`${proposals.message}->'choices'`,
      earlier: sql<boolean>`exists (select 1 from ${votes} as earlier where earlier.proposal_id = ${votes.proposalId} and earlier.voter = ${votes.voter} and earlier.id <> ${votes.id})`,
    })
    .from(votes)
    .innerJoin(ballots, eq(ballots.voteId, votes.id))
    .innerJoin(governanceLog, eq(governanceLog.messageId, votes.id))
    .innerJoin(proposals, eq(proposals.id, votes.proposalId))
    .where(
      and(
        eq(votes.proposalId, proposalId),
        sql`${votes.message}->>'reason' <> ''`,
        // A vote card has no replies: one at the cursor's top-level seq was shown already.
        gt(governanceLog.seq, afterSeq),
      ),
    )
    .orderBy(asc(governanceLog.seq))
    .limit(limit)
  return rows
    .map((row) => ({
      type: 'vote' as const,
      path: pathSegment(row.seq),
      vote: {
        voteId: row.voteId as Hex,
        voter: row.voter as Address,
        choice: row.message.choices.map((choice) => row.choices[choice - 1] ?? `Choice ${choice}`).join(', '),
        power: String(row.power),
        reason: row.message.reason,
        castAt: row.message.timestamp,
        logSeq: row.seq,
        revote: row.earlier,
      },
    }))
    .filter((item) => item.path > after)
}
