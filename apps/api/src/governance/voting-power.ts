// Voting power at a proposal's snapshot, and when it is zero, why, in words for the member: the token
// index finds the cause, this words it.
import type { AnswerSource, ZeroPowerExplanation } from '@guildhall/core'
import type { Address } from 'viem'
import type { ZeroVotesCause } from '../token/token-index.ts'
import type { GovernanceDeps } from './deps.ts'

/** An address's voting power at a block, with the explanation the vote panel shows when it is zero. */
export type ExplainedVotingPower = {
  power: bigint
  source: AnswerSource
  reason: ZeroPowerExplanation | null
}

/** Voting power of `account` at `block`, and when it is zero, why. */
export async function votingPowerAt(
  deps: GovernanceDeps,
  account: Address,
  block: number,
): Promise<ExplainedVotingPower> {
  const { votes, source, zeroCause } = await deps.tokenIndex.votingPower(account, block)
  return { power: votes, source, reason: zeroCause && explainZeroPower(zeroCause, block) }
}

function explainZeroPower(cause: ZeroVotesCause, block: number): ZeroPowerExplanation {
  switch (cause.code) {
    case 'tokens-after-snapshot':
      return {
        code: cause.code,
        message: `Your tokens arrived after block ${block}, when this proposal took its snapshot. They will count for proposals created from now on.`,
      }
    case 'no-tokens':
      return {
        code: cause.code,
        message: `You held no tokens at block ${block}, when this proposal took its snapshot, and no one delegated votes to you.`,
      }
    case 'not-delegated':
      return {
        code: cause.code,
        message: `You held tokens at block ${block} but had not delegated them, so they did not vote. Delegate to yourself (Overview → Delegation) to vote on proposals created after that.`,
      }
    case 'delegated-to-other':
      return {
        code: cause.code,
        message: `At block ${block} you had delegated your votes to ${cause.delegate}; they vote with your tokens. Delegate to yourself to vote on later proposals.`,
        delegate: cause.delegate,
      }
  }
}
