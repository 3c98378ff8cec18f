/**
 * The tally and lifecycle of a proposal (docs/product.md): pure functions with bigint arithmetic,
 * run by the server for its pages and by every recount (browser worker, CLI), so a result can be checked
 * by anyone. A change to how votes are counted must bump TALLY_VERSION: export bundles record the version
 * their result was computed with.
 */
import { BASIC_ABSTAIN, BASIC_AGAINST, BASIC_FOR } from './governance/messages.ts'
import type { ProposalKind } from './governance/rules.ts'
import { largestRemainder, quadraticRoots, weightedAllocation } from './tally-arithmetic.ts'
import { type RankedRound, rankedRounds } from './tally-ranked.ts'

export { isqrt, quadraticRoots, weightedAllocation } from './tally-arithmetic.ts'
export {
  type EliminationRule,
  type RankedBallot,
  type RankedRound,
  rankedElimination,
  rankedRounds,
} from './tally-ranked.ts'

/**
 * 2 (ADR 058): ranked-choice, weighted and quadratic. It counts the three older kinds exactly as 1 did, so a
 * recount accepts a bundle of version 1 when its proposal is of an older kind.
 */
export const TALLY_VERSION = 2

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

/**
 * One voter's counting vote with their voting power at the snapshot. `weights`: one per choice, in the
 * same order, on a weighted or quadratic proposal (a version 2 vote); ranked-choice: `choices` is the ranking.
 */
export type CountedVote = {
  choices: readonly number[]
  weights?: readonly number[] | undefined
  power: bigint
}

/** `tie`: the quorum is reached and several choices share the top (the newer kinds; ranked: the exact final tie). */
export const OUTCOMES = ['passed', 'rejected', 'no-quorum', 'tie'] as const
type Outcome = (typeof OUTCOMES)[number]

export type Tally = Omit<TallyTotals, 'perChoice'> & {
  version: number
  /**
   * Power per choice as shown: the totals, except quadratic (the squares rescaled to the voting power) and
   * ranked-choice (round 1, the first preferences).
   */
  perChoice: bigint[]
  quorumReached: boolean
  outcome: Outcome
  /** 1-based choices with the most power (ranked-choice: the winners); several on a tie; empty when no choice has power. */
  leading: number[]
  /** Ranked-choice only: every round, the first being the first preferences. */
  rounds?: RankedRound[]
}

/**
 * The sums a tally is settled from. The server keeps them per proposal and moves them with every vote
 * (`voteContribution`), so a proposal's page reads a row instead of its history; a recount rebuilds
 * them from the votes (`tally`) and must find them equal.
 */
export type TallyTotals = {
  /**
   * The per-choice sums each vote adds to, index 0 = choice 1: power (basic, single choice; approval: each
   * approved choice the voter's full power), the allocated power (weighted), the sums of square roots
   * (quadratic, scaled by 10⁹) and the first preferences (ranked-choice).
   */
  perChoice: bigint[]
  /** Voters with a counting vote, and their power (each voter once, whatever they picked). */
  voters: number
  votingPower: bigint
  /** The power that counts toward the quorum (basic: without Abstain unless the rules count it; the newer kinds: all of it). */
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
  const parts = choiceParts(rules.kind, vote)
  vote.choices.forEach((choice, index) => {
    contribution.perChoice[choice - 1] = parts[index] ?? 0n
  })
  const onlyAbstains = rules.kind === 'basic' && vote.choices.every((choice) => choice === BASIC_ABSTAIN)
  if (!onlyAbstains || rules.abstainCountsToQuorum) contribution.quorumPower = vote.power
  return contribution
}

/** What a vote adds to each of its choices, in the order of `vote.choices`. */
function choiceParts(kind: ProposalKind, vote: CountedVote): bigint[] {
  switch (kind) {
    case 'weighted':
      return weightedAllocation(vote.power, weightsOf(vote), vote.choices)
    case 'quadratic':
      return quadraticRoots(vote.power, weightsOf(vote))
    case 'ranked-choice':
      // The first preference only: the later rounds need every ballot (`rankedRounds`).
      return vote.choices.map((_, index) => (index === 0 ? vote.power : 0n))
    default:
      return vote.choices.map(() => vote.power)
  }
}

function weightsOf(vote: CountedVote): readonly number[] {
  // voteChoicesProblem refuses such a vote before it is counted; counting it anyway would invent weights.
  if (vote.weights?.length !== vote.choices.length) {
    throw new Error('A weighted or quadratic vote needs one weight for each choice')
  }
  return vote.weights
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
  const ballots: { ranking: readonly number[]; power: bigint }[] = []
  for (const vote of votes) {
    totals = addToTotals(totals, voteContribution(rules, vote))
    if (rules.kind === 'ranked-choice') ballots.push({ ranking: vote.choices, power: vote.power })
  }
  return settleTally(
    rules,
    totals,
    rules.kind === 'ranked-choice' ? rankedRounds(rules.choiceCount, ballots) : undefined,
  )
}

/**
 * The result the totals give under the rules (ADR 058); `ranked`, the rounds of every ballot
 * (`rankedRounds`), is required for ranked-choice, which the totals alone cannot settle. Outcome, once the
 * quorum is reached (quorumPower ≥ quorum, so a quorum exactly met counts):
 * - basic: passed when For > Against (Abstain never decides);
 * - single choice and approval: passed when one choice leads alone with power above zero; a tie at the
 *   top is rejected, as no choice won;
 * - ranked-choice, weighted and quadratic: passed when one choice wins, `tie` when several share the top
 *   (ranked: the exact final tie), rejected when no choice has power.
 */
export function settleTally(
  rules: TallyRules,
  totals: TallyTotals,
  ranked?: { rounds: RankedRound[]; winners: number[] },
): Tally {
  const quorumReached = totals.quorumPower >= rules.quorum
  if (rules.kind === 'ranked-choice') {
    if (!ranked) throw new Error('A ranked-choice tally is settled from its rounds (rankedRounds)')
    const first = ranked.rounds[0]?.perChoice ?? []
    return {
      version: TALLY_VERSION,
      ...totals,
      perChoice: totals.perChoice.map((_, index) => first[index] ?? 0n),
      quorumReached,
      outcome: newerKindOutcome(quorumReached, ranked.winners),
      leading: [...ranked.winners],
      rounds: ranked.rounds,
    }
  }
  const leading = leadingChoices(totals.perChoice)
  const outcome = !quorumReached
    ? 'no-quorum'
    : rules.kind === 'basic'
      ? (totals.perChoice[BASIC_FOR - 1] ?? 0n) > (totals.perChoice[BASIC_AGAINST - 1] ?? 0n)
        ? 'passed'
        : 'rejected'
      : rules.kind === 'single-choice' || rules.kind === 'approval'
        ? leading.length === 1
          ? 'passed'
          : 'rejected'
        : newerKindOutcome(quorumReached, leading)
  return {
    version: TALLY_VERSION,
    ...totals,
    perChoice:
      rules.kind === 'quadratic'
        ? quadraticPower(totals.perChoice, totals.votingPower)
        : [...totals.perChoice],
    quorumReached,
    outcome,
    leading,
  }
}

/** 1-based choices with the most power; empty when none has any. */
function leadingChoices(perChoice: readonly bigint[]): number[] {
  let top = 0n
  for (const power of perChoice) if (power > top) top = power
  return top === 0n ? [] : perChoice.flatMap((power, index) => (power === top ? [index + 1] : []))
}

function newerKindOutcome(quorumReached: boolean, winners: readonly number[]): Outcome {
  if (!quorumReached) return 'no-quorum'
  return winners.length === 1 ? 'passed' : winners.length > 1 ? 'tie' : 'rejected'
}

/**
 * Quadratic power per choice: the square of each choice's sum of square roots, rescaled so the choices
 * add up to the voting power (largest remainder, equal remainders to the lower choice). The leader is
 * read from the sums themselves, so the rescale's rounding never decides it.
 */
export function quadraticPower(roots: readonly bigint[], votingPower: bigint): bigint[] {
  return largestRemainder(
    votingPower,
    roots.map((root) => root * root),
  )
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
  return largestRemainder(10_000n, parts)
}

/** A basis-point figure as a percentage with two decimals, e.g. 1234n → "12.34 %". */
export function formatBasisPoints(bps: bigint): string {
  const whole = bps / 100n
  const fraction = (bps % 100n).toString().padStart(2, '0')
  return `${whole}.${fraction} %`
}
