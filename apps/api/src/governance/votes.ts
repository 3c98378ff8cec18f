// Votes (docs/product.md, docs/security.md "Signed governance messages"): verify a signed vote against
// the domain this server rebuilds, check it against its proposal, and store it, its ballot (the vote that
// counts), its log entry, the proposal's stored totals and the voter's directory row in one transaction.
import {
  proposalState,
  type SignedVote,
  supersedes,
  timestampProblem,
  timestampProblemMessage,
  type VoteMessage,
  voteChoicesProblem,
  voteId,
  voteWeights,
} from '@guildhall/core'
import { and, eq } from 'drizzle-orm'
import type { Hex } from 'viem'
import { recordVote } from '../member-stats/vote-moves.ts'
import { ballots, votes } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { chainRead, checkSignature, type GovernanceDeps, seconds } from './deps.ts'
import { appendLog } from './log.ts'
import { requireProposal } from './proposals.ts'
import { countedVote, lockTally, moveTally, tallyRules } from './tallies.ts'
import { votingPowerAt } from './voting-power.ts'

/**
 * Accepts a vote on `proposalIdFromUrl`. The message is checked as signed for that proposal: a vote signed
 * for another proposal fails the signature check (401) instead of being filed elsewhere.
 */
export async function castVote(
  deps: GovernanceDeps,
  proposalIdFromUrl: string,
  { message: sent, signature }: SignedVote,
): Promise<{ id: Hex; created: boolean; counts: boolean }> {
  const proposal = await requireProposal(deps, proposalIdFromUrl)
  const message: VoteMessage = { ...sent, proposal: proposal.id as Hex }
  const id = voteId(deps.domain, message)
  const [replayed] = await deps.database.db.select({ id: votes.id }).from(votes).where(eq(votes.id, id))
  if (replayed) return { id, created: false, counts: await countsNow(deps, proposal.id, message.voter, id) }

  const now = seconds(deps.now())
  const state = proposalState(proposal, now)
  if (state !== 'active') {
    throw new ApiError(
      422,
      'not_open',
      state === 'pending'
        ? 'Voting on this proposal has not started yet.'
        : 'Voting on this proposal has ended.',
    )
  }
  const clock = timestampProblem(message.timestamp, now, proposal.start)
  if (clock) throw new ApiError(422, 'bad_timestamp', timestampProblemMessage('vote', clock))
  const choicesProblem = voteChoicesProblem(proposal.message, message.choices, voteWeights(message))
  if (choicesProblem) throw new ApiError(422, 'bad_choices', choicesProblem)
  await checkSignature(deps, message.voter, id, signature)
  const power = await chainRead(() => votingPowerAt(deps, message.voter, proposal.snapshot))
  if (power.power === 0n) {
    throw new ApiError(
      403,
      power.reason?.code ?? 'no_voting_power',
      power.reason?.message ?? 'You had no voting power at the snapshot block.',
    )
  }

  const rules = tallyRules(proposal.message)
  const stored = await deps.database.db.transaction(async (tx) => {
    // Votes on this proposal take turns from here to the commit: the ballot read below stays the counting one.
    const locked = await lockTally(tx, proposal.id)
    const inserted = await tx
      .insert(votes)
      .values({
        id,
        proposalId: proposal.id,
        voter: message.voter,
        timestamp: message.timestamp,
        message,
        signature,
        power: power.power,
        powerSource: power.source,
      })
      .onConflictDoNothing()
      .returning({ id: votes.id })
    // A replay that raced this one stored it first.
    if (inserted.length === 0) return { id, created: false, counts: true }
    const [replaced] = await tx
      .select({ id: votes.id, timestamp: votes.timestamp, message: votes.message, power: votes.power })
      .from(ballots)
      .innerJoin(votes, eq(ballots.voteId, votes.id))
      .where(and(eq(ballots.proposalId, proposal.id), eq(ballots.voter, message.voter)))
    // The ballot moves to this vote only if it supersedes the counting one (later, or same time and lower id).
    if (replaced && !supersedes({ id, timestamp: message.timestamp }, replaced)) {
      throw new ApiError(
        409,
        'superseded',
        'You have already voted later on this proposal; this earlier vote does not replace it.',
      )
    }
    // A ranked ballot keeps its ranking beside it: the settle of the rounds reads the ballots alone (ADR 060).
    const ranking = rules.kind === 'ranked-choice' ? message.choices : null
    await tx
      .insert(ballots)
      .values({
        proposalId: proposal.id,
        voter: message.voter,
        voteId: id,
        timestamp: message.timestamp,
        power: power.power,
        ranking,
      })
      .onConflictDoUpdate({
        target: [ballots.proposalId, ballots.voter],
        set: { voteId: id, timestamp: message.timestamp, power: power.power, ranking },
      })
    const logged = await appendLog(tx, {
      kind: 'vote',
      messageId: id,
      proposalId: proposal.id as Hex,
      signature,
      // A vote with a reason is a card in the proposal's thread (ADR 053): its live stream hears of it.
      ...(message.reason !== '' ? { threadId: proposal.id as Hex } : {}),
    })
    if (message.reason !== '')
      await tx.update(votes).set({ reasonLogSeq: logged.seq }).where(eq(votes.id, id))
    await moveTally(tx, proposal.id, rules, locked, {
      replaced: replaced ? countedVote(replaced.message, replaced.power) : null,
      counting: countedVote(message, power.power),
      seq: logged.seq,
    })
    // Last: the member's row is locked for the shortest time (the token index moves it too).
    await recordVote(tx, message.voter, message.timestamp, !replaced)
    return { id, created: true, counts: true }
  })
  // Committed: whoever asks after this answer must not join a read of the proposal started before it.
  deps.reads.changed(proposal.id)
  return stored
}

async function countsNow(deps: GovernanceDeps, proposal: string, voter: string, id: string) {
  const [ballot] = await deps.database.db
    .select({ voteId: ballots.voteId })
    .from(ballots)
    .where(and(eq(ballots.proposalId, proposal), eq(ballots.voter, voter)))
  return ballot?.voteId === id
}
