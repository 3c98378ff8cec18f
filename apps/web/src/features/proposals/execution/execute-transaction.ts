// The Safe's execTransaction for a queued proposal: its signatures packed as the Safe reads them, the
// transaction sent from the connected wallet, and followed to its end. Loaded when a member reaches for
// "Execute", not with the page: it brings viem's transaction code that a reader never runs.
import {
  execTransactionAbi,
  packSafeSignatures,
  type SafeConfirmation,
  type SafeTransactionJson,
} from '@guildhall/core'
import type { Address, Client, Hash } from 'viem'
import { estimateContractGas } from 'viem/actions'
import type { Config } from 'wagmi'
import { writeContract } from 'wagmi/actions'

export { transactionEnd } from '../../../lib/transaction-end.ts'

// Nodes estimate against the latest block; the Safe's own gas checks leave little room above the estimate.
const GAS_HEADROOM_PERCENT = 150n

/** Asks the wallet to send the Safe's execTransaction; resolves with the hash once it is sent. */
export async function sendExecution(
  config: Config,
  client: Client,
  {
    safe,
    account,
    transaction,
    confirmations,
  }: {
    safe: Address
    account: Address
    transaction: SafeTransactionJson
    confirmations: readonly SafeConfirmation[]
  },
): Promise<Hash> {
  const call = {
    address: safe,
    abi: execTransactionAbi,
    functionName: 'execTransaction',
    args: [
      transaction.to,
      BigInt(transaction.value),
      transaction.data,
      transaction.operation,
      BigInt(transaction.safeTxGas),
      BigInt(transaction.baseGas),
      BigInt(transaction.gasPrice),
      transaction.gasToken,
      transaction.refundReceiver,
      packSafeSignatures(confirmations),
    ],
  } as const
  // The estimate runs the batch: a batch that would revert (a spent nonce: GS026) fails here, before the wallet.
  const estimate = await estimateContractGas(client, { ...call, account })
  return writeContract(config, { ...call, gas: (estimate * GAS_HEADROOM_PERCENT) / 100n })
}
