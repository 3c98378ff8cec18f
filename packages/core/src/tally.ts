/**
 * The tally and lifecycle of a proposal (docs/product.md): pure functions with bigint arithmetic,
 * run by the server for its pages and by every recount (browser worker, CLI), so a result can be checked
 * by anyone. A change to how votes are counted must bump TALLY_VERSION: export bundles record the version
 * their result was computed with.
 */
import { BASIC_ABSTAIN, BASIC_AGAINST, BASIC_FOR } from './governance/messages.ts'
import type { ProposalKind } from './governance/rules.ts'

export const TALLY_VERSION = 1

/**
 * After the end, a proposal is `closed` for this long before its result is `final`: votes signed and sent
 * before the end may still be in flight (a request accepted at the end's last second commits a moment later).
 */
export const FINALITY_DELAY_SECONDS = 5 * 60

export const PROPOSAL_STATES = ['pending', 'active', 'closed', 'final'] as const
export type ProposalState = (typeof PROPOSAL_STATES)[number]

/** Where a proposal stands at `nowSeconds`: voting is open from `start` (inclusive) to `end` (exclusive). */
export function proposalState(proposal: { start: number; end: number }, nowSeconds: number): ProposalState {
  if (nowSeconds < proposal.start) return 'pending'
  if (nowSeconds < proposal.end) return 'active'
  if (nowSeconds < proposal.end + FINALITY_DELAY_SECONDS) return 'closed'
  return 'final'
}

/** When (unix seconds) `proposalState` next changes after `nowSeconds`; null once final. */
export function nextStateChange(proposal: { start: number; end: number }, nowSeconds: number): number | null {
  for (const at of [proposal.start, proposal.end, proposal.end + FINALITY_DELAY_SECONDS]) {
    if (nowSeconds < at) return at
  }
  return null
}

/** The frozen rules a tally reads. */
export type TallyRules = {
  kind: ProposalKind
  /** The number of choices (3 for basic). */
  choiceCount: number
  /** Voting power that must take part for the result to count. */
  quorum: bigint
  /** Basic proposals: whether Abstain counts toward the quorum. */
  abstainCountsToQuorum: boolean
}

/** One voter's counting vote with their voting power at the snapshot. */
export type CountedVote = { choices: readonly number[]; power: bigint }

export const OUTCOMES = ['passed', 'rejected', 'no-quorum'] as const
type Outcome = (typeof OUTCOMES)[number]

export type Tally = TallyTotals & {
  version: number
  quorumReached: boolean
  outcome: Outcome
  /** 1-based choices with the most power; several on a tie; empty when no choice has power. */
  leading: number[]
}

/**
 * The sums a tally is settled from. The server keeps them per proposal and moves them with every vote
 * (`voteContribution`), so a proposal's page reads a row instead of its history; a recount rebuilds
 * them from the votes (`tally`) and must find them equal.
 */
export type TallyTotals = {
  /** Power per choice, index 0 = choice 1. Approval: each approved choice gets the voter's full power. */
  perChoice: bigint[]
  /** Voters with a counting vote, and their power (each voter once, whatever they picked). */
  voters: number
  votingPower: bigint
  /** The power that counts toward the quorum (basic: without Abstain unless the rules count it). */
  quorumPower: bigint
}

export function emptyTallyTotals(choiceCount: number): TallyTotals {
  return {
    perChoice: Array.from({ length: choiceCount }, () => 0n),
    voters: 0,
    votingPower: 0n,
    quorumPower: 0n,
  }
}

/** What one counting vote adds to the totals: one voter, its power on each choice it picked and toward the quorum. */
export function voteContribution(rules: TallyRules, vote: CountedVote): TallyTotals {
  const contribution = emptyTallyTotals(rules.choiceCount)
  contribution.voters = 1
  contribution.votingPower = vote.power
  for (const choice of vote.choices) contribution.perChoice[choice - 1] = vote.power
  const onlyAbstains = rules.kind === 'basic' && vote.choices.every((choice) => choice === BASIC_ABSTAIN)
  if (!onlyAbstains || rules.abstainCountsToQuorum) contribution.quorumPower = vote.power
  return contribution
}

/** `totals` with `change` added (`sign` 1) or taken off (`sign` -1): a replaced ballot is taken off, its successor added. */
export function addToTotals(totals: TallyTotals, change: TallyTotals, sign: 1 | -1 = 1): TallyTotals {
  const factor = BigInt(sign)
  return {
    perChoice: totals.perChoice.map((power, index) => power + factor * (change.perChoice[index] ?? 0n)),
    voters: totals.voters + sign * change.voters,
    votingPower: totals.votingPower + factor * change.votingPower,
    quorumPower: totals.quorumPower + factor * change.quorumPower,
  }
}

/**
 * Counts the votes under the rules. Votes must already be one per voter (`countingVotes`) with valid
 * choices; a vote with zero power counts as a participant but moves nothing.
 */
export function tally(rules: TallyRules, votes: Iterable<CountedVote>): Tally {
  let totals = emptyTallyTotals(rules.choiceCount)
  for (const vote of votes) totals = addToTotals(totals, voteContribution(rules, vote))
  return settleTally(rules, totals)
}

/**
 * The result the totals give under the rules. Outcome, once the quorum is reached (quorumPower ≥ quorum, so
 * a quorum exactly met counts):
 * - basic: passed when For > Against (Abstain never decides);
 * - single choice and approval: passed when one choice leads alone with power above zero; a tie at the
 *   top is rejected, as no choice won.
 */
export function settleTally(rules: TallyRules, totals: TallyTotals): Tally {
  const { perChoice } = totals
  let top = 0n
  for (const power of perChoice) if (power > top) top = power
  const leading = top === 0n ? [] : perChoice.flatMap((power, index) => (power === top ? [index + 1] : []))
  const quorumReached = totals.quorumPower >= rules.quorum
  const wins =
    rules.kind === 'basic'
      ? (perChoice[BASIC_FOR - 1] ?? 0n) > (perChoice[BASIC_AGAINST - 1] ?? 0n)
      : leading.length === 1
  return {
    version: TALLY_VERSION,
    ...totals,
    perChoice: [...perChoice],
    quorumReached,
    outcome: !quorumReached ? 'no-quorum' : wins ? 'passed' : 'rejected',
    leading,
  }
}

/** `part` of `whole` in basis points (1 = 0.01 %), rounded down; 0 when the whole is 0. */
export function basisPoints(part: bigint, whole: bigint): bigint {
  return whole === 0n ? 0n : (part * 10_000n) / whole
}

/**
 * Each part's share of their sum in basis points, rounded so that the shares add up to exactly 100 %:
 * each share rounded down, then the points still missing go one each to the largest remainders (equal
 * remainders: the earlier part first). Rounding each share down on its own shows 5 : 2 : 2 as
 * 55.55 + 22.22 + 22.22 = 99.99 %. All 0 when the sum is 0.
 */
export function sharesInBasisPoints(parts: readonly bigint[]): bigint[] {
  const total = parts.reduce((sum, part) => sum + part, 0n)
  if (total === 0n) return parts.map(() => 0n)
  const shares = parts.map((part) => (part * 10_000n) / total)
  const remainders = parts.map((part) => (part * 10_000n) % total)
  let missing = 10_000n - shares.reduce((sum, share) => sum + share, 0n)
  const byRemainder = parts
    .map((_, index) => index)
    .sort((a, b) => {
      const ra = remainders[a] ?? 0n
      const rb = remainders[b] ?? 0n
      return ra === rb ? a - b : rb > ra ? 1 : -1
    })
  for (const index of byRemainder) {
    if (missing <= 0n) break
    shares[index] = (shares[index] ?? 0n) + 1n
    missing -= 1n
  }
  return shares
}

/** A basis-point figure as a percentage with two decimals, e.g. 1234n → "12.34 %". */
export function formatBasisPoints(bps: bigint): string {
  const whole = bps / 100n
  const fraction = (bps % 100n).toString().padStart(2, '0')
  return `${whole}.${fraction} %`
}
