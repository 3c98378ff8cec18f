// The chains the operator may name by id alone: every chain viem's `viem/chains` defines (ADR 027). Server
// only: the web app gets each configured chain's facts from the public config and never bundles this list.
import type { PublicChain } from '@guildhall/core'
import type { Chain } from 'viem'
import * as viemChains from 'viem/chains'

/** What Guildhall takes from viem's definition of a chain. */
export type KnownChain = Pick<
  PublicChain,
  'name' | 'nativeCurrency' | 'blockExplorerUrl' | 'multicall3' | 'testnet'
> & {
  /** viem's public RPC, which Guildhall uses only for the spec's default chains (PUBLIC_RPC_CHAIN_IDS). */
  publicRpcUrl: string
}

/**
 * Ethereum mainnet and Sepolia, the spec's default chains, run on viem's public RPC when RPC_URL_<id> is
 * unset, so that an unconfigured app starts as the spec describes. Any other chain needs its own RPC.
 */
export const PUBLIC_RPC_CHAIN_IDS: ReadonlySet<number> = new Set([
  viemChains.mainnet.id,
  viemChains.sepolia.id,
])

function facts(chain: Chain): KnownChain {
  return {
    name: chain.name,
    nativeCurrency: { ...chain.nativeCurrency },
    blockExplorerUrl: chain.blockExplorers?.default.url ?? null,
    multicall3: chain.contracts?.multicall3?.address ?? null,
    testnet: chain.testnet ?? false,
    publicRpcUrl: chain.rpcUrls.default.http[0] ?? '',
  }
}

let byId: Map<number, KnownChain[]> | undefined

/**
 * viem's chains with this id, one per distinct definition: usually one, none for a chain viem does not know,
 * several where viem gives one id to different chains (999 is HyperEVM, Wanchain Testnet and Zora Goerli).
 */
export function knownChains(id: number): KnownChain[] {
  if (!byId) {
    byId = new Map()
    for (const chain of Object.values(viemChains) as Chain[]) {
      const known = facts(chain)
      const same = byId.get(chain.id) ?? []
      // Variants of one chain (another public RPC, a preconfirmation endpoint) are one chain here.
      const key = JSON.stringify({ ...known, publicRpcUrl: undefined })
      if (!same.some((other) => JSON.stringify({ ...other, publicRpcUrl: undefined }) === key)) {
        byId.set(chain.id, [...same, known])
      }
    }
  }
  return byId.get(id) ?? []
}
