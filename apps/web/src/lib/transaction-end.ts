// How a transaction the app sent ends, for every transaction it follows (a delegation, a Safe execution).
// Imported only by code loaded on demand: it brings viem's receipt wait, which a member who only reads
// never runs.
import { DEFAULT_CONFIRMATIONS, RECEIPT_RETRY_COUNT, receiptRetryDelay } from '@guildhall/core'
import type { Client, Hash, ReplacementReason } from 'viem'
import { waitForTransactionReceipt } from 'viem/actions'

/**
 * How a transaction ended: mined and confirmed or reverted, or never run because the wallet sent another
 * transaction with its nonce: a cancellation (nothing sent to itself) or another call. A repriced one (sped
 * up: the same call with more gas) ends as that replacement does.
 */
export type TransactionEnd = 'confirmed' | 'reverted' | 'cancelled' | 'replaced'

export async function transactionEnd(client: Client, hash: Hash): Promise<TransactionEnd> {
  let replacedBy: ReplacementReason | undefined
  // viem's wait, not wagmi's: wagmi's throws "unknown reason" on a reverted receipt instead of returning it.
  const receipt = await waitForTransactionReceipt(client, {
    hash,
    confirmations: DEFAULT_CONFIRMATIONS,
    retryCount: RECEIPT_RETRY_COUNT,
    retryDelay: receiptRetryDelay,
    timeout: 0,
    // The receipt is then the replacement's.
    onReplaced: ({ reason }) => {
      replacedBy = reason
    },
  })
  if (replacedBy === 'cancelled' || replacedBy === 'replaced') return replacedBy
  return receipt.status === 'success' ? 'confirmed' : 'reverted'
}
