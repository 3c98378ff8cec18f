// A member's page (ADR 032): their directory row, name and statement, and four lists, each read on an index
// in its own order so a member with thousands of votes costs a page like a member with one: their ballots
// (ballots_by_voter_idx), the proposals they wrote (proposals_by_author_idx), their delegators
// (member_stats_by_delegate_idx) and their voting power over time, sampled in SQL to a bounded series.
import type { MemberPageQuery, NameAnswer, PowerHistoryQuery } from '@guildhall/core'
import { and, eq, gt, ne, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import { proposalPage } from '../governance/proposal-list.ts'
import type { Db } from '../platform/db/client.ts'
import { ballots, memberStats, nameProfiles, proposals, votes } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { cursorCodec, cursorField, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import type { TokenIndex } from '../token/token-index.ts'
import { emptyRow, type MemberFigures, memberFigures } from './member-list.ts'

/**
 * The address whose forward-checked primary name is `name` (normalized), or a 404. Should two rows still
 * carry it (the name moved and the old row has not expired yet), the latest lookup wins.
 */
export async function addressNamed(db: Db, name: string): Promise<Address> {
  const [row] = await db
    .select({ address: nameProfiles.address })
    .from(nameProfiles)
    // lower(): the directory's name index (normalized names are lower case already).
    .where(sql`lower(${nameProfiles.name}) = ${name}`)
    .orderBy(sql`${nameProfiles.resolvedAt} desc nulls last`)
    .limit(1)
  if (!row) throw new ApiError(404, 'unknown_member', `No member is named ${name}.`)
  return row.address as Address
}

export type MemberProfileAnswer = MemberFigures & {
  listed: boolean
  totalVotes: bigint
  blockNumber: number | null
}

/**
 * The member's figures at the indexed block. An address the directory does not list (no tokens, voting
 * power, delegators or vote: ADR 037) answers its figures, zeros when it has no row, with `listed: false`,
 * not a 404: any address may become a member, be delegated to or publish a statement, and its page says so.
 */
export async function memberProfile(
  db: Db,
  tokenIndex: TokenIndex,
  address: Address,
): Promise<MemberProfileAnswer> {
  const [[row], totals] = await Promise.all([
    db.select().from(memberStats).where(eq(memberStats.address, address)),
    tokenIndex.totalVotes(),
  ])
  const totalVotes = totals?.totalVotes ?? 0n
  const figures = memberFigures(row ?? emptyRow(address), totalVotes)
  return { ...figures, listed: row?.listed ?? false, totalVotes, blockNumber: totals?.blockNumber ?? null }
}

/** A name answer for an address when the server keeps no names. */
export const noName = (address: Address): NameAnswer => ({
  address,
  name: null,
  avatarUrl: null,
  pending: false,
})

/** The last ballot's timestamp and proposal, each in its column's range. */
const voteCursor = cursorCodec(null, [cursorField.int8, cursorField.digest])

/** The member's counting votes, newest first (the proposal breaking ties), with each proposal's title and choices. */
export async function memberVotes(db: Db, voter: Address, query: MemberPageQuery) {
  const cursor = query.cursor === undefined ? undefined : voteCursor.decode(query.cursor)
  const rows = await db
    .select({
      id: ballots.voteId,
      proposalId: ballots.proposalId,
      timestamp: ballots.timestamp,
      power: ballots.power,
      choices: sql<number[]>`${votes.message}->'choices'`,
      reason: sql<string>`${votes.message}->>'reason'`,
      title: sql<string>`${proposals.message}->>'title'`,
      proposalChoices: sql<string[]>`${proposals.message}->'choices'`,
    })
    .from(ballots)
    .innerJoin(votes, eq(votes.id, ballots.voteId))
    .innerJoin(proposals, eq(proposals.id, ballots.proposalId))
    .where(
      and(
        eq(ballots.voter, voter),
        cursor === undefined
          ? undefined
          : sql`(${ballots.timestamp}, ${ballots.proposalId}) < (${String(cursor[0])}::bigint, ${cursor[1]})`,
      ),
    )
    // As the index is built (nulls last), so the page is read from it in order, not sorted.
    .orderBy(sql`${ballots.timestamp} desc nulls last`, sql`${ballots.proposalId} desc nulls last`)
    .limit(rowsForPage(query.limit))
  const { page, next } = keysetPage(rows, query.limit, (last) =>
    voteCursor.encode([BigInt(last.timestamp), last.proposalId as Hex]),
  )
  return {
    votes: page.map((row) => ({
      id: row.id,
      proposalId: row.proposalId,
      proposalTitle: row.title,
      choices: row.choices,
      choiceLabels: row.choices.map((choice) => row.proposalChoices[choice - 1] ?? `Choice ${choice}`),
      power: row.power,
      reason: row.reason,
      timestamp: row.timestamp,
    })),
    next,
  }
}

/** The proposals the member wrote, latest start first, as the proposal list pages them. */
export function memberProposals(db: Db, author: Address, now: number, query: MemberPageQuery) {
  return proposalPage(db, now, eq(proposals.author, author), query)
}

/** The last delegator's tokens and address, each in its column's range. */
const delegatorCursor = cursorCodec(null, [cursorField.uint256, cursorField.address])

/**
 * Accounts holding tokens that delegate to the member, most tokens first (the address breaking ties): the
 * accounts `delegators` counts.
 */
export async function memberDelegators(db: Db, delegate: Address, query: MemberPageQuery) {
  const t = memberStats
  const cursor = query.cursor === undefined ? undefined : delegatorCursor.decode(query.cursor)
  const rows = await db
    .select({ address: t.address, balance: t.balance })
    .from(t)
    .where(
      and(
        eq(t.delegate, delegate),
        ne(t.address, delegate),
        gt(t.balance, 0n),
        cursor === undefined
          ? undefined
          : sql`(${t.balance}, ${t.address}) < (${String(cursor[0])}::numeric, ${cursor[1]})`,
      ),
    )
    .orderBy(sql`${t.balance} desc nulls last`, sql`${t.address} desc nulls last`)
    .limit(rowsForPage(query.limit))
  const { page, next } = keysetPage(rows, query.limit, (last) =>
    delegatorCursor.encode([last.balance, last.address as Address]),
  )
  return { delegators: page, next }
}

/**
 * The member's voting power after each block it changed in, oldest first and dated, from the token index's
 * vote checkpoints. With more changes than `points`, the blocks from the first change to the last are cut into
 * `points` equal spans and each span keeps its last change, so the answer is bounded and ends at the
 * member's current votes. Reading it costs a page, not the member's history: the first `points + 1`
 * checkpoints, or one index seek per span on the primary key (delegate, block); only the count of changes
 * walks the member's keys (an index-only count).
 */
export async function powerHistory(
  db: Db,
  tokenIndex: TokenIndex,
  delegate: Address,
  { points }: PowerHistoryQuery,
) {
  type Row = { block: string | number; votes: string; block_time: string | number }
  const toPoints = (rows: Row[]) =>
    rows.map((row) => ({ block: Number(row.block), votes: BigInt(row.votes), time: Number(row.block_time) }))
  const [head, totals] = await Promise.all([
    db.execute<Row>(sql`
      select block, votes::text as votes, block_time from token_vote_checkpoints
      where delegate = ${delegate} order by block limit ${points + 1}`),
    tokenIndex.totalVotes(),
  ])
  const blockNumber = totals?.blockNumber ?? null
  const blockTime = totals?.blockTime ?? null
  if (head.rows.length <= points) {
    return { points: toPoints(head.rows), changes: head.rows.length, blockNumber, blockTime }
  }
  const [sampled, counted] = await Promise.all([
    db.execute<Row>(sql`
      with bounds as (
        select
          (select block from token_vote_checkpoints where delegate = ${delegate} order by block limit 1) as first,
          (select block from token_vote_checkpoints where delegate = ${delegate} order by block desc limit 1) as last),
      spans as (
        select first, ceil((last - first + 1)::numeric / ${points})::bigint as width from bounds)
      select c.block, c.votes::text as votes, c.block_time
      from spans cross join generate_series(0, ${points - 1}) as span(i)
      cross join lateral (
        select block, votes, block_time from token_vote_checkpoints
        where delegate = ${delegate}
          and block >= spans.first + span.i * spans.width and block < spans.first + (span.i + 1) * spans.width
        order by block desc limit 1) c
      order by c.block`),
    db.execute<{ changes: string | number }>(sql`
      select count(*) as changes from token_vote_checkpoints where delegate = ${delegate}`),
  ])
  return {
    points: toPoints(sampled.rows),
    changes: Number(counted.rows[0]?.changes ?? 0),
    blockNumber,
    blockTime,
  }
}
