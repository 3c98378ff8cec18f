/**
 * The Safe transaction a passed proposal becomes (ADR 048), derived from its signed actions alone so that
 * anyone (the server, a signer's browser, the recount) gets the same one and the same hashes: every batch,
 * one action included, is a DELEGATECALL of MultiSendCallOnly's `multiSend`, with every gas and refund
 * field zero (a failing call then reverts the whole execution and leaves the nonce for a retry).
 */
import {
  type Address,
  concatHex,
  type Hex,
  hashDomain,
  hashStruct,
  hashTypedData,
  pad,
  parseAbi,
  zeroAddress,
} from 'viem'
import type { ProposalMessage } from '../governance/messages.ts'
import type { ProposalAction } from './actions.ts'
import { encodeMultiSend, type OPERATION_CALL, OPERATION_DELEGATE_CALL } from './multi-send.ts'

/** Safe's EIP-712 `SafeTx` (v1.3.0 and later), field for field as `Safe.getTransactionHash` hashes it. */
const SAFE_TX_TYPES = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const

export type SafeTransaction = {
  to: Address
  value: bigint
  data: Hex
  operation: typeof OPERATION_CALL | typeof OPERATION_DELEGATE_CALL
  safeTxGas: bigint
  baseGas: bigint
  gasPrice: bigint
  gasToken: Address
  refundReceiver: Address
  nonce: bigint
}

/**
 * The Safe transaction that runs `actions` at `nonce` through the MultiSendCallOnly at `multiSend` (the
 * one for the Safe's release: MULTI_SEND_CALL_ONLY). The ETH the calls send leaves the Safe inside the
 * batch, so the transaction itself sends none.
 */
export function safeTransactionForActions({
  actions,
  nonce,
  multiSend,
}: {
  actions: readonly ProposalAction[]
  nonce: bigint | number
  multiSend: Address
}): SafeTransaction {
  return {
    to: multiSend,
    value: 0n,
    data: encodeMultiSend(actions),
    operation: OPERATION_DELEGATE_CALL,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: zeroAddress,
    refundReceiver: zeroAddress,
    nonce: BigInt(nonce),
  }
}

/** The Safe `safe` on chain `chainId`: where a SafeTx is signed and executed. */
type SafeTarget = { chainId: number; safe: Address }

/** What a Safe owner signs for `transaction`: EIP-712 `SafeTx` under the domain {chainId, verifyingContract}. */
export function safeTransactionTypedData({
  chainId,
  safe,
  transaction,
}: SafeTarget & { transaction: SafeTransaction }) {
  return {
    domain: { chainId, verifyingContract: safe },
    types: SAFE_TX_TYPES,
    primaryType: 'SafeTx',
    message: transaction,
  } as const
}

/**
 * The safeTxHash (what owners sign, what `ExecutionSuccess` logs) and its two halves, the domain hash and
 * the message hash, which a hardware wallet shows for comparison.
 */
export function safeTransactionHashes({
  chainId,
  safe,
  transaction,
}: SafeTarget & { transaction: SafeTransaction }): {
  safeTxHash: Hex
  domainHash: Hex
  messageHash: Hex
} {
  const typedData = safeTransactionTypedData({ chainId, safe, transaction })
  return {
    safeTxHash: hashTypedData(typedData),
    domainHash: hashDomain({
      domain: { chainId: BigInt(chainId), verifyingContract: safe },
      types: {
        EIP712Domain: [
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
      },
    }),
    messageHash: hashStruct({ data: typedData.message, primaryType: 'SafeTx', types: SAFE_TX_TYPES }),
  }
}

/**
 * The Safe transaction a signed proposal's actions make at `nonce`, and its hashes; null for a proposal
 * without actions. Pure: what the server queues, owners sign and the recount checks an execution against.
 */
export function expectedSafeTransaction(
  proposal: ProposalMessage,
  nonce: bigint | number,
  { chainId, safe, multiSend }: SafeTarget & { multiSend: Address },
): ({ transaction: SafeTransaction } & ReturnType<typeof safeTransactionHashes>) | null {
  if (proposal.version !== 2 || proposal.actions.length === 0) return null
  const transaction = safeTransactionForActions({ actions: proposal.actions, nonce, multiSend })
  return { transaction, ...safeTransactionHashes({ chainId, safe, transaction }) }
}

/** The Safe's `execTransaction`, as the executor sends it and the recount decodes it. */
export const execTransactionAbi = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
])

/** An owner's confirmation of a Safe transaction: their signature, or null for an on-chain `approveHash`. */
type OwnerConfirmation = { owner: Address; signature: Hex | null }

/**
 * The signatures as `execTransaction` takes them: one 65-byte entry per owner, sorted by owner address (the
 * Safe checks them in ascending order); an on-chain approved hash is the entry {r: owner, s: 0, v: 1}.
 */
export function packSafeSignatures(confirmations: readonly OwnerConfirmation[]): Hex {
  const sorted = [...confirmations].sort((a, b) =>
    BigInt(a.owner) < BigInt(b.owner) ? -1 : BigInt(a.owner) > BigInt(b.owner) ? 1 : 0,
  )
  return concatHex(
    sorted.map(
      ({ owner, signature }) => signature ?? concatHex([pad(owner), pad('0x', { size: 32 }), '0x01']),
    ),
  )
}
