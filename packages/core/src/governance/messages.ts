/**
 * The signed governance messages (docs/product.md, docs/security.md "Signed governance messages"): one
 * EIP-712 definition each for Proposal (two versions, ADR 048), Vote and DelegateStatement, the JSON shape the API receives them in, the typed data a
 * wallet signs and the ids (digests) they get. Shared by apps/web (what the wallet signs) and apps/api
 * (what the server rebuilds and verifies); the client's domain and types are never trusted.
 */
import type { Address, Hex, LocalAccount, TypedDataDefinition, TypedDataDomain } from 'viem'
import {
  bytes32Schema,
  chainIdSchema,
  checksummedAddressSchema,
  hexSchema,
  signatureSchema,
  tokenAmountSchema,
} from '../primitives.ts'
import { proposalActionsSchema } from '../treasury/actions.ts'
import { typedDataDigest } from '../typed-data-digest.ts'
import { z } from '../zod.ts'
import { durationInWords, GOVERNANCE_LIMITS, PROPOSAL_KINDS } from './rules.ts'

const GOVERNANCE_DOMAIN_NAME = 'Guildhall'
const GOVERNANCE_DOMAIN_VERSION = '1'

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

/** The domain as a bundle carries it (any hex for the token: the recount checksums it itself). */
export const governanceDomainSchema = z.object({
  name: z.literal(GOVERNANCE_DOMAIN_NAME),
  version: z.literal(GOVERNANCE_DOMAIN_VERSION),
  chainId: chainIdSchema,
  verifyingContract: hexSchema,
})

/** The choices of a basic proposal, in this order (1 For, 2 Against, 3 Abstain). */
export const BASIC_CHOICES = ['For', 'Against', 'Abstain'] as const
export const BASIC_FOR = 1
export const BASIC_AGAINST = 2
export const BASIC_ABSTAIN = 3

/** Wallet-friendly field types: strings, numbers, one flat array each; the author or voter inside. */
const proposalTypes = {
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

/**
 * Version 2 (ADR 048): version 1's fields in their order, then the category, whether the proposal changes
 * its Safe's settings, and the actions the Safe makes once it passes. A new type hash, so version 1's
 * messages keep their types and ids.
 */
const proposalTypesV2 = {
  Proposal: [
    ...proposalTypes.Proposal,
    { name: 'category', type: 'string' },
    { name: 'changesSafeSettings', type: 'bool' },
    { name: 'actions', type: 'Action[]' },
  ],
  Action: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
} as const

const voteTypes = {
  Vote: [
    { name: 'voter', type: 'address' },
    { name: 'proposal', type: 'bytes32' },
    { name: 'choices', type: 'uint32[]' },
    { name: 'reason', type: 'string' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const

/**
 * Version 2 (ADR 059): version 1's fields with `weights` after `choices`, one per picked choice, so a wallet
 * shows a weighted ballot as numbers. A new type hash, so version 1's messages keep their types and ids.
 */
const voteTypesV2 = {
  Vote: [
    { name: 'voter', type: 'address' },
    { name: 'proposal', type: 'bytes32' },
    { name: 'choices', type: 'uint32[]' },
    { name: 'weights', type: 'uint32[]' },
    { name: 'reason', type: 'string' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const

/** A delegate's statement: who they are and how they will vote, in markdown; a later one replaces it. */
const delegateStatementTypes = {
  DelegateStatement: [
    { name: 'delegate', type: 'address' },
    { name: 'statement', type: 'string' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const

/** A UTF-16 surrogate not paired with its other half: with the `u` flag a valid pair is one code point. */
const LONE_SURROGATE = /\p{Cs}/u

/**
 * Text as a person would type it: no NUL bytes (PostgreSQL refuses them, and they hide text), and valid
 * Unicode: EIP-712 hashes a string's UTF-8 bytes, where every lone surrogate becomes U+FFFD, so texts that
 * differ only there would share one digest (one id), and PostgreSQL's jsonb refuses them.
 */
export const signedText = (max: number, what: string) =>
  z.string().check(
    z.maxLength(max, `${what} must be at most ${max} characters`),
    z.refine((value) => !value.includes('\u0000'), `${what} must not contain NUL characters`),
    z.refine((value) => !LONE_SURROGATE.test(value), `${what} must be valid Unicode text`),
  )

/**
 * Unix seconds: a whole, non-negative number that fits uint64 and a JavaScript number. `z.int` as a check
 * of `z.number()`, so its message is for fractions only and a non-number still reads "expected number".
 */
export const unixSeconds = z
  .number()
  .check(z.int('must be whole seconds'), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER))

/** Version 1's fields, each checked on its own; every later version starts with them. */
const proposalFieldsV1 = {
  author: checksummedAddressSchema,
  title: signedText(GOVERNANCE_LIMITS.titleMax, 'The title').check(
    z.refine((value) => value.trim().length > 0, 'The title must not be empty'),
  ),
  body: signedText(GOVERNANCE_LIMITS.bodyMax, 'The body'),
  kind: z.enum(PROPOSAL_KINDS, `The kind must be one of ${PROPOSAL_KINDS.join(', ')}`),
  choices: z
    .array(
      signedText(GOVERNANCE_LIMITS.choiceMax, 'A choice').check(
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
  quorum: tokenAmountSchema,
  threshold: tokenAmountSchema,
  abstainCountsToQuorum: z.boolean(),
  timestamp: unixSeconds,
}

/** The rules every version's proposal follows. */
const proposalRules = z.superRefine((message: z.infer<z.ZodMiniObject<typeof proposalFieldsV1>>, context) => {
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
})

/** Version 1: the fields it always had; `version` absent (as every version 1 client sends it) or 1. */
const proposalMessageV1Schema = z
  .strictObject({ ...proposalFieldsV1, version: z.optional(z.literal(1)) })
  .check(proposalRules)

/** Version 2 (ADR 048): a category, and actions for the DAO's Safe (basic proposals only). */
const proposalMessageV2Schema = z
  .strictObject({
    ...proposalFieldsV1,
    version: z.literal(2),
    /** '' for none; the API also checks it is one of the DAO's PROPOSAL_CATEGORIES. */
    category: signedText(GOVERNANCE_LIMITS.categoryMax, 'The category'),
    changesSafeSettings: z.boolean(),
    actions: proposalActionsSchema,
  })
  .check(
    proposalRules,
    z.superRefine((message, context) => {
      if (message.kind !== 'basic' && message.actions.length > 0) {
        context.addIssue({
          code: 'custom',
          path: ['actions'],
          message: `Only a basic proposal (${BASIC_CHOICES.join(', ')}) may carry actions: its result says whether to make them`,
        })
      }
      if (message.changesSafeSettings && message.actions.length === 0) {
        context.addIssue({
          code: 'custom',
          path: ['changesSafeSettings'],
          message: "A proposal that changes the Safe's settings carries the actions that change them",
        })
      }
    }),
  )

/**
 * A proposal as signed: version 1 (no `version` field) or version 2 (`version: 2`); the version picks the
 * EIP-712 types (`proposalTypedData`), so each keeps its own ids. The version itself is not signed: the
 * types differ, so no signature is valid under both.
 */
export const proposalMessageSchema = z.discriminatedUnion(
  'version',
  [proposalMessageV1Schema, proposalMessageV2Schema],
  { error: 'The version must be 1 (or absent) or 2' },
)
export type ProposalMessage = z.infer<typeof proposalMessageSchema>
export type ProposalMessageV1 = z.infer<typeof proposalMessageV1Schema>
export type ProposalMessageV2 = z.infer<typeof proposalMessageV2Schema>

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

/**
 * Weights as the voter gave them, one per picked choice in the same order: whole numbers from 1 (a choice
 * given nothing is left out). Whether there is one per choice is `voteChoicesProblem`.
 */
const voteWeightsSchema = z
  .array(
    z
      .number('Each weight must be a number')
      .check(
        z.int('Each weight must be a whole number'),
        z.gte(1, 'Each weight must be at least 1; leave a choice out to give it nothing'),
        z.lte(GOVERNANCE_LIMITS.weightMax, `Each weight must be at most ${GOVERNANCE_LIMITS.weightMax}`),
      ),
  )
  .check(
    z.maxLength(
      GOVERNANCE_LIMITS.choicesMax,
      `No proposal has more than ${GOVERNANCE_LIMITS.choicesMax} choices`,
    ),
  )

const voteFieldsV1 = {
  voter: checksummedAddressSchema,
  /** The proposal's id: its EIP-712 digest. */
  proposal: bytes32Schema,
  choices: voteChoicesSchema,
  reason: signedText(GOVERNANCE_LIMITS.reasonMax, 'The reason'),
  timestamp: unixSeconds,
}

/** Version 1: no weights; `version` absent (as every version 1 client sends it) or 1. */
const voteMessageV1Schema = z.strictObject({ ...voteFieldsV1, version: z.optional(z.literal(1)) })
/** Version 2 (ADR 059): one weight per picked choice; `[]` on a kind that takes no weights. */
const voteMessageV2Schema = z.strictObject({
  ...voteFieldsV1,
  version: z.literal(2),
  weights: voteWeightsSchema,
})

/**
 * A vote as signed: version 1 (no `version` field) or version 2 (`version: 2`, with weights); the version
 * picks the EIP-712 types (`voteTypedData`), so each keeps its own ids. Clients sign version 2 only for the
 * kinds that take weights (`kindTakesWeights`); the server accepts either on every kind.
 */
export const voteMessageSchema = z.discriminatedUnion('version', [voteMessageV1Schema, voteMessageV2Schema], {
  error: 'The version must be 1 (or absent) or 2',
})
export type VoteMessage = z.infer<typeof voteMessageSchema>
export type VoteMessageV1 = z.infer<typeof voteMessageV1Schema>
export type VoteMessageV2 = z.infer<typeof voteMessageV2Schema>

/** A vote's weights: version 2's, or undefined for version 1 (`voteChoicesProblem` and `CountedVote` read it so). */
export const voteWeights = (message: VoteMessage): readonly number[] | undefined =>
  message.version === 2 ? message.weights : undefined

const utf8 = new TextEncoder()
/** Markdown, stored and shown verbatim as signed (sanitised where it is rendered); may be empty, to withdraw one. */
export const delegateStatementMessageSchema = z.strictObject({
  delegate: checksummedAddressSchema,
  statement: signedText(GOVERNANCE_LIMITS.statementMax, 'The statement').check(
    // Characters alone would let 4-byte characters (emoji) weigh twice the limit in the database and the log.
    z.refine(
      (value) => utf8.encode(value).length <= GOVERNANCE_LIMITS.statementMaxBytes,
      `The statement must be at most ${GOVERNANCE_LIMITS.statementMaxBytes} bytes in UTF-8 (an accented letter takes 2, most other scripts 3, an emoji 4)`,
    ),
  ),
  timestamp: unixSeconds,
})
export type DelegateStatementMessage = z.infer<typeof delegateStatementMessageSchema>

/** POST /api/proposals body. An empty signature (`0x`) is a Safe's on-chain approved hash. */
export const signedProposalSchema = z.strictObject({
  message: proposalMessageSchema,
  signature: signatureSchema,
})
export type SignedProposal = z.infer<typeof signedProposalSchema>
/** POST /api/proposals/:id/votes body. */
export const signedVoteSchema = z.strictObject({ message: voteMessageSchema, signature: signatureSchema })
export type SignedVote = z.infer<typeof signedVoteSchema>
/** POST /api/delegates/:address/statement body. */
export const signedDelegateStatementSchema = z.strictObject({
  message: delegateStatementMessageSchema,
  signature: signatureSchema,
})
export type SignedDelegateStatement = z.infer<typeof signedDelegateStatementSchema>

/** The typed data a wallet signs and the server verifies, numbers widened to what EIP-712 encodes. */
/** Typed by viem's general definition: the two versions' types differ, and every consumer takes either. */
export function proposalTypedData(domain: GovernanceDomain, message: ProposalMessage): TypedDataDefinition {
  const fields = {
    author: message.author,
    title: message.title,
    body: message.body,
    kind: message.kind,
    choices: [...message.choices],
    start: BigInt(message.start),
    end: BigInt(message.end),
    snapshot: BigInt(message.snapshot),
    quorum: BigInt(message.quorum),
    threshold: BigInt(message.threshold),
    abstainCountsToQuorum: message.abstainCountsToQuorum,
    timestamp: BigInt(message.timestamp),
  }
  if (message.version === 2) {
    return {
      domain,
      types: proposalTypesV2,
      primaryType: 'Proposal',
      message: {
        ...fields,
        category: message.category,
        changesSafeSettings: message.changesSafeSettings,
        actions: message.actions.map((action) => ({ ...action, value: BigInt(action.value) })),
      },
    }
  }
  return { domain, types: proposalTypes, primaryType: 'Proposal', message: fields }
}

/** Typed by viem's general definition, like proposals: the two versions' types differ. */
export function voteTypedData(domain: GovernanceDomain, message: VoteMessage): TypedDataDefinition {
  const fields = {
    voter: message.voter,
    proposal: message.proposal,
    choices: [...message.choices],
    reason: message.reason,
    timestamp: BigInt(message.timestamp),
  }
  if (message.version === 2) {
    return {
      domain,
      types: voteTypesV2,
      primaryType: 'Vote',
      message: { ...fields, weights: [...message.weights] },
    }
  }
  return { domain, types: voteTypes, primaryType: 'Vote', message: fields }
}

export function delegateStatementTypedData(domain: GovernanceDomain, message: DelegateStatementMessage) {
  return {
    domain,
    types: delegateStatementTypes,
    primaryType: 'DelegateStatement',
    message: { ...message, timestamp: BigInt(message.timestamp) },
  } as const
}

/** A proposal's id: the EIP-712 digest of what its author signed. */
export const proposalId = (domain: GovernanceDomain, message: ProposalMessage): Hex =>
  typedDataDigest(proposalTypedData(domain, message))
/** A vote's id: the EIP-712 digest of what the voter signed. */
export const voteId = (domain: GovernanceDomain, message: VoteMessage): Hex =>
  typedDataDigest(voteTypedData(domain, message))
/** A statement's id: the EIP-712 digest of what the delegate signed. */
export const delegateStatementId = (domain: GovernanceDomain, message: DelegateStatementMessage): Hex =>
  typedDataDigest(delegateStatementTypedData(domain, message) as TypedDataDefinition)

/** A governance message with its EIP-712 primary type. */
type GovernanceMessage =
  | { type: 'Proposal'; message: ProposalMessage }
  | { type: 'Vote'; message: VoteMessage }
  | { type: 'DelegateStatement'; message: DelegateStatementMessage }

const governanceTypedData = {
  Proposal: proposalTypedData,
  Vote: voteTypedData,
  DelegateStatement: delegateStatementTypedData,
} as const

/**
 * A governance message signed with `account`'s key under `domain`: the body the API receives, and the id it
 * stores it under. For code that holds keys (the demo seed, tests, the bench); the web app signs through the
 * member's wallet instead.
 */
export async function signGovernanceMessage<M extends GovernanceMessage>(
  account: Pick<LocalAccount, 'signTypedData'>,
  domain: GovernanceDomain,
  { type, message }: M,
): Promise<{ message: M['message']; signature: Hex; id: Hex }> {
  // One of the three definitions above, picked by `type`; TypeScript cannot follow the pairing through the union.
  const typedData = governanceTypedData[type](domain, message as never) as TypedDataDefinition
  return {
    message,
    signature: await account.signTypedData(typedData),
    id: typedDataDigest(typedData),
  }
}
