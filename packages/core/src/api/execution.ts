// Carrying out a passed proposal through the DAO's Safe (ADR 051): the Safe's signers execute, the API
// derives the one Safe transaction a proposal's signed actions allow and records who signed it, and anyone
// can check what the Safe did against it.
import {
  bytes32Schema,
  checksummedAddressSchema,
  decimalStringSchema,
  signatureSchema,
} from '../primitives.ts'
import { proposalActionsSchema } from '../treasury/actions.ts'
import { z } from '../zod.ts'

const EXECUTION_STATES = [
  /** The proposal carries no actions: nothing to execute. */
  'none',
  /** Not final, or final and not passed. */
  'not-passed',
  /** Passed; the objection delay (EXECUTION_DELAY_SECONDS after the end) has not run out. */
  'waiting-delay',
  /** Anyone may queue it now. */
  'ready-to-queue',
  /** Queued at a nonce; signers sign, then anyone executes. */
  'queued',
  /** The Safe executed the queued transaction (its ExecutionSuccess carries the derived hash). */
  'executed',
  /** Another transaction used the queued nonce: queue again, sign again. */
  'superseded',
  /** Queued, but an earlier nonce is still unused and the app did not queue it. */
  'waiting-earlier-nonce',
  /** Not executed before EXECUTION_EXPIRY_SECONDS after the end: the queue is closed. */
  'expired',
] as const
export type ExecutionState = (typeof EXECUTION_STATES)[number]

/** A whole number that may be negative, as a decimal string (a balance change). */
const signedDecimalStringSchema = z.string().check(z.regex(/^-?\d+$/))

/** A Safe transaction (the EIP-712 `SafeTx` fields) as JSON carries it: its whole numbers as decimal strings. */
export const safeTransactionJsonSchema = z.strictObject({
  to: checksummedAddressSchema,
  value: decimalStringSchema,
  data: signatureSchema,
  /** 0 CALL, 1 DELEGATECALL (the app's batches: DELEGATECALL to the canonical MultiSendCallOnly). */
  operation: z.union([z.literal(0), z.literal(1)]),
  safeTxGas: decimalStringSchema,
  baseGas: decimalStringSchema,
  gasPrice: decimalStringSchema,
  gasToken: checksummedAddressSchema,
  refundReceiver: checksummedAddressSchema,
  nonce: decimalStringSchema,
})
export type SafeTransactionJson = z.infer<typeof safeTransactionJsonSchema>

/** One owner's confirmation of a queued transaction. */
const safeConfirmationSchema = z.strictObject({
  owner: checksummedAddressSchema,
  /** `signature`: an EIP-712 signature given in the app; `approved-hash`: the owner's on-chain approveHash. */
  via: z.enum(['signature', 'approved-hash']),
  /** The signature as execTransaction takes it (v 27/28); null for an approved hash. */
  signature: z.nullable(signatureSchema),
  /** The governance log entry (kind `safe-signature`) that records it; null for an approved hash. */
  logSeq: z.nullable(z.int()),
})
export type SafeConfirmation = z.infer<typeof safeConfirmationSchema>

const queueEntryFields = {
  nonce: z.int(),
  transaction: safeTransactionJsonSchema,
  /** What the signers sign and the Safe's ExecutionSuccess names; domain and message hash for hardware wallets. */
  safeTxHash: bytes32Schema,
  domainHash: bytes32Schema,
  messageHash: bytes32Schema,
  /** When it was queued (unix seconds). */
  queuedAt: z.int(),
  signatures: z.array(safeConfirmationSchema),
}

/** The current queue entry, with the Safe's owners and threshold as last read. */
const queuedExecutionSchema = z.strictObject({
  ...queueEntryFields,
  threshold: z.int(),
  owners: z.array(checksummedAddressSchema),
})

/** An earlier queue entry: its nonce was used by another transaction. */
const supersededExecutionSchema = z.strictObject({
  ...queueEntryFields,
  /** The Safe transaction that used the nonce instead, when the app saw it. */
  replacedBy: z.nullable(bytes32Schema),
})

/** GET /api/proposals/:id/execution, and the answer of queue and signatures. */
export const proposalExecutionSchema = z.strictObject({
  state: z.enum(EXECUTION_STATES),
  /** From when it may be queued (unix seconds); null without actions or before it passed. */
  executableAfter: z.nullable(z.int()),
  /** Until when it may be queued and executed (unix seconds). */
  expiresAt: z.nullable(z.int()),
  /** The Safe's current nonce as last read; null when there is no Safe or it could not be read. */
  safeNonce: z.nullable(z.int()),
  queued: z.nullable(queuedExecutionSchema),
  executed: z.nullable(
    z.strictObject({ transactionHash: bytes32Schema, blockNumber: z.int(), timestamp: z.int() }),
  ),
  history: z.array(supersededExecutionSchema),
})
export type ProposalExecution = z.infer<typeof proposalExecutionSchema>

/** POST /api/proposals/:id/execution/signatures */
export const safeSignatureRequestSchema = z.strictObject({
  owner: checksummedAddressSchema,
  safeTxHash: bytes32Schema,
  signature: signatureSchema,
})
export type SafeSignatureRequest = z.infer<typeof safeSignatureRequestSchema>

/** POST /api/treasury/simulate: a batch of actions as a proposal would carry them. */
export const simulateRequestSchema = z.strictObject({
  actions: proposalActionsSchema,
  changesSafeSettings: z.boolean(),
})

/**
 * POST /api/treasury/simulate's answer. The balance changes are derived from the batch's decoded ERC-20
 * transfers and ETH values (not traced), so a call that moves funds in another way shows none.
 */
export const simulationSchema = z.strictObject({
  success: z.boolean(),
  /** The revert reason, when the batch reverts. */
  revert: z.nullable(z.string()),
  gasUsed: decimalStringSchema,
  balanceChanges: z.array(
    z.strictObject({
      /** null: the native coin. */
      token: z.nullable(checksummedAddressSchema),
      account: checksummedAddressSchema,
      delta: signedDecimalStringSchema,
    }),
  ),
})
export type Simulation = z.infer<typeof simulationSchema>

/**
 * The proposal stream's `execution` event: a signature was logged as entry `seq`; the client reads
 * GET /api/proposals/:id/execution again.
 */
export const liveExecutionSchema = z.strictObject({ proposalId: bytes32Schema, seq: z.int() })
export type LiveExecution = z.infer<typeof liveExecutionSchema>
