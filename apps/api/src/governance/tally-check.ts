// The operator's proof (`npm run tallies:check`): every proposal's stored result recounted from its ballots,
// page by page, and compared. The recount reads each ballot's signed vote (its choices and weights), not the
// columns the vote path copied from it, so a drifted copy shows too; ranked-choice rounds are run again.
import {
  addToTotals,
  emptyTallyTotals,
  type RankedBallot,
  rankedRounds,
  settleTally,
  type Tally,
  type TallyJson,
  type TallyRules,
  tallyFromJson,
  tallyToJson,
  voteContribution,
} from '@guildhall/core'
import { and, asc, eq, gt } from 'drizzle-orm'
import type { Db } from '../platform/db/client.ts'
import { ballots, proposals, proposalTallies, rankedResults, votes } from '../platform/db/schema.ts'
import { settleRankedResult } from './ranked-results.ts'
import { countedVote, storedTally, tallyRules, totalsOf } from './tallies.ts'

/** Ballots a recount reads per query, so the recount's memory stays one page whatever the size (ranked: the rankings). */
const RECOUNT_PAGE = 5000

/** The tally recounted from the ballots' signed votes, page by page (`tallies:check` compares it with the stored one). */
export async function recountTally(db: Db, proposalId: string, rules: TallyRules): Promise<Tally> {
  let totals = emptyTallyTotals(rules.choiceCount)
  const ranked: RankedBallot[] = []
  let after: string | null = null
  for (;;) {
    const page = await db
      .select({ voter: ballots.voter, message: votes.message, power: votes.power })
      .from(ballots)
      .innerJoin(votes, eq(ballots.voteId, votes.id))
      .where(and(eq(ballots.proposalId, proposalId), after === null ? undefined : gt(ballots.voter, after)))
      .orderBy(asc(ballots.voter))
      .limit(RECOUNT_PAGE)
    for (const row of page) {
      totals = addToTotals(totals, voteContribution(rules, countedVote(row.message, row.power)))
      if (rules.kind === 'ranked-choice') ranked.push({ ranking: row.message.choices, power: row.power })
    }
    const last = page.at(-1)
    if (!last || page.length < RECOUNT_PAGE) break
    after = last.voter
  }
  return settleTally(
    rules,
    totals,
    rules.kind === 'ranked-choice' ? rankedRounds(rules.choiceCount, ranked) : undefined,
  )
}

/**
 * A ranked-choice proposal's stored result for the check: its stored rounds when they stand where its totals
 * do, else settled now from the ballots' rankings (the row moves forward, as any read would move it). Its
 * `perChoice` is the stored first-preference totals that every vote moved, which round 1 must equal.
 */
async function storedRankedTally(db: Db, proposalId: string, rules: TallyRules): Promise<Tally> {
  const [row] = await db
    .select({ totals: proposalTallies, asOfSeq: rankedResults.asOfSeq, result: rankedResults.result })
    .from(proposalTallies)
    .leftJoin(rankedResults, eq(rankedResults.proposalId, proposalTallies.proposalId))
    .where(eq(proposalTallies.proposalId, proposalId))
  if (!row) throw new Error(`Proposal ${proposalId} has no tally row`)
  const ranked =
    row.result && row.asOfSeq === row.totals.lastSeq
      ? tallyFromJson(row.result)
      : (await settleRankedResult(db, proposalId, rules)).result
  return { ...ranked, perChoice: totalsOf(row.totals).perChoice }
}

/** A proposal whose stored totals differ from a recount of its ballots. */
export type TallyMismatch = { proposalId: string; stored: TallyJson; recounted: TallyJson }

/**
 * Recounts every proposal's ballots and compares with its stored totals (`npm run tallies:check`), and a
 * ranked-choice proposal's stored rounds with rounds run again: the operator's proof that the results the
 * pages show are the votes' sum. Reads a page of ballots at a time.
 */
export async function checkTallies(
  db: Db,
  onProposal: (done: number) => void = () => {},
): Promise<{ proposals: number; mismatches: TallyMismatch[] }> {
  const mismatches: TallyMismatch[] = []
  const all = await db.select({ id: proposals.id, message: proposals.message }).from(proposals)
  for (const [index, proposal] of all.entries()) {
    const rules = tallyRules(proposal.message)
    const stored = tallyToJson(
      rules.kind === 'ranked-choice'
        ? await storedRankedTally(db, proposal.id, rules)
        : await storedTally(db, proposal.id, rules),
    )
    const recounted = tallyToJson(await recountTally(db, proposal.id, rules))
    if (JSON.stringify(stored) !== JSON.stringify(recounted)) {
      mismatches.push({ proposalId: proposal.id, stored, recounted })
    }
    onProposal(index + 1)
  }
  return { proposals: all.length, mismatches }
}
