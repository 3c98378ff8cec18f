// The delegation's transaction: estimate, send, wait (lib/transaction-end.ts). Loaded when a member reaches for the delegation
// panel's controls, not with the first page: it brings viem's transaction code (≈ 12 KiB gzip) that a
// visitor, or a member who only reads, never runs.
import type { Address, Client, Hash } from 'viem'
import { estimateContractGas } from 'viem/actions'
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

// Its end is followed as every transaction's is, by the same code loaded with it.
export { transactionEnd } from '../../lib/transaction-end.ts'
