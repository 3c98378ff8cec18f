// Ranked-choice results (ADR 060). The rounds of instant runoff cannot move per vote as the other kinds' totals
// do (a re-vote may change who is eliminated in every round), so they are settled from every ballot's ranking,
// read in one consistent snapshot, and stored in one row (`ranked_results`) that a read takes as it is. While
// voting is open a stale row is settled again at most once per RESETTLE_INTERVAL_MS (or twice the last
// settle's duration) per proposal across the cluster (a conditional UPDATE claims the turn); once voting is
// closed, the first read after the last vote settles it, once. The row only moves forward: a settle stores its
// result only if it stands at a later log entry (`as_of_seq`) than the stored one.
import {
  type RankedBallot,
  rankedRounds,
  settleTally,
  type Tally,
  type TallyRules,
  tallyFromJson,
  tallyToJson,
} from '@guildhall/core'
import { and, asc, eq, gt, lt, lte, or } from 'drizzle-orm'
import { PgliteDatabase } from 'drizzle-orm/pglite'
import type { Db, Tx } from '../platform/db/client.ts'
import { ballots, proposalTallies, rankedResults, type StoredProposal } from '../platform/db/schema.ts'
import type { GovernanceDeps } from './deps.ts'
import { tallyRules, totalsOf } from './tallies.ts'

/** A stale result is settled again at most this often per proposal while voting is open. */
export const RESETTLE_INTERVAL_MS = 2_000
/**
 * …and never more often than this many times the last settle's duration on this server, so settles take at
 * most a third of the database's time however large the proposal (on PGlite, of the server's own thread).
 */
const RESETTLE_INTERVAL_PER_SETTLE = 2
/** Ballots a settle reads per query: its memory grows by the rankings, its queries stay a page. */
const SETTLE_PAGE = 5_000

/** A ranked-choice result and the log entry it stands at (every vote up to it counted in). */
export type RankedResult = { result: Tally; asOfSeq: number }

/**
 * Settles the proposal's rounds from its ballots, reading the tally row and every ballot's ranking as of one
 * log entry (`readBallots`), then stores the row unless a newer one is there. `settledAt` is the server's
 * clock (the re-settle interval counts from it).
 */
export async function settleRankedResult(
  db: Db,
  proposalId: string,
  rules: TallyRules,
  settledAt: Date = new Date(),
): Promise<RankedResult> {
  const read = await readBallots(db, proposalId)
  const settled = {
    result: settleTally(rules, read.totals, rankedRounds(rules.choiceCount, read.ballots)),
    asOfSeq: read.asOfSeq,
  }
  await storeRankedResult(db, proposalId, settled, settledAt)
  return settled
}

/**
 * The tally row and every ballot's ranking in one consistent snapshot. PostgreSQL: a read-only REPEATABLE
 * READ transaction, which blocks no one. PGlite has one connection, and a transaction would hold it for the
 * whole read (a second at 100,000 ballots) while every request waits: there the pages are read between other
 * queries, and the read stands if the tally row's `last_seq` did not move meanwhile (every vote that changes
 * a ballot moves it in the same transaction, and PGlite runs transactions whole, never between two of these
 * queries); else it is read once more, then in a transaction.
 */
async function readBallots(db: Db, proposalId: string) {
  if (isPglite(db)) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const read = await readPages(db, proposalId)
      const [after] = await db
        .select({ lastSeq: proposalTallies.lastSeq })
        .from(proposalTallies)
        .where(eq(proposalTallies.proposalId, proposalId))
      if (after?.lastSeq === read.asOfSeq) return read
    }
  }
  return db.transaction((tx) => readPages(tx, proposalId), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  })
}

const isPglite = (db: Db): boolean => db instanceof PgliteDatabase

async function readPages(db: Db | Tx, proposalId: string) {
  const [row] = await db.select().from(proposalTallies).where(eq(proposalTallies.proposalId, proposalId))
  if (!row) throw new Error(`Proposal ${proposalId} has no tally row`)
  const read: RankedBallot[] = []
  let after: string | null = null
  for (;;) {
    const page = await db
      .select({ voter: ballots.voter, ranking: ballots.ranking, power: ballots.power })
      .from(ballots)
      .where(and(eq(ballots.proposalId, proposalId), after === null ? undefined : gt(ballots.voter, after)))
      .orderBy(asc(ballots.proposalId), asc(ballots.voter))
      .limit(SETTLE_PAGE)
    for (const ballot of page) {
      if (!ballot.ranking) throw new Error(`The ballot of ${ballot.voter} on ${proposalId} has no ranking`)
      read.push({ ranking: ballot.ranking, power: ballot.power })
    }
    const last = page.at(-1)
    if (!last || page.length < SETTLE_PAGE) break
    after = last.voter
  }
  return { totals: totalsOf(row), asOfSeq: row.lastSeq, ballots: read }
}

/** Stores a settled result unless the stored one stands at the same or a later log entry: the row only moves forward. */
export async function storeRankedResult(
  db: Db,
  proposalId: string,
  { result, asOfSeq }: RankedResult,
  settledAt: Date,
) {
  const stored = { asOfSeq, result: tallyToJson(result), settledAt }
  await db
    .insert(rankedResults)
    .values({ proposalId, ...stored })
    .onConflictDoUpdate({
      target: rankedResults.proposalId,
      set: stored,
      // A slower settle of an older snapshot, finishing last, never replaces a newer result.
      setWhere: lt(rankedResults.asOfSeq, asOfSeq),
    })
}

/**
 * The result of a ranked-choice proposal as a read gives it: the stored row (one row, whatever the number of
 * ballots), settled first when there is none, and settled again when stale (votes since) if it is this
 * server's turn: while voting is open at most once per RESETTLE_INTERVAL_MS per proposal (or twice the last
 * settle's duration, when longer), after the end at once. Concurrent readers on this server share one
 * settle; a reader that finds one running gets the stored row, so reads while voting is open are at most the
 * interval (and a settle) behind.
 */
export async function rankedResult(deps: GovernanceDeps, proposal: StoredProposal): Promise<RankedResult> {
  return (await rankedResultAt(deps, proposal)).ranked
}

/** `rankedResult`, and the log entry the proposal's totals stand at (later when votes are not counted in yet). */
export async function rankedResultAt(
  deps: GovernanceDeps,
  proposal: StoredProposal,
): Promise<{ ranked: RankedResult; lastSeq: number }> {
  const { db } = deps.database
  const [row] = await db
    .select({
      lastSeq: proposalTallies.lastSeq,
      asOfSeq: rankedResults.asOfSeq,
      result: rankedResults.result,
    })
    .from(proposalTallies)
    .leftJoin(rankedResults, eq(rankedResults.proposalId, proposalTallies.proposalId))
    .where(eq(proposalTallies.proposalId, proposal.id))
  if (!row) throw new Error(`Proposal ${proposal.id} has no tally row`)
  const { lastSeq } = row
  const stored =
    row.result && row.asOfSeq !== null
      ? { result: tallyFromJson(row.result), asOfSeq: row.asOfSeq }
      : undefined
  if (stored && stored.asOfSeq >= lastSeq) return { ranked: stored, lastSeq }
  const running = deps.reads.settling<RankedResult>(proposal.id)
  if (running) return { ranked: stored ?? (await running), lastSeq }
  const interval = Math.max(
    RESETTLE_INTERVAL_MS,
    RESETTLE_INTERVAL_PER_SETTLE * deps.reads.lastSettleMs(proposal.id),
  )
  if (stored && !(await claimSettle(db, proposal, lastSeq, deps.now(), interval))) {
    return { ranked: stored, lastSeq }
  }
  const settled = await deps.reads.settle(proposal.id, () =>
    settleRankedResult(db, proposal.id, tallyRules(proposal.message), deps.now()),
  )
  return { ranked: settled, lastSeq }
}

/**
 * Claims the next settle of a stale row for this server, cluster-wide: true when the row's `settled_at` was
 * moved to `now` by this call. While voting is open a claim needs the last settle (or claim) to be at least
 * the interval old; after the end, one that came before the end is enough, so the first read after the end
 * settles the final result without waiting.
 */
export async function claimSettle(
  db: Db,
  proposal: StoredProposal,
  lastSeq: number,
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  const intervalAgo = new Date(now.getTime() - intervalMs)
  const end = new Date(proposal.end * 1000)
  const due = lte(rankedResults.settledAt, intervalAgo)
  const claimed = await db
    .update(rankedResults)
    .set({ settledAt: now })
    .where(
      and(
        eq(rankedResults.proposalId, proposal.id),
        lt(rankedResults.asOfSeq, lastSeq),
        now >= end ? or(due, lt(rankedResults.settledAt, end)) : due,
      ),
    )
    .returning({ proposalId: rankedResults.proposalId })
  return claimed.length > 0
}
