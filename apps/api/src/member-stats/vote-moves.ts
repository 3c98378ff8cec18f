// The members directory's rows as the vote path moves them (ADR 030; the token index moves the rest,
// member-stats/token-moves.ts; signing in adds none, ADR 037), and the operator's proof that every row equals a
// recount.
import { eq, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../platform/db/client.ts'
import { ballots, memberStats } from '../platform/db/schema.ts'
import { MEMBER_STATS_RECOUNT } from './token-moves.ts'

/**
 * The statement that records the votes a batch stores, one move per voter: each first ballot on a proposal
 * counts one more vote cast (a re-vote does not), and the latest vote's time moves. In address order, so two
 * batches (or a batch and the token index) lock the rows they share in the same order. None for no votes.
 */
export function recordVotesStatement(
  moves: readonly { voter: string; timestamp: number; firstBallot: boolean }[],
): SQL | undefined {
  const byVoter = new Map<string, { address: string; votesCast: number; lastVoteAt: number }>()
  for (const { voter, timestamp, firstBallot } of moves) {
    const row = byVoter.get(voter) ?? { address: voter, votesCast: 0, lastVoteAt: timestamp }
    row.votesCast += firstBallot ? 1 : 0
    row.lastVoteAt = Math.max(row.lastVoteAt, timestamp)
    byVoter.set(voter, row)
  }
  if (byVoter.size === 0) return undefined
  const rows = [...byVoter.values()]
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))
    .map(({ address, votesCast, lastVoteAt }) => ({
      address,
      votes_cast: votesCast,
      last_vote_at: lastVoteAt,
    }))
  // The function scan yields the rows in the array's order, so they are inserted (and locked) in it.
  return sql`insert into ${memberStats} (address, votes_cast, last_vote_at)
    select address, votes_cast, last_vote_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(address text, votes_cast integer, last_vote_at bigint)
    on conflict (address) do update set votes_cast = ${memberStats}.votes_cast + excluded.votes_cast,
      last_vote_at = greatest(${memberStats}.last_vote_at, excluded.last_vote_at)`
}

/** Every ballot of a proposal written in bulk (the scale bench's seed) counted as `recordVotesStatement` counts them. */
export async function recordBallots(tx: Tx, proposalId: string) {
  await tx.execute(sql`
    insert into member_stats (address, votes_cast, last_vote_at)
    select voter, count(*), max("timestamp") from ${ballots} where ${eq(ballots.proposalId, proposalId)} group by voter
    on conflict (address) do update set votes_cast = member_stats.votes_cast + excluded.votes_cast,
      last_vote_at = greatest(member_stats.last_vote_at, excluded.last_vote_at)`)
}

type Figures = {
  address: string
  votes: string
  balance: string
  delegate: string | null
  delegators: number
  votes_cast: number
  eligible_proposals: number
  last_vote_at: string | null
}

/** A member whose stored figures differ from a recount (the row absent on one side: all zero there). */
export type MemberStatsMismatch = { address: string; stored: Figures | null; recounted: Figures | null }

const zero = (row: Figures) =>
  row.votes === '0' &&
  row.balance === '0' &&
  row.delegate === null &&
  row.delegators === 0 &&
  row.votes_cast === 0 &&
  row.eligible_proposals === 0 &&
  row.last_vote_at === null

/**
 * Recounts every member's figures from the token index and the ballots and compares them with the stored
 * rows (`npm run tallies:check`). A stored row the recount lacks must be all zero: an account only a range
 * that a rewind undid had touched.
 */
export async function checkMemberStats(
  db: Db,
): Promise<{ members: number; mismatches: MemberStatsMismatch[] }> {
  const columns = sql`address, votes::text as votes, balance::text as balance, delegate, delegators::integer as delegators, votes_cast::integer as votes_cast, eligible_proposals::integer as eligible_proposals, last_vote_at::text as last_vote_at`
  const [stored, recounted] = await Promise.all([
    db.execute<Figures>(sql`select ${columns} from ${memberStats}`),
    db.execute<Figures>(sql`select ${columns} from (${MEMBER_STATS_RECOUNT}) r`),
  ])
  const expected = new Map(recounted.rows.map((row) => [row.address, row]))
  const mismatches: MemberStatsMismatch[] = []
  for (const row of stored.rows) {
    const other = expected.get(row.address) ?? null
    expected.delete(row.address)
    if (other ? JSON.stringify(row) !== JSON.stringify(other) : !zero(row))
      mismatches.push({ address: row.address, stored: row, recounted: other })
  }
  for (const row of expected.values()) mismatches.push({ address: row.address, stored: null, recounted: row })
  return { members: stored.rows.length, mismatches }
}
