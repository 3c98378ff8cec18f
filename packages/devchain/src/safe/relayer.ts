// Sending Safe transactions on the development chain: the chain's clients and the relayer that pays.
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hash,
  http,
  type LocalAccount,
  parseEther,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { ANVIL_MNEMONIC } from '../accounts.ts'

export type ChainTarget = { rpcUrl: string; chainId: number }

export function clients({ rpcUrl, chainId }: ChainTarget) {
  const chain = defineChain({
    id: chainId,
    name: 'Guildhall devchain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const options = { chain, transport: http(rpcUrl), pollingInterval: 50 }
  return {
    publicClient: createPublicClient(options),
    walletClient: createWalletClient(options),
    testClient: createTestClient({ ...options, mode: 'anvil' }),
  }
}
export type Clients = ReturnType<typeof clients>

let relayerAccount: LocalAccount | undefined
/**
 * Sends every Safe transaction (deployments, proxy creation, execTransaction). It is account 10 of the
 * anvil mnemonic — outside the 10 funded accounts, funded here with anvil_setBalance — so that nonces of
 * accounts 0–9 never change: the demo token's address depends on account 0's nonce. Who sends does not
 * matter to Safe: CREATE2 addresses and owner signatures do not involve the sender.
 */
export function safeRelayer(): LocalAccount {
  relayerAccount ??= mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 10 })
  return relayerAccount
}

export async function fundRelayer({ publicClient, testClient }: Clients) {
  const relayer = safeRelayer().address
  if ((await publicClient.getBalance({ address: relayer })) < parseEther('10')) {
    await testClient.setBalance({ address: relayer, value: parseEther('1000') })
  }
}

export async function successfulReceipt({ publicClient }: Clients, hash: Hash, what: string) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
  if (receipt.status !== 'success') throw new Error(`${what}: transaction ${hash} reverted`)
  return receipt
}
