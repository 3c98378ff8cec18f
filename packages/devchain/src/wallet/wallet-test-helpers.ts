// Shared by the test wallet's tests: two real anvils (two chain ids) on 127.0.0.1, so switching really
// changes where RPC goes.
import type { Hex } from 'viem'
import { type AnvilInstance, getFreePort, startAnvil } from '../anvil.ts'
import type { TestWalletChain } from './anvil-provider.ts'

async function rawRpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

async function startNode(chainId: number): Promise<AnvilInstance> {
  return startAnvil({ port: await getFreePort(), chainId, quiet: true })
}

export type WalletChains = {
  chainA: AnvilInstance
  chainB: AnvilInstance
  accounts: Hex[]
  chainsOf: () => TestWalletChain[]
  stop: () => Promise<void>
}

/** Starts chain A (31337) and chain B (31338); `chainsOf` gives the wallet's view of both, A first. */
export async function startWalletChains(): Promise<WalletChains> {
  const [chainA, chainB] = await Promise.all([startNode(31337), startNode(31338)])
  const accounts = (await rawRpc(chainA.url, 'eth_accounts')) as Hex[]
  return {
    chainA,
    chainB,
    accounts,
    chainsOf: () => [
      { chainId: chainA.chainId, rpcUrl: chainA.url, name: 'Anvil A' },
      { chainId: chainB.chainId, rpcUrl: chainB.url, name: 'Anvil B' },
    ],
    stop: async () => {
      await Promise.all([chainA.stop(), chainB.stop()])
    },
  }
}
