import { supersedingTimestamp, type VoteMessage } from '@guildhall/core'
import type { Address, Hex } from 'viem'

/**
 * The EIP-712 vote message for the choices a member picked (1-based, in any order) and their reason.
 * A change of mind must win over the vote it replaces: core's `supersedingTimestamp` dates it later.
 */
export function buildVoteMessage({
  voter,
  proposal,
  picked,
  reason,
  replaces,
  now,
}: {
  voter: Address
  proposal: string
  picked: readonly number[]
  reason: string
  /** The member's current vote on this proposal, if any. */
  replaces?: { timestamp: number } | undefined
  /** Milliseconds since the epoch (Date.now()). */
  now: number
}): VoteMessage {
  return {
    voter,
    proposal: proposal as Hex,
    choices: [...picked].sort((a, b) => a - b),
    reason: reason.trim(),
    timestamp: supersedingTimestamp(now, replaces),
  }
}
