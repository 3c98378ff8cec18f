/**
 * The signed governance messages (docs/product.md, docs/security.md "Signed governance messages"): one
 * EIP-712 definition each for Proposal and Vote, the JSON shape the API receives them in, their limits, and
 * the rule that decides which of a member's votes counts. Shared by apps/web (what the wallet signs) and
 * apps/api (what the server rebuilds and verifies); the client's domain and types are never trusted.
 */
import {
  type Address,
  encodeAbiParameters,
  type Hex,
  hashTypedData,
  keccak256,
  type TypedDataDomain,
  zeroHash,
} from 'viem'
import { checksummedAddressSchema, SIGNATURE_MAX_BYTES } from './auth.ts'
import { z } from './zod.ts'

export const GOVERNANCE_DOMAIN_NAME = 'Guildhall'
export const GOVERNANCE_DOMAIN_VERSION = '1'

/** The domain every governance message is signed under: this DAO's chain and governance token. */
export function governanceDomain({ chainId, token }: { chainId: number; token: Address }) {
  return {
    name: GOVERNANCE_DOMAIN_NAME,
    version: GOVERNANCE_DOMAIN_VERSION,
    chainId,
    verifyingContract: token,
  } as const satisfies TypedDataDomain
}
export type GovernanceDomain = ReturnType<typeof governanceDomain>

/**
 * basic: For / Against / Abstain. single-choice: one of the author's choices. approval: any number of them.
 * A string in the signed struct, so a wallet shows the kind in words.
 */
export const PROPOSAL_KINDS = ['basic', 'single-choice', 'approval'] as const
export type ProposalKind = (typeof PROPOSAL_KINDS)[number]
/** The choices of a basic proposal, in this order (1 For, 2 Against, 3 Abstain). */
export const BASIC_CHOICES = ['For', 'Against', 'Abstain'] as const
export const BASIC_FOR = 1
export const BASIC_AGAINST = 2
export const BASIC_ABSTAIN = 3

/** Wallet-friendly field types: strings, numbers, one flat array each; the author or voter inside. */
export const proposalTypes = {
  Proposal: [
    { name: 'author', type: 'address' },
    { name: 'title', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'kind', type: 'string' },
    { name: 'choices', type: 'string[]' },
    { name: 'start', type: 'uint64' },
    { name: 'end', type: 'uint64' },
    { name: 'snapshot', type: 'uint64' },
    { name: 'quorum', type: 'uint256' },
    { name: 'threshold', type: 'uint256' },
    { name: 'abstainCountsToQuorum', type: 'bool' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const

export const voteTypes = {
  Vote: [
    { name: 'voter', type: 'address' },
    { name: 'proposal', type: 'bytes32' },
    { name: 'choices', type: 'uint32[]' },
    { name: 'reason', type: 'string' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const

/** Limits of every field; the web forms show the same numbers. */
export const GOVERNANCE_LIMITS = {
  titleMax: 200,
  bodyMax: 20_000,
  choicesMin: 2,
  choicesMax: 20,
  choiceMax: 80,
  reasonMax: 1_000,
  /** A voting period from 1 hour to 90 days. */
  periodMinSeconds: 60 * 60,
  periodMaxSeconds: 90 * 24 * 60 * 60,
  /** A proposal may start at most this far ahead of its signing. */
  startMaxAheadSeconds: 30 * 24 * 60 * 60,
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

const UINT256_MAX = 2n ** 256n - 1n

/** A UTF-16 surrogate not paired with its other half: with the `u` flag a valid pair is one code point. */
const LONE_SURROGATE = /\p{Cs}/u

/**
 * Text as a person would type it: no NUL bytes (PostgreSQL refuses them, and they hide text), and valid
 * Unicode: EIP-712 hashes a string's UTF-8 bytes, where every lone surrogate becomes U+FFFD, so texts that
 * differ only there would share one digest (one id), and PostgreSQL's jsonb refuses them.
 */
const text = (max: number, what: string) =>
  z.string().check(
    z.maxLength(max, `${what} must be at most ${max} characters`),
    z.refine((value) => !value.includes('\u0000'), `${what} must not contain NUL characters`),
    z.refine((value) => !LONE_SURROGATE.test(value), `${what} must be valid Unicode text`),
  )

/**
 * Unix seconds: a whole, non-negative number that fits uint64 and a JavaScript number. `z.int` as a check
 * of `z.number()`, so its message is for fractions only and a non-number still reads "expected number".
 */
const unixSeconds = z.number().check(z.int('must be whole seconds'), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER))

/** A token amount: a decimal string of a uint256 (JSON has no bigint). */
const tokenAmount = z.string().check(
  // Aborts: the range check would throw on what BigInt cannot read ('1.5', 'x').
  z.regex(/^(0|[1-9]\d{0,77})$/, {
    message: 'must be a whole number of token units, as a decimal string',
    abort: true,
  }),
  z.refine((value) => BigInt(value) <= UINT256_MAX, 'must fit in uint256'),
)

export const proposalMessageSchema = z
  .strictObject({
    author: checksummedAddressSchema,
    title: text(GOVERNANCE_LIMITS.titleMax, 'The title').check(
      z.refine((value) => value.trim().length > 0, 'The title must not be empty'),
    ),
    body: text(GOVERNANCE_LIMITS.bodyMax, 'The body'),
    kind: z.enum(PROPOSAL_KINDS, `The kind must be one of ${PROPOSAL_KINDS.join(', ')}`),
    choices: z
      .array(
        text(GOVERNANCE_LIMITS.choiceMax, 'A choice').check(
          z.refine((value) => value.trim().length > 0, 'A choice must not be empty'),
        ),
      )
      .check(
        z.minLength(
          GOVERNANCE_LIMITS.choicesMin,
          `A proposal needs at least ${GOVERNANCE_LIMITS.choicesMin} choices`,
        ),
        z.maxLength(
          GOVERNANCE_LIMITS.choicesMax,
          `A proposal has at most ${GOVERNANCE_LIMITS.choicesMax} choices`,
        ),
        z.refine((choices) => new Set(choices).size === choices.length, 'Each choice must appear once'),
      ),
    start: unixSeconds,
    end: unixSeconds,
    snapshot: z.int().check(z.gte(0), z.lte(Number.MAX_SAFE_INTEGER)),
    quorum: tokenAmount,
    threshold: tokenAmount,
    abstainCountsToQuorum: z.boolean(),
    timestamp: unixSeconds,
  })
  .check(
    z.superRefine((message, context) => {
      if (message.kind === 'basic' && message.choices.join('\n') !== BASIC_CHOICES.join('\n')) {
        context.addIssue({
          code: 'custom',
          path: ['choices'],
          message: `A basic proposal's choices are exactly ${BASIC_CHOICES.join(', ')}`,
        })
      }
      const period = message.end - message.start
      if (period < GOVERNANCE_LIMITS.periodMinSeconds || period > GOVERNANCE_LIMITS.periodMaxSeconds) {
        context.addIssue({
          code: 'custom',
          path: ['end'],
          message: `The voting period must last from ${durationInWords(GOVERNANCE_LIMITS.periodMinSeconds)} to ${durationInWords(GOVERNANCE_LIMITS.periodMaxSeconds)}`,
        })
      }
      // Against its own signing time, so it needs no clock: the server bounds that time separately.
      if (message.start - message.timestamp > GOVERNANCE_LIMITS.startMaxAheadSeconds) {
        context.addIssue({
          code: 'custom',
          path: ['start'],
          message: `A proposal may start at most ${durationInWords(GOVERNANCE_LIMITS.startMaxAheadSeconds)} after it is signed`,
        })
      }
    }),
  )
export type ProposalMessage = z.infer<typeof proposalMessageSchema>

/**
 * Choices as the voter picked them, 1-based. Shape only: whether they fit the proposal (its number of
 * choices, one or many) is `voteChoicesProblem`, which needs the proposal.
 */
export const voteChoicesSchema = z
  .array(
    z
      .number('Each choice must be a number')
      .check(
        z.int('Each choice must be a whole number'),
        z.gte(1, 'Choices are numbered from 1'),
        z.lte(
          GOVERNANCE_LIMITS.choicesMax,
          `No proposal has more than ${GOVERNANCE_LIMITS.choicesMax} choices`,
        ),
      ),
  )
  .check(
    z.minLength(1, 'Pick at least one choice'),
    z.maxLength(
      GOVERNANCE_LIMITS.choicesMax,
      `No proposal has more than ${GOVERNANCE_LIMITS.choicesMax} choices`,
    ),
    z.refine((choices) => new Set(choices).size === choices.length, 'Each choice may be picked once'),
  )

export const bytes32Schema = z.pipe(
  z.string().check(z.regex(/^0x[0-9a-f]{64}$/, 'must be 0x followed by 64 lower-case hex digits')),
  z.transform((value: string) => value as Hex),
)

export const voteMessageSchema = z.strictObject({
  voter: checksummedAddressSchema,
  /** The proposal's id: its EIP-712 digest. */
  proposal: bytes32Schema,
  choices: voteChoicesSchema,
  reason: text(GOVERNANCE_LIMITS.reasonMax, 'The reason'),
  timestamp: unixSeconds,
})
export type VoteMessage = z.infer<typeof voteMessageSchema>

const signatureSchema = z.pipe(
  z
    .string()
    .check(
      z.maxLength(2 + 2 * SIGNATURE_MAX_BYTES, `must be at most ${SIGNATURE_MAX_BYTES} bytes`),
      z.regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x followed by whole bytes of hex'),
    ),
  z.transform((value: string) => value as Hex),
)

/** POST /api/proposals body. An empty signature (`0x`) is a Safe's on-chain approved hash. */
export const signedProposalSchema = z.strictObject({
  message: proposalMessageSchema,
  signature: signatureSchema,
})
export type SignedProposal = z.infer<typeof signedProposalSchema>
/** POST /api/proposals/:id/votes body. */
export const signedVoteSchema = z.strictObject({ message: voteMessageSchema, signature: signatureSchema })
export type SignedVote = z.infer<typeof signedVoteSchema>

/** The typed data a wallet signs and the server verifies, numbers widened to what EIP-712 encodes. */
export function proposalTypedData(domain: GovernanceDomain, message: ProposalMessage) {
  return {
    domain,
    types: proposalTypes,
    primaryType: 'Proposal',
    message: {
      ...message,
      choices: [...message.choices],
      start: BigInt(message.start),
      end: BigInt(message.end),
      snapshot: BigInt(message.snapshot),
      quorum: BigInt(message.quorum),
      threshold: BigInt(message.threshold),
      timestamp: BigInt(message.timestamp),
    },
  } as const
}

export function voteTypedData(domain: GovernanceDomain, message: VoteMessage) {
  return {
    domain,
    types: voteTypes,
    primaryType: 'Vote',
    message: { ...message, choices: [...message.choices], timestamp: BigInt(message.timestamp) },
  } as const
}

/** A proposal's id: the EIP-712 digest of what its author signed. */
export const proposalId = (domain: GovernanceDomain, message: ProposalMessage): Hex =>
  hashTypedData(proposalTypedData(domain, message))
/** A vote's id: the EIP-712 digest of what the voter signed. */
export const voteId = (domain: GovernanceDomain, message: VoteMessage): Hex =>
  hashTypedData(voteTypedData(domain, message))

/**
 * Why these choices do not fit the proposal, or null when they do: a basic or single-choice proposal
 * takes exactly one, an approval proposal one or more, each numbered within the proposal's choices.
 */
export function voteChoicesProblem(
  proposal: { kind: ProposalKind; choices: readonly string[] },
  choices: readonly number[],
): string | null {
  if (choices.length === 0) return 'Pick at least one choice'
  if (new Set(choices).size !== choices.length) return 'Each choice may be picked once'
  const outOfRange = choices.find(
    (choice) => !Number.isInteger(choice) || choice < 1 || choice > proposal.choices.length,
  )
  if (outOfRange !== undefined) {
    return `Choice ${outOfRange} does not exist: this proposal has choices 1 to ${proposal.choices.length}`
  }
  if (proposal.kind !== 'approval' && choices.length !== 1) return 'This proposal takes exactly one choice'
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
  what: 'proposal' | 'vote',
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

/** The hash-chained log every accepted proposal and vote is appended to, so results can be re-checked. */
export type LogEntry = {
  /** 1, 2, 3 … with no gap. */
  seq: number
  kind: 'proposal' | 'vote'
  /** The message's EIP-712 digest, which commits to everything that was signed. */
  messageId: Hex
  signature: Hex
  /** The previous entry's hash; LOG_GENESIS_HASH for entry 1. */
  prevHash: Hex
  hash: Hex
}
export const LOG_GENESIS_HASH: Hex = zeroHash

/** An entry's hash: keccak256 of its ABI-encoded fields, the previous hash included. */
export function logEntryHash(entry: Omit<LogEntry, 'hash'>): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint64' }, { type: 'string' }, { type: 'bytes32' }, { type: 'bytes' }, { type: 'bytes32' }],
      [BigInt(entry.seq), entry.kind, entry.messageId, entry.signature, entry.prevHash],
    ),
  )
}

/**
 * The first place where `entries` (in order) stop forming one chain from `first`'s predecessor, or null
 * when every entry links to the one before it and hashes to its stored hash.
 */
export function logChainProblem(
  entries: readonly LogEntry[],
  previous: { seq: number; hash: Hex } = { seq: 0, hash: LOG_GENESIS_HASH },
): { seq: number; problem: string } | null {
  let before = previous
  for (const entry of entries) {
    if (entry.seq !== before.seq + 1) return { seq: entry.seq, problem: `expected entry ${before.seq + 1}` }
    if (entry.prevHash !== before.hash)
      return { seq: entry.seq, problem: 'does not link to the entry before it' }
    if (logEntryHash(entry) !== entry.hash)
      return { seq: entry.seq, problem: 'its hash does not match its fields' }
    before = entry
  }
  return null
}

// The HTTP answers of the governance API (apps/api/src/routes/governance.ts), validated by the web app.
// Token amounts are decimal strings (JSON has no bigint).
const amount = z.string().check(z.regex(/^\d+$/))
export const PROPOSAL_STATES = ['pending', 'active', 'closed', 'final'] as const

export const proposalSummarySchema = z.strictObject({
  id: bytes32Schema,
  author: checksummedAddressSchema,
  title: z.string(),
  kind: z.enum(PROPOSAL_KINDS),
  start: z.int(),
  end: z.int(),
  snapshot: z.int(),
  state: z.enum(PROPOSAL_STATES),
})
export type ProposalSummary = z.infer<typeof proposalSummarySchema>

/** A page link the server wrote (opaque to clients). */
const cursorSchema = z.string().check(z.minLength(1), z.maxLength(200))
const pageLimit = (fallback: number, max: number) =>
  z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(max)), fallback)

/** GET /api/proposals?state=&cursor=&limit= : latest start first; `state` is one state or several, comma-separated. */
export const proposalListQuerySchema = z.strictObject({
  state: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((text: string) => text.split(',')),
      ),
      z.array(z.enum(PROPOSAL_STATES)),
    ),
  ),
  cursor: z.optional(cursorSchema),
  limit: pageLimit(20, 100),
})
export type ProposalListQuery = z.infer<typeof proposalListQuerySchema>

/** GET /api/proposals */
export const proposalListSchema = z.strictObject({
  proposals: z.array(proposalSummarySchema),
  /** The next page's cursor; null on the last page. */
  next: z.nullable(cursorSchema),
  /** The server's clock (unix seconds), so pages show times relative to it. */
  now: z.int(),
})

export const VOTE_LIST_ORDERS = ['power', 'time'] as const

/** GET /api/proposals/:id/votes?order=&choice=&voter=&cursor=&limit= : a proposal's counting votes, a page at a time. */
export const voteListQuerySchema = z.strictObject({
  order: z._default(z.enum(VOTE_LIST_ORDERS), 'power'),
  /** Only votes that picked this choice (1-based). */
  choice: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(GOVERNANCE_LIMITS.choicesMax))),
  /** Only voters whose address starts with this (any case). */
  voter: z.optional(
    z.string().check(z.regex(/^0x[0-9a-fA-F]{0,40}$/, 'The voter search is the start of an address (0x…)')),
  ),
  cursor: z.optional(cursorSchema),
  limit: pageLimit(25, 100),
})
export type VoteListQuery = z.infer<typeof voteListQuerySchema>

export const voteListItemSchema = z.strictObject({
  id: bytes32Schema,
  voter: checksummedAddressSchema,
  choices: z.array(z.int()),
  reason: z.string(),
  timestamp: z.int(),
  power: amount,
})
export type VoteListItem = z.infer<typeof voteListItemSchema>

/** GET /api/proposals/:id/votes */
export const voteListSchema = z.strictObject({
  votes: z.array(voteListItemSchema),
  next: z.nullable(cursorSchema),
})
export type VoteList = z.infer<typeof voteListSchema>

export const tallyJsonSchema = z.strictObject({
  version: z.int(),
  perChoice: z.array(amount),
  voters: z.int(),
  votingPower: amount,
  quorumPower: amount,
  quorumReached: z.boolean(),
  outcome: z.enum(['passed', 'rejected', 'no-quorum']),
  leading: z.array(z.int()),
})
export type TallyJson = z.infer<typeof tallyJsonSchema>

/** GET /api/proposals/:id */
export const proposalDetailSchema = z.extend(proposalSummarySchema, {
  message: proposalMessageSchema,
  signature: z.string(),
  tally: tallyJsonSchema,
  now: z.int(),
})
export type ProposalDetail = z.infer<typeof proposalDetailSchema>

// The live events (GET /api/proposals/:id/events and GET /api/events, server-sent): each event's id is the
// seq of the governance log entry it stands at, so a client that reconnects resumes after it.
/** `tally` on a proposal's stream: its totals as of log entry `seq` (every vote up to it counted in). */
export const liveTallySchema = z.strictObject({
  proposalId: bytes32Schema,
  seq: z.int(),
  tally: tallyJsonSchema,
  /** The server's clock (unix seconds) when the totals were read. */
  now: z.int(),
})
export type LiveTally = z.infer<typeof liveTallySchema>
/** `proposal` on the list's stream: a proposal was created, logged as entry `seq`. */
export const liveProposalSchema = z.strictObject({ proposalId: bytes32Schema, seq: z.int() })
export type LiveProposal = z.infer<typeof liveProposalSchema>

export const ZERO_POWER_CODES = [
  'no-tokens',
  'tokens-after-snapshot',
  'not-delegated',
  'delegated-to-other',
] as const
/** GET /api/proposals/:id/power/:address */
export const votingPowerSchema = z.strictObject({
  snapshot: z.int(),
  power: amount,
  source: z.enum(['index', 'chain']),
  reason: z.nullable(
    z.strictObject({
      code: z.enum(ZERO_POWER_CODES),
      message: z.string(),
      delegate: z.optional(checksummedAddressSchema),
    }),
  ),
})
export type VotingPowerAnswer = z.infer<typeof votingPowerSchema>

/** POST /api/proposals → { id }; POST /api/proposals/:id/votes → the vote's id and whether it counts. */
export const createdProposalSchema = z.strictObject({ id: bytes32Schema })
export const castVoteSchema = z.strictObject({ id: bytes32Schema, created: z.boolean(), counts: z.boolean() })
