// The bench's bulk seed of votes (the scale and ranked-choice sections): a signed proposal and its signed votes
// written straight into the database, in one transaction of multi-row inserts, leaving exactly what the vote
// path (governance/votes.ts) leaves for the same messages arriving in this order: the proposal, its votes, one
// ballot per voter with its power (and a ranked-choice ballot's ranking), the hash-chained log entries, the
// stored tally and the voters' directory rows. A hundred thousand votes through HTTP would take an
// hour; the signatures are not checked here (the bench made them), the recount checks them.

import {
  ballots,
  type Database,
  governanceLog,
  proposals,
  proposalTallies,
  votes,
} from '@guildhall/api/database'
import { LOG_LOCK_KEY, recordBallots, tallyRules } from '@guildhall/api/operations'
import {
  addToTotals,
  emptyTallyTotals,
  LOG_GENESIS_HASH,
  type LogEntry,
  logEntryHash,
  type ProposalMessage,
  type VoteMessage,
  voteContribution,
  voteWeights,
} from '@guildhall/core'
import { desc, sql } from 'drizzle-orm'
import type { Hex } from 'viem'

export type SeedVote = {
  /** voteId(domain, message), computed by the caller (it caches them with the signatures). */
  id: Hex
  message: VoteMessage
  signature: Hex
  /** The voter's power at the proposal's snapshot, as the token index answers it. */
  power: bigint
}

/** Rows per INSERT: 9 columns × 1000 stays far below PostgreSQL's 65,535 parameters. */
const CHUNK = 1000

/**
 * Stores `proposal` (id `proposalId`) and `seedVotes` in that order. Each voter votes once (a second vote
 * would need the superseding rule and its 409; the bench has no use for it), so every vote is its ballot.
 */
export async function seedProposalVotes(
  database: Database,
  proposal: { id: Hex; message: ProposalMessage; signature: Hex },
  seedVotes: readonly SeedVote[],
): Promise<{ lastSeq: number }> {
  const voters = new Set(seedVotes.map((vote) => vote.message.voter.toLowerCase()))
  if (voters.size !== seedVotes.length) throw new Error('seedProposalVotes: one vote per voter')
  const rules = tallyRules(proposal.message)
  return database.db.transaction(async (tx) => {
    // The lock the vote path appends under: the chain stays linear even if a server is running.
    await tx.execute(sql`select pg_advisory_xact_lock(${LOG_LOCK_KEY})`)
    const [last] = await tx
      .select({ seq: governanceLog.seq, hash: governanceLog.hash })
      .from(governanceLog)
      .orderBy(desc(governanceLog.seq))
      .limit(1)
    let previous = { seq: last?.seq ?? 0, hash: (last?.hash as Hex | undefined) ?? LOG_GENESIS_HASH }
    const entry = (kind: LogEntry['kind'], messageId: Hex, signature: Hex) => {
      const unhashed = { seq: previous.seq + 1, kind, messageId, signature, prevHash: previous.hash }
      const logged = { ...unhashed, hash: logEntryHash(unhashed), proposalId: proposal.id }
      previous = logged
      return logged
    }

    await tx.insert(proposals).values({
      id: proposal.id,
      author: proposal.message.author,
      start: proposal.message.start,
      end: proposal.message.end,
      snapshot: proposal.message.snapshot,
      message: proposal.message,
      signature: proposal.signature,
    })
    await tx.insert(governanceLog).values(entry('proposal', proposal.id, proposal.signature))

    let totals = emptyTallyTotals(proposal.message.choices.length)
    for (let start = 0; start < seedVotes.length; start += CHUNK) {
      const chunk = seedVotes.slice(start, start + CHUNK)
      const logged = chunk.map((vote) => entry('vote', vote.id, vote.signature))
      await tx.insert(votes).values(
        chunk.map((vote, i) => ({
          id: vote.id,
          proposalId: proposal.id,
          voter: vote.message.voter,
          timestamp: vote.message.timestamp,
          message: vote.message,
          signature: vote.signature,
          power: vote.power,
          powerSource: 'index',
          reasonLogSeq: vote.message.reason === '' ? null : logged[i]?.seq,
        })),
      )
      await tx.insert(ballots).values(
        chunk.map((vote) => ({
          proposalId: proposal.id,
          voter: vote.message.voter,
          voteId: vote.id,
          timestamp: vote.message.timestamp,
          power: vote.power,
          ranking: rules.kind === 'ranked-choice' ? [...vote.message.choices] : null,
        })),
      )
      await tx.insert(governanceLog).values(logged)
      for (const vote of chunk)
        totals = addToTotals(
          totals,
          voteContribution(rules, {
            choices: vote.message.choices,
            weights: voteWeights(vote.message),
            power: vote.power,
          }),
        )
    }
    await tx.insert(proposalTallies).values({
      proposalId: proposal.id,
      perChoice: totals.perChoice.map(String),
      voters: totals.voters,
      votingPower: totals.votingPower,
      quorumPower: totals.quorumPower,
      lastSeq: previous.seq,
    })
    await recordBallots(tx, proposal.id)
    return { lastSeq: previous.seq }
  })
}
