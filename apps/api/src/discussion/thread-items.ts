// A thread's page in tree order (ADR 053): top-level items (comments and, on a proposal's thread, vote
// cards) by log seq, each comment followed by its replies depth-first. A comment's stored `path` (its
// ancestors' log seqs and its own, zero-padded) is that order; a vote card's path is its vote's log seq. A
// page is a range of the (thread, path) index after the cursor's path, and of the proposal's votes with a
// reason, so it costs a page whatever the thread's size.
import {
  ballotText,
  type DiscussionPageQuery,
  type ProposalKind,
  type ThreadPage,
  type VoteCardJson,
} from '@guildhall/core'
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { ballots, comments, proposals, reactions, votes } from '../platform/db/schema.ts'
import { cursorCodec, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import { commentsJson } from './comments.ts'
import type { DiscussionDeps } from './deps.ts'
import { PATH_PATTERN, pathSegment } from './signed.ts'
import { requireThread, type ThreadRow } from './threads.ts'

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
  // Every reader of the same page shares one read while it runs (the thread's first page in a busy hour);
  // the key names the thread's latest entry, so a reader who asks after a comment is stored reads again,
  // and a vote (a card) ends the sharing of the reads already running, as for the proposal's own reads.
  const page = await deps.governance.reads.shared(
    id,
    `thread-items:${thread.lastActivitySeq}:${query.cursor ?? ''}:${query.limit}`,
    () => readPage(db, thread, query),
  )
  return reader ? withReaderReactions(db, page, reader) : page
}

/** A page as every reader sees it (no reaction marked as the reader's own). */
async function readPage(db: Db, thread: ThreadRow, query: DiscussionPageQuery): Promise<ThreadPage> {
  const [after] = query.cursor === undefined ? [''] : itemsCursor.decode(query.cursor)
  const rows = rowsForPage(query.limit)
  const commentRows = await db
    .select()
    .from(comments)
    .where(and(eq(comments.threadId, thread.id), gt(comments.path, after)))
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
    undefined,
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

/** The shared page with the reader's own reactions marked: one query of theirs on the page's comments. */
async function withReaderReactions(db: Db, page: ThreadPage, reader: Address): Promise<ThreadPage> {
  const ids = page.items.flatMap((item) => (item.type === 'comment' ? [item.comment.id] : []))
  if (ids.length === 0) return page
  const mine = await db
    .select({ target: reactions.targetId, reaction: reactions.reaction })
    .from(reactions)
    .where(and(inArray(reactions.targetId, ids), eq(reactions.author, reader), eq(reactions.on, true)))
  if (mine.length === 0) return page
  const marked = new Set(mine.map((row) => `${row.target}:${row.reaction}`))
  return {
    ...page,
    items: page.items.map((item) =>
      item.type === 'comment'
        ? {
            ...item,
            comment: {
              ...item.comment,
              reactions: item.comment.reactions.map((reaction) => ({
                ...reaction,
                mine: marked.has(`${item.comment.id}:${reaction.reaction}`),
              })),
            },
          }
        : item,
    ),
  }
}

/**
 * The proposal's counting votes with a reason whose log entry comes after `after` (a path: a top-level
 * item's seq leads it), in log order: a range of the index of votes by their reason's log seq.
 */
async function voteCards(db: Db, proposalId: string, after: string, limit: number): Promise<Item[]> {
  const afterSeq = after === '' ? 0 : Number(after.slice(0, 12))
  const rows = await db
    .select({
      voteId: votes.id,
      voter: votes.voter,
      message: votes.message,
      power: votes.power,
      seq: sql<number>`${votes.reasonLogSeq}`.mapWith(Number),
      choices: sql<string[]>`${proposals.message}->'choices'`,
      kind: sql<ProposalKind>`${proposals.message}->>'kind'`,
      earlier: sql<boolean>`exists (select 1 from ${votes} as earlier where earlier.proposal_id = ${votes.proposalId} and earlier.voter = ${votes.voter} and earlier.id <> ${votes.id})`,
    })
    .from(votes)
    .innerJoin(ballots, eq(ballots.voteId, votes.id))
    .innerJoin(proposals, eq(proposals.id, votes.proposalId))
    .where(
      and(
        eq(votes.proposalId, proposalId),
        // A vote card has no replies: one at the cursor's top-level seq was shown already.
        gt(votes.reasonLogSeq, afterSeq),
      ),
    )
    .orderBy(asc(votes.reasonLogSeq))
    .limit(limit)
  return rows
    .map((row) => ({
      type: 'vote' as const,
      path: pathSegment(row.seq),
      vote: {
        voteId: row.voteId as Hex,
        voter: row.voter as Address,
        choice: ballotText(row.kind, row.choices, { ...row.message, power: row.power }),
        power: String(row.power),
        reason: row.message.reason,
        castAt: row.message.timestamp,
        logSeq: row.seq,
        revote: row.earlier,
      },
    }))
    .filter((item) => item.path > after)
}
