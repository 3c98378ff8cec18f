// The delegation's transaction: estimate, send, wait. Loaded when a member reaches for the delegation
// panel's controls, not with the first page: it brings viem's transaction code (≈ 12 KiB gzip) that a
// visitor, or a member who only reads, never runs.
import { DEFAULT_CONFIRMATIONS, RECEIPT_RETRY_COUNT, receiptRetryDelay } from '@guildhall/core'
import type { Address, Client, Hash, ReplacementReason } from 'viem'
import { estimateContractGas, waitForTransactionReceipt } from 'viem/actions'
import type { Config } from 'wagmi'
import { writeContract } from 'wagmi/actions'
import type { useTokenContract } from '../../lib/token.ts'

type Token = NonNullable<ReturnType<typeof useTokenContract>>

const GAS_HEADROOM_PERCENT = 150n

/** Asks the wallet to send `delegate(delegatee)`; resolves with the hash once it is sent. */
export async function sendDelegation(
  config: Config,
  client: Client,
  token: Token,
  account: Address,
  delegatee: Address,
): Promise<Hash> {
  const call = { ...token, functionName: 'delegate', args: [delegatee] } as const
  // Nodes estimate against the latest block; a vote checkpoint written in the next block costs more.
  const estimate = await estimateContractGas(client, { ...call, account })
  return writeContract(config, { ...call, gas: (estimate * GAS_HEADROOM_PERCENT) / 100n })
}

/**
 * How the delegation ended: mined and confirmed or reverted, or never run because the wallet sent another
 * transaction with its nonce: a cancellation (nothing sent to itself) or another call. A repriced one (sped
 * up: the same call with more gas) ends as that replacement does.
 */
export type DelegationEnd = 'confirmed' | 'reverted' | 'cancelled' | 'replaced'

export async function delegationEnd(client: Client, hash: Hash): Promise<DelegationEnd> {
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
