// A proposal's result: its counting votes tallied under its frozen rules, and the result bundle a recount
// reads (the proposal, every vote and signature, its log entries).
import { countingVotes, type Tally, tally } from '@guildhall/core'
import { asc, eq } from 'drizzle-orm'
import { ballots, votes } from '../db/schema.ts'
import type { GovernanceDeps } from './governance-deps.ts'
import { proposalLogEntries } from './governance-log.ts'
import { requireProposal, type StoredProposal } from './proposals.ts'

export type StoredVote = typeof votes.$inferSelect

/** A proposal's counting votes and its tally under its frozen rules. */
export async function proposalResult(
  deps: GovernanceDeps,
  proposal: StoredProposal,
): Promise<{ tally: Tally; votes: StoredVote[] }> {
  const rows = await deps.database.db
    .select({ vote: votes })
    .from(ballots)
    .innerJoin(votes, eq(ballots.voteId, votes.id))
    .where(eq(ballots.proposalId, proposal.id))
    .orderBy(asc(votes.voter))
  const counting = [...countingVotes(rows.map((row) => row.vote)).values()]
  const { message } = proposal
  return {
    votes: counting,
    tally: tally(
      {
        kind: message.kind,
        choiceCount: message.choices.length,
        quorum: BigInt(message.quorum),
        abstainCountsToQuorum: message.abstainCountsToQuorum,
      },
      counting.map((vote) => ({ choices: vote.message.choices, power: vote.power })),
    ),
  }
}

/** A proposal (or a 404), all its votes, its log entries and its result. */
export async function resultBundle(deps: GovernanceDeps, id: string) {
  const proposal = await requireProposal(deps, id)
  const [allVotes, log, result] = await Promise.all([
    deps.database.db
      .select()
      .from(votes)
      .where(eq(votes.proposalId, proposal.id))
      .orderBy(asc(votes.receivedAt)),
    proposalLogEntries(deps, proposal.id),
    proposalResult(deps, proposal),
  ])
  return { proposal, votes: allVotes, log, result }
}
