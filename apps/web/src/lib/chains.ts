import { isWebSocketUrl, type PublicChain } from '@guildhall/core'
import { type Chain, defineChain } from 'viem'
import { mainnet, sepolia } from 'viem/chains'

/** viem's definitions carry the name-service contracts; keep them for the two chains that have them. */
const KNOWN: Record<number, Chain> = { [mainnet.id]: mainnet, [sepolia.id]: sepolia }

/**
 * A viem chain for each configured chain, with the configured RPC URL; everything else comes from the public
 * config (the server takes it from viem's chain list, which the page never loads). No icon: RainbowKit
 * finds its own for the chain ids it knows. A WebSocket RPC is no URL a wallet can add a network with
 * (EIP-3085 wants HTTP), so such a chain offers the wallet none.
 */
export function toViemChain(chain: PublicChain): Chain {
  const known = KNOWN[chain.id]
  return defineChain({
    ...known,
    id: chain.id,
    name: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: {
      default: isWebSocketUrl(chain.rpcUrl)
        ? { http: [], webSocket: [chain.rpcUrl] }
        : { http: [chain.rpcUrl] },
    },
    blockExplorers: chain.blockExplorerUrl
      ? { default: { name: 'Explorer', url: chain.blockExplorerUrl } }
      : known?.blockExplorers,
    contracts: {
      ...known?.contracts,
      ...(chain.multicall3 ? { multicall3: { address: chain.multicall3 } } : {}),
    },
    testnet: chain.testnet,
  })
}

/** A configured chain's name, as the app writes it in a sentence ("chain 5" for one it does not know). */
export function chainName(
  chains: readonly Pick<PublicChain, 'id' | 'name'>[],
  id: number | undefined,
): string {
  return chains.find((chain) => chain.id === id)?.name ?? `chain ${id}`
}
