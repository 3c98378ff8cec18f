import { proposalExecutionSchema, type SafeTransaction, safeTransactionTypedData } from '@guildhall/core'
import type { Address, Hex, TypedDataDefinition } from 'viem'
import { apiSend } from '../../../lib/api.ts'
import { useSignedAction } from '../../../lib/signed-action.ts'
import { proposalKeys } from './keys.ts'

/** What an owner signs: the Safe transaction the browser derived, under the Safe's own EIP-712 domain. */
export type SafeSignatureMessage = {
  proposalId: string
  owner: Address
  chainId: number
  safe: Address
  safeTxHash: Hex
  transaction: SafeTransaction
}

/**
 * POST /api/proposals/:id/execution/signatures: an owner's SafeTx signature, checked against the derived
 * hash and logged (kind `safe-signature`); answers the execution as it now stands.
 */
const submitSignature = ({ message, signature }: { message: SafeSignatureMessage; signature: Hex }) =>
  apiSend(
    'POST',
    `/api/proposals/${message.proposalId}/execution/signatures`,
    { owner: message.owner, safeTxHash: message.safeTxHash, signature },
    proposalExecutionSchema,
  )

/**
 * Signs the Safe transaction with the connected owner's wallet (the SafeTx domain {chainId,
 * verifyingContract: safe}, not the DAO's) and submits it; done once the execution has been read again.
 */
export function useSignExecution() {
  return useSignedAction({
    typedData: (_governance, message: SafeSignatureMessage) =>
      safeTransactionTypedData(message) as unknown as TypedDataDefinition,
    submit: submitSignature,
    changes: ({ message }) => [proposalKeys.execution(message.proposalId)],
  })
}
