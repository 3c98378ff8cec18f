// The Safe's execTransaction for a queued proposal: its signatures packed as the Safe reads them, the
// transaction sent from the connected wallet, and followed to its end. Loaded when a member reaches for
// "Execute", not with the page: it brings viem's transaction code that a reader never runs.
import type { SafeConfirmation, SafeTransactionJson } from '@guildhall/core'
import { type Address, type Client, concat, type Hash, type Hex, pad, parseAbi } from 'viem'
import { estimateContractGas } from 'viem/actions'
import type { Config } from 'wagmi'
import { writeContract } from 'wagmi/actions'

export { transactionEnd } from '../../../lib/transaction-end.ts'

const SAFE_EXEC_ABI = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
])

// Nodes estimate against the latest block; the Safe's own gas checks leave little room above the estimate.
const GAS_HEADROOM_PERCENT = 150n

/**
 * The signatures as execTransaction takes them: one 65-byte entry per owner, sorted by owner address (the
 * Safe checks them in ascending order); an on-chain approved hash is the entry {r: owner, s: 0, v: 1}.
 */
export function packSignatures(confirmations: readonly SafeConfirmation[]): Hex {
  const sorted = [...confirmations].sort((a, b) =>
    BigInt(a.owner) < BigInt(b.owner) ? -1 : BigInt(a.owner) > BigInt(b.owner) ? 1 : 0,
  )
  return concat(
    sorted.map((confirmation) =>
      confirmation.via === 'approved-hash' || !confirmation.signature
        ? concat([pad(confirmation.owner), pad('0x', { size: 32 }), '0x01'])
        : confirmation.signature,
    ),
  )
}

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
    abi: SAFE_EXEC_ABI,
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
      packSignatures(confirmations),
    ],
  } as const
  // The estimate runs the batch: a batch that would revert (a spent nonce: GS026) fails here, before the wallet.
  const estimate = await estimateContractGas(client, { ...call, account })
  return writeContract(config, { ...call, gas: (estimate * GAS_HEADROOM_PERCENT) / 100n })
}
