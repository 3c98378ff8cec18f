// Stored tallies: each proposal's `TallyTotals` live in one row that every vote moves in its own
// transaction, so reading a result costs one row whatever the number of votes. The rule for what a vote
// adds is core's `voteContribution`, the same one a recount folds over the votes.
import {
  addToTotals,
  emptyTallyTotals,
  type ProposalMessage,
  settleTally,
  type Tally,
  type TallyJson,
  type TallyRules,
  type TallyTotals,
  tallyToJson,
  voteContribution,
} from '@guildhall/core'
import { and, asc, eq, gt } from 'drizzle-orm'
import type { Db, Tx } from '../platform/db/client.ts'
import { ballots, proposals, proposalTallies, votes } from '../platform/db/schema.ts'

/** The frozen rules of a proposal, as its signed message fixed them. */
export function tallyRules(message: ProposalMessage): TallyRules {
  return {
    kind: message.kind,
    choiceCount: message.choices.length,
    quorum: BigInt(message.quorum),
    abstainCountsToQuorum: message.abstainCountsToQuorum,
  }
}

type TallyRow = typeof proposalTallies.$inferSelect

function totalsOf(row: TallyRow): TallyTotals {
  return {
    perChoice: row.perChoice.map(BigInt),
    voters: row.voters,
    votingPower: row.votingPower,
    quorumPower: row.quorumPower,
  }
}

function rowOf(totals: TallyTotals): Omit<TallyRow, 'proposalId' | 'lastSeq'> {
  return {
    perChoice: totals.perChoice.map(String),
    voters: totals.voters,
    votingPower: totals.votingPower,
    quorumPower: totals.quorumPower,
  }
}

/** A new proposal's empty tally, in the transaction that stores the proposal and logs it as entry `seq`. */
export async function insertEmptyTally(tx: Tx, proposalId: string, message: ProposalMessage, seq: number) {
  await tx
    .insert(proposalTallies)
    .values({ proposalId, ...rowOf(emptyTallyTotals(message.choices.length)), lastSeq: seq })
}

/**
 * Locks the proposal's tally row until the transaction ends: votes on one proposal take turns from here
 * on, so the ballot a vote reads is still the counting one when it writes.
 */
export async function lockTally(tx: Tx, proposalId: string): Promise<TallyTotals> {
  const [row] = await tx
    .select()
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposalId))
    .for('update')
  if (!row) throw new Error(`Proposal ${proposalId} has no tally row`)
  return totalsOf(row)
}

type Counted = { choices: readonly number[]; power: bigint }

/** Moves the locked totals from the voter's replaced ballot (if any) to their new one, logged as entry `seq`. */
export async function moveTally(
  tx: Tx,
  proposalId: string,
  rules: TallyRules,
  locked: TallyTotals,
  change: { replaced: Counted | null; counting: Counted; seq: number },
) {
  let totals = locked
  if (change.replaced) totals = addToTotals(totals, voteContribution(rules, change.replaced), -1)
  totals = addToTotals(totals, voteContribution(rules, change.counting))
  await tx
    .update(proposalTallies)
    .set({ ...rowOf(totals), lastSeq: change.seq })
    .where(eq(proposalTallies.proposalId, proposalId))
}

/** The stored result of a proposal: one row, whatever the number of votes. */
export async function storedTally(db: Db, proposalId: string, rules: TallyRules): Promise<Tally> {
  const [row] = await db.select().from(proposalTallies).where(eq(proposalTallies.proposalId, proposalId))
  return settleTally(rules, row ? totalsOf(row) : emptyTallyTotals(rules.choiceCount))
}

/** The stored result of a proposal and the log entry it stands at, read together (a live tally event). */
export async function storedTallyAt(
  db: Db,
  proposalId: string,
  rules: TallyRules,
): Promise<{ result: Tally; lastSeq: number } | undefined> {
  const [row] = await db.select().from(proposalTallies).where(eq(proposalTallies.proposalId, proposalId))
  return row && { result: settleTally(rules, totalsOf(row)), lastSeq: row.lastSeq }
}

/** Ballots a recount reads per query, so the recount's memory stays one page whatever the size. */
const RECOUNT_PAGE = 5000

/** The tally recounted from the ballots, page by page (`tallies:check` compares it with the stored one). */
export async function recountTally(db: Db, proposalId: string, rules: TallyRules): Promise<Tally> {
  let totals = emptyTallyTotals(rules.choiceCount)
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
      totals = addToTotals(
        totals,
        voteContribution(rules, { choices: row.message.choices, power: row.power }),
      )
    }
    const last = page.at(-1)
    if (!last || page.length < RECOUNT_PAGE) break
    after = last.voter
  }
  return settleTally(rules, totals)
}

/** A proposal whose stored totals differ from a recount of its ballots. */
export type TallyMismatch = { proposalId: string; stored: TallyJson; recounted: TallyJson }

/**
 * Recounts every proposal's ballots and compares with its stored totals (`npm run tallies:check`): the
 * operator's proof that the totals the pages show are the votes' sum. Reads a page of ballots at a time.
 */
export async function checkTallies(
  db: Db,
  onProposal: (done: number) => void = () => {},
): Promise<{ proposals: number; mismatches: TallyMismatch[] }> {
  const mismatches: TallyMismatch[] = []
  const all = await db.select({ id: proposals.id, message: proposals.message }).from(proposals)
  for (const [index, proposal] of all.entries()) {
    const rules = tallyRules(proposal.message)
    const stored = tallyToJson(await storedTally(db, proposal.id, rules))
    const recounted = tallyToJson(await recountTally(db, proposal.id, rules))
    if (JSON.stringify(stored) !== JSON.stringify(recounted)) {
      mismatches.push({ proposalId: proposal.id, stored, recounted })
    }
    onProposal(index + 1)
  }
  return { proposals: all.length, mismatches }
}
