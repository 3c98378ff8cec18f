// Stored tallies: each proposal's `TallyTotals` live in one row that each batch of votes moves once, by the
// batch's sum (vote-writer.ts), so reading a result costs one row whatever the number of votes. The rule for what a vote
// adds is core's `voteContribution`, the same one a recount folds over the votes.
import {
  type CountedVote,
  emptyTallyTotals,
  type ProposalMessage,
  settleTally,
  type Tally,
  type TallyRules,
  type TallyTotals,
  type VoteMessage,
  voteWeights,
} from '@guildhall/core'
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../platform/db/client.ts'
import { proposalTallies } from '../platform/db/schema.ts'

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

export function totalsOf(row: TallyRow): TallyTotals {
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

/** What a stored vote counts with: its choices (a ranking on ranked-choice) and, from a version 2 vote, its weights. */
export function countedVote(message: VoteMessage, power: bigint): CountedVote {
  return { choices: message.choices, weights: voteWeights(message), power }
}

/**
 * The stored result of a proposal: one row, whatever the number of votes. Not ranked-choice, whose rounds
 * the totals cannot settle (`rankedResult`, ranked-results.ts).
 */
export async function storedTally(db: Db, proposalId: string, rules: TallyRules): Promise<Tally> {
  const [row] = await db.select().from(proposalTallies).where(eq(proposalTallies.proposalId, proposalId))
  return settleTally(rules, row ? totalsOf(row) : emptyTallyTotals(rules.choiceCount))
}

/** The stored result of a proposal and the log entry it stands at, read together (a live tally event); not ranked-choice. */
export async function storedTallyAt(
  db: Db,
  proposalId: string,
  rules: TallyRules,
): Promise<{ result: Tally; lastSeq: number } | undefined> {
  const [row] = await db.select().from(proposalTallies).where(eq(proposalTallies.proposalId, proposalId))
  return row && { result: settleTally(rules, totalsOf(row)), lastSeq: row.lastSeq }
}
