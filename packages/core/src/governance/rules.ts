/**
 * The rules of governance messages that are not their shape: the limits of every field, the windows a
 * message's timestamp and a proposal's snapshot must fall in, which choices fit a proposal, and which of a
 * member's votes counts. The same on the server, in the web forms and in every recount.
 */
/**
 * basic: For / Against / Abstain. single-choice: one of the author's choices. approval: any number of them.
 * ranked-choice: every choice in order of preference (instant runoff). weighted and quadratic: the voter
 * splits their power across the choices they pick by whole-number weights (ADR 058).
 * A string in the signed struct, so a wallet shows the kind in words, and both proposal versions carry every kind.
 */
export const PROPOSAL_KINDS = [
  'basic',
  'single-choice',
  'approval',
  'ranked-choice',
  'weighted',
  'quadratic',
] as const
export type ProposalKind = (typeof PROPOSAL_KINDS)[number]

/** Whether a kind's ballot carries weights (a version 2 vote with one weight per picked choice). */
export const kindTakesWeights = (kind: ProposalKind): boolean => kind === 'weighted' || kind === 'quadratic'

/** Limits of every field; the web forms show the same numbers. */
export const GOVERNANCE_LIMITS = {
  titleMax: 200,
  bodyMax: 20_000,
  choicesMin: 2,
  choicesMax: 20,
  choiceMax: 80,
  reasonMax: 1_000,
  /** A delegate statement: characters as the textarea counts them (UTF-16), and its UTF-8 bytes. */
  statementMax: 10_000,
  statementMaxBytes: 20_000,
  /** A voting period from 1 hour to 90 days. */
  periodMinSeconds: 60 * 60,
  periodMaxSeconds: 90 * 24 * 60 * 60,
  /** A proposal may start at most this far ahead of its signing. */
  startMaxAheadSeconds: 30 * 24 * 60 * 60,
  /** A proposal's actions (calls its Safe makes once it passes): how many, and each call's data in bytes. */
  actionsMax: 16,
  actionDataMaxBytes: 4_096,
  /** A category's name, as PROPOSAL_CATEGORIES lists it. */
  categoryMax: 40,
  /** A weight on a weighted or quadratic ballot: a whole number from 1 to this. */
  weightMax: 1_000_000,
} as const

/**
 * A message's timestamp may lie this far behind the server's clock (a multisig collecting signatures) and
 * this far ahead (clock skew). A vote may also be dated up to the skew before its proposal's start.
 */
export const TIMESTAMP_MAX_AGE_SECONDS = 6 * 24 * 60 * 60
export const TIMESTAMP_MAX_SKEW_SECONDS = 5 * 60

/**
 * How far below the chain's head a new proposal's snapshot may lie, by default (ADR 015). The author
 * signs the snapshot, so the server cannot pick it afterwards; it bounds the pick instead, to the chain as
 * it stood minutes before creation, so no one can reach back past delegations made since. 25 blocks are
 * 5 minutes of Ethereum's 12-second blocks; chains with faster blocks set SNAPSHOT_MAX_AGE_BLOCKS.
 */
export const DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS = 25

/**
 * Why a new proposal's snapshot is refused when the chain's head is `head`, or null: it must be one of the
 * `maxAgeBlocks` blocks before the head (a block's voting power is final once the next one exists).
 */
export function snapshotProblem(snapshot: number, head: number, maxAgeBlocks: number): string | null {
  if (snapshot >= head) {
    return `The snapshot block ${snapshot} is not yet final: it must be before the chain's current block (${head}).`
  }
  if (snapshot < head - maxAgeBlocks) {
    return `The snapshot block ${snapshot} is ${head - snapshot} blocks old; it must be one of the last ${maxAgeBlocks} blocks before the chain's current block (${head}). Sign the proposal again to take a recent snapshot.`
  }
  return null
}

const UNITS = [
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
  ['second', 1],
] as const
/** A limit in seconds as the messages word it: the largest unit it is a whole number of (90 days, 1 hour). */
export function durationInWords(seconds: number): string {
  const [unit, size] = UNITS.find(([, size]) => seconds % size === 0) ?? UNITS[3]
  const count = seconds / size
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

/**
 * Why these choices (and weights) do not fit the proposal, or null when they do: a basic or single-choice
 * proposal takes exactly one choice, an approval proposal one or more, a ranked-choice proposal every
 * choice once in order of preference, a weighted or quadratic one any number with one weight each (a
 * version 2 vote). `weights` undefined is a version 1 vote. Each weight's range is the schema's.
 */
export function voteChoicesProblem(
  proposal: { kind: ProposalKind; choices: readonly string[] },
  choices: readonly number[],
  weights?: readonly number[],
): string | null {
  if (choices.length === 0) return 'Pick at least one choice'
  if (new Set(choices).size !== choices.length) return 'Each choice may be picked once'
  const outOfRange = choices.find(
    (choice) => !Number.isInteger(choice) || choice < 1 || choice > proposal.choices.length,
  )
  if (outOfRange !== undefined) {
    return `Choice ${outOfRange} does not exist: this proposal has choices 1 to ${proposal.choices.length}`
  }
  if (!kindTakesWeights(proposal.kind)) {
    if (weights !== undefined && weights.length > 0) {
      return 'This proposal does not take weights: only weighted and quadratic proposals do'
    }
  } else if (weights === undefined) {
    return 'This proposal splits your voting power by weights: sign a version 2 vote with one weight for each choice you pick'
  } else if (weights.length !== choices.length) {
    return `Give one weight for each choice you pick: ${choices.length} choices and ${weights.length} weights`
  }
  if ((proposal.kind === 'basic' || proposal.kind === 'single-choice') && choices.length !== 1) {
    return 'This proposal takes exactly one choice'
  }
  if (proposal.kind === 'ranked-choice' && choices.length !== proposal.choices.length) {
    return `Rank every choice: this proposal has ${proposal.choices.length} choices and your ballot ranks ${choices.length}`
  }
  return null
}

/** What a timestamp window check needs to know of a message. */
export type TimestampProblem = 'too-old' | 'in-the-future' | 'before-start' | null
/**
 * Whether a message signed at `timestamp` is in the window around the server's clock; for a vote,
 * `votingStart` is its proposal's start, which it may precede by the clock skew at most.
 */
export function timestampProblem(
  timestamp: number,
  nowSeconds: number,
  votingStart?: number,
): TimestampProblem {
  if (timestamp < nowSeconds - TIMESTAMP_MAX_AGE_SECONDS) return 'too-old'
  if (timestamp > nowSeconds + TIMESTAMP_MAX_SKEW_SECONDS) return 'in-the-future'
  if (votingStart !== undefined && timestamp < votingStart - TIMESTAMP_MAX_SKEW_SECONDS) return 'before-start'
  return null
}

/** The refusal of a timestamp outside the window, in the limits' own numbers. */
export function timestampProblemMessage(
  what: 'proposal' | 'vote' | 'statement' | 'message',
  problem: Exclude<TimestampProblem, null>,
): string {
  switch (problem) {
    case 'too-old':
      return `This ${what} was signed more than ${durationInWords(TIMESTAMP_MAX_AGE_SECONDS)} ago. Sign it again.`
    case 'in-the-future':
      return `This ${what} is dated more than ${durationInWords(TIMESTAMP_MAX_SKEW_SECONDS)} ahead of the server's clock. Check your device clock.`
    case 'before-start':
      return `This ${what} was signed before the voting period began. Sign it again.`
  }
}

/** The part of a vote the "which vote counts" rule reads. */
export type OrderedVote = { id: string; timestamp: number }

/**
 * Whether vote `a` replaces vote `b` of the same voter on the same proposal: the later timestamp wins;
 * on equal timestamps the lower id (digest) wins, so every server and every recount picks the same vote
 * whatever order they arrived in. A vote never supersedes itself (an exact replay changes nothing).
 */
export function supersedes(a: OrderedVote, b: OrderedVote): boolean {
  if (a.timestamp !== b.timestamp) return a.timestamp > b.timestamp
  return a.id.toLowerCase() < b.id.toLowerCase()
}

/**
 * The timestamp of a message that replaces `replaced` (a re-vote, a statement's new version), signed at
 * `nowMs` (Date.now()): now in whole seconds, but always later than the one it replaces, even within the
 * same second or on a clock behind it, so it supersedes it by time alone.
 */
export function supersedingTimestamp(nowMs: number, replaced?: { timestamp: number }): number {
  return Math.max(Math.floor(nowMs / 1000), (replaced?.timestamp ?? 0) + 1)
}

/** Each voter's counting vote among any number of votes (replays and re-votes included), by voter. */
export function countingVotes<V extends OrderedVote & { voter: string }>(votes: Iterable<V>): Map<string, V> {
  const byVoter = new Map<string, V>()
  for (const vote of votes) {
    const voter = vote.voter.toLowerCase()
    const current = byVoter.get(voter)
    if (!current || supersedes(vote, current)) byVoter.set(voter, vote)
  }
  return byVoter
}
