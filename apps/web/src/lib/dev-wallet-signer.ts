// The development wallet's signing, loaded on its first signature: anvil's test keys (public, in
// @guildhall/devchain/browser) sign in the browser and transactions go out raw, because the app's
// /rpc proxy serves no method that uses the node's unlocked accounts (ADR 017).
import { anvilAccounts, type WalletSignerRequest } from '@guildhall/devchain/browser'
import {
  BaseError,
  createWalletClient,
  custom,
  type Hex,
  hexToBigInt,
  hexToNumber,
  isHex,
  type SendTransactionParameters,
  type TypedDataDefinition,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

type ProviderError = Error & { code: number; data?: unknown }

function providerError(code: number, message: string, data?: unknown): ProviderError {
  return Object.assign(new Error(message), { code }, data === undefined ? {} : { data })
}

const quantity = (value: unknown): bigint | undefined =>
  typeof value === 'string' && isHex(value) ? hexToBigInt(value) : undefined

/** An eth_sendTransaction object (hex quantities) as viem's sendTransaction takes it. */
function transactionOf(tx: Record<string, unknown>) {
  const fees =
    tx.gasPrice !== undefined
      ? { gasPrice: quantity(tx.gasPrice) }
      : { maxFeePerGas: quantity(tx.maxFeePerGas), maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas) }
  return {
    to: (tx.to ?? undefined) as Hex | undefined,
    data: (tx.data ?? tx.input ?? undefined) as Hex | undefined,
    value: quantity(tx.value),
    gas: quantity(tx.gas),
    nonce: typeof tx.nonce === 'string' && isHex(tx.nonce) ? hexToNumber(tx.nonce) : undefined,
    ...fees,
  }
}

// One client per account and RPC: viem remembers on a client that the RPC lacks eth_fillTransaction (the
// proxy refuses it) and then asks for nonce, gas and fees one by one, without trying again each time.
const clients = new Map<string, ReturnType<typeof createWalletClient>>()
/** The wallet's current chain: a switch changes where the cached clients' requests go. */
let current: WalletSignerRequest['rpc'] = () => Promise.reject(new Error('no chain yet'))

/** Signs `request` with the key of its account, the way an extension wallet would. */
export async function signLocally({ method, params, address, rpc }: WalletSignerRequest): Promise<unknown> {
  const key = anvilAccounts.find((a) => a.address.toLowerCase() === address.toLowerCase())?.privateKey
  if (!key) throw providerError(4100, `The development wallet holds no key for ${address}.`)
  const account = privateKeyToAccount(key)
  const list = Array.isArray(params) ? params : []
  try {
    switch (method) {
      case 'personal_sign': {
        const message = list[0]
        if (typeof message !== 'string') throw providerError(-32602, 'personal_sign takes a message.')
        return await account.signMessage({ message: isHex(message) ? { raw: message } : message })
      }
      case 'eth_signTypedData_v4': {
        const typed = typeof list[1] === 'string' ? JSON.parse(list[1]) : list[1]
        return await account.signTypedData(typed as TypedDataDefinition)
      }
      case 'eth_sendTransaction': {
        let client = clients.get(address.toLowerCase())
        if (!client) {
          client = createWalletClient({
            account,
            transport: custom({ request: ({ method, params }) => current(method, params ?? []) }),
          })
          clients.set(address.toLowerCase(), client)
        }
        current = rpc
        const tx = (list[0] ?? {}) as Record<string, unknown>
        return await client.sendTransaction({
          ...transactionOf(tx),
          account,
          chain: null,
        } as SendTransactionParameters)
      }
      default:
        throw providerError(4200, `The development wallet does not support ${method}.`)
    }
  } catch (error) {
    if (!(error instanceof BaseError)) throw error
    // The node's own error (a revert with its data, a nonce too low) is what a dapp can act on.
    const cause = error.walk((e) => typeof (e as { code?: unknown }).code === 'number') as
      | (Error & { code: number; data?: unknown })
      | null
    throw providerError(cause?.code ?? -32603, error.shortMessage, cause?.data)
  }
}
