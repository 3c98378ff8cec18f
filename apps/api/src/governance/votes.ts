// Votes (docs/product.md, docs/security.md "Signed governance messages"): verify a signed vote against
// the domain this server rebuilds and check it against its proposal, here, outside any transaction; then
// the instance's vote writer (vote-writer.ts, ADR 062) stores it with the others of its batch: the vote, its
// ballot (the vote that counts), its log entry, the proposal's stored totals and the voter's directory row.
import {
  proposalState,
  type SignedVote,
  timestampProblem,
  timestampProblemMessage,
  type VoteMessage,
  voteChoicesProblem,
  voteId,
  voteWeights,
} from '@guildhall/core'
import { and, eq } from 'drizzle-orm'
import type { Hex } from 'viem'
import { isDatabaseUnavailable } from '../platform/db/errors.ts'
import { ballots, votes } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { chainRead, checkSignature, type GovernanceDeps, seconds } from './deps.ts'
import { requireProposal } from './proposals.ts'
import { tallyRules } from './tallies.ts'
import { type VoteAnswer, VoteWriter } from './vote-writer.ts'
import { votingPowerAt } from './voting-power.ts'

/**
 * Accepts a vote on `proposalIdFromUrl`. The message is checked as signed for that proposal: a vote signed
 * for another proposal fails the signature check (401) instead of being filed elsewhere.
 */
export async function castVote(
  deps: GovernanceDeps,
  proposalIdFromUrl: string,
  signed: SignedVote,
): Promise<VoteAnswer> {
  // Counted from here, so a batch about to start waits a little for this vote (ADR 069).
  const checked = deps.voteWriter?.checking()
  try {
    const answer = await checkAndWrite(deps, proposalIdFromUrl, signed, checked)
    deps.observer.voteAnswered(answer.created ? 'accepted' : 'replayed')
    return answer
  } catch (error) {
    deps.observer.voteAnswered(
      error instanceof ApiError
        ? error.code
        : isDatabaseUnavailable(error)
          ? 'database_unavailable'
          : 'internal',
    )
    throw error
  } finally {
    checked?.()
  }
}

async function checkAndWrite(
  deps: GovernanceDeps,
  proposalIdFromUrl: string,
  { message: sent, signature }: SignedVote,
  checked: (() => void) | undefined,
): Promise<VoteAnswer> {
  const proposal = await requireProposal(deps, proposalIdFromUrl)
  const message: VoteMessage = { ...sent, proposal: proposal.id as Hex }
  const id = voteId(deps.domain, message)
  // A replay (a client's retry) goes through the checks and the batch, which answers it as stored: no read
  // of its own for every vote. Only a refusal that time alone brings (voting closed, the signature grown
  // too old) looks for the stored vote first, so a retry after the close still learns it was stored.
  const unlessStored = async (refusal: ApiError): Promise<VoteAnswer> => {
    const [stored] = await deps.database.db.select({ id: votes.id }).from(votes).where(eq(votes.id, id))
    if (!stored) throw refusal
    return { id, created: false, counts: await countsNow(deps, proposal.id, message.voter, id) }
  }

  const now = seconds(deps.now())
  const state = proposalState(proposal, now)
  if (state !== 'active') {
    return unlessStored(
      new ApiError(
        422,
        'not_open',
        state === 'pending'
          ? 'Voting on this proposal has not started yet.'
          : 'Voting on this proposal has ended.',
      ),
    )
  }
  const clock = timestampProblem(message.timestamp, now, proposal.start)
  if (clock) return unlessStored(new ApiError(422, 'bad_timestamp', timestampProblemMessage('vote', clock)))
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

  // The rest is the batch's (vote-writer.ts): whether it still counts, and storing it.
  const vote = {
    id,
    proposalId: proposal.id as Hex,
    message,
    signature,
    power: power.power,
    powerSource: power.source,
    rules: tallyRules(proposal.message),
  }
  const writer = deps.voteWriter ?? new VoteWriter(deps.database, deps.observer)
  const written = writer.write(vote)
  // In the batch's queue now: no longer one to wait for.
  checked?.()
  const stored = await written
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
