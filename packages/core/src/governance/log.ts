/**
 * The hash-chained log every accepted proposal, vote, delegate statement, Safe signature (a signer's
 * confirmation of a proposal's queued Safe transaction) and discussion message (ADR 052) is appended to, so
 * results and threads can be re-checked. An entry's kind is hashed as its string, so kinds added later
 * leave older entries' hashes as they were.
 */
import {
  type Address,
  bytesToHex,
  encodeAbiParameters,
  type Hex,
  hexToBytes,
  keccak256,
  zeroHash,
} from 'viem'
import { keccak256Bytes } from '../keccak.ts'
import { hexSchema } from '../primitives.ts'
import { z } from '../zod.ts'

const LOG_ENTRY_KINDS = [
  'proposal',
  'vote',
  'statement',
  'safe-signature',
  // Discussion (ADR 052): each signed message's kind, and the operator's takedown of one (its messageId the
  // taken-down message's id, its signature '0x').
  'discussion-key',
  'key-revocation',
  'topic',
  'comment',
  'withdrawal',
  'reaction',
  'flag',
  'moderation',
  'takedown',
] as const
export type LogEntryKind = (typeof LOG_ENTRY_KINDS)[number]

/** One entry as the API answers it (a result bundle's `log`, GET /api/governance/log). */
export const logEntrySchema = z.object({
  /** 1, 2, 3 … with no gap. */
  seq: z.int().check(z.positive()),
  kind: z.enum(LOG_ENTRY_KINDS),
  /** The message's EIP-712 digest, which commits to everything that was signed (a Safe signature's: safeSignatureId). */
  messageId: hexSchema,
  signature: hexSchema,
  /** The previous entry's hash; LOG_GENESIS_HASH for entry 1. */
  prevHash: hexSchema,
  hash: hexSchema,
})
export type LogEntry = z.infer<typeof logEntrySchema>
export const LOG_GENESIS_HASH: Hex = zeroHash

/**
 * A `safe-signature` entry's message id: the safeTxHash the owner signed, with the owner, since every owner
 * signs the same hash and a message id names one entry.
 */
export function safeSignatureId(safeTxHash: Hex, owner: Address): Hex {
  return keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'address' }], [safeTxHash, owner]))
}

/** An entry's hash: keccak256 of its ABI-encoded fields, the previous hash included. */
export function logEntryHash(entry: Omit<LogEntry, 'hash'>): Hex {
  const encoded = encodeAbiParameters(
    [{ type: 'uint64' }, { type: 'string' }, { type: 'bytes32' }, { type: 'bytes' }, { type: 'bytes32' }],
    [BigInt(entry.seq), entry.kind, entry.messageId, entry.signature, entry.prevHash],
  )
  return bytesToHex(keccak256Bytes(hexToBytes(encoded)))
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
