import { kindTakesWeights, type ProposalKind, supersedingTimestamp, type VoteMessage } from '@guildhall/core'
import type { Address, Hex } from 'viem'

/**
 * The EIP-712 vote message for a member's ballot and reason. `picked` are 1-based choices: in the member's
 * order for a ranked-choice proposal (the order is the ranking), sorted otherwise. A weighted or quadratic
 * proposal's ballot is signed as a version 2 vote, `weights[i]` the weight of `picked[i]`, so the wallet
 * shows the numbers; every other kind signs version 1, which has no empty array to show.
 * A change of mind must win over the vote it replaces: core's `supersedingTimestamp` dates it later.
 */
export function buildVoteMessage({
  voter,
  proposal,
  kind,
  picked,
  weights = [],
  reason,
  replaces,
  now,
}: {
  voter: Address
  proposal: string
  kind: ProposalKind
  picked: readonly number[]
  /** One weight per picked choice (weighted and quadratic proposals only). */
  weights?: readonly number[]
  reason: string
  /** The member's current vote on this proposal, if any. */
  replaces?: { timestamp: number } | undefined
  /** Milliseconds since the epoch (Date.now()). */
  now: number
}): VoteMessage {
  const common = {
    voter,
    proposal: proposal as Hex,
    reason: reason.trim(),
    timestamp: supersedingTimestamp(now, replaces),
  }
  if (kind === 'ranked-choice') return { ...common, choices: [...picked] }
  const pairs = picked
    .map((choice, index) => ({ choice, weight: weights[index] ?? 0 }))
    .sort((a, b) => a.choice - b.choice)
  const choices = pairs.map((pair) => pair.choice)
  if (!kindTakesWeights(kind)) return { ...common, choices }
  return {
    version: 2,
    voter,
    proposal: proposal as Hex,
    choices,
    weights: pairs.map((pair) => pair.weight),
    reason: common.reason,
    timestamp: common.timestamp,
  }
}
