// The DAO's chains (ADR 027): each id of CHAIN_IDS with its per-chain variables (RPC_URL_<id>,
// CHAIN_NAME_<id>, MULTICALL3_ADDRESS_<id>) and what viem knows of it (known-chains.ts), checked, then
// turned into the chains the server talks to and the browser is told of.
import { LOCAL_CHAIN_ID, type PublicChain, SPEC_LIBRARY_MESSAGES } from '@guildhall/core'
import { isAddress } from 'viem'
import { type KnownChain, knownChains, PUBLIC_RPC_CHAIN_IDS } from './known-chains.ts'

export type ChainSettings = PublicChain & { upstreamRpcUrl: string; proxied: boolean }

/** JSON-RPC over HTTP, or over a WebSocket (ADR 027). */
const isRpcUrl = (value: string) => {
  try {
    return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)

/** The local development chain is Guildhall's own: viem's anvil, Foundry and Hardhat all claim its id. */
const LOCAL_CHAIN: KnownChain = {
  name: 'Local chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  blockExplorerUrl: null,
  multicall3: null,
  testnet: true,
  publicRpcUrl: '',
}

/**
 * What Guildhall knows of chain `id` without CHAIN_NAME_<id>: viem's definition, the one whose name
 * `name` is when viem has several for the id, or a problem to report.
 */
function knownChain(id: number, name: string | undefined): KnownChain | string | undefined {
  if (id === LOCAL_CHAIN_ID) return LOCAL_CHAIN
  const candidates = knownChains(id)
  if (candidates.length <= 1) return candidates[0]
  const named = candidates.find((chain) => chain.name.toLowerCase() === name?.trim().toLowerCase())
  return (
    named ??
    `chain ${id} is more than one chain Guildhall knows (${candidates.map((chain) => chain.name).join(', ')}); set it to the name of the one you mean`
  )
}

/** Problems with the per-chain variables (`RPC_URL_<id>`, `CHAIN_NAME_<id>`) of the given chains. */
export function chainProblems(env: Record<string, string | undefined>, chainIds: number[]): string[] {
  return chainIds.flatMap((id) => {
    const known = knownChain(id, env[`CHAIN_NAME_${id}`])
    const problems: string[] = []
    const rpcUrl = rpcUrlOf(env, id, known)
    if (!rpcUrl) {
      const which =
        typeof known === 'object'
          ? ` (${known.name}; a public RPC is used only for Ethereum and Sepolia)`
          : ''
      // The spec's words for a transport without a URL, as the operator meets it: before anyone connects.
      problems.push(
        `- RPC_URL_${id}: ${SPEC_LIBRARY_MESSAGES.noTransportUrl} Required for chain ${id}${which}`,
      )
    } else if (!isRpcUrl(rpcUrl)) problems.push(`- RPC_URL_${id}: must be an http(s) or ws(s) URL`)
    const multicall3 = env[`MULTICALL3_ADDRESS_${id}`]
    if (multicall3 !== undefined && !isAddress(multicall3, { strict: false })) {
      problems.push(`- MULTICALL3_ADDRESS_${id}: must be a 0x-prefixed 20-byte address`)
    }
    if (typeof known === 'string') problems.push(`- CHAIN_NAME_${id}: ${known}`)
    else if (!(env[`CHAIN_NAME_${id}`] ?? known?.name)) {
      problems.push(`- CHAIN_NAME_${id}: required for chain ${id} (not a chain Guildhall knows by id)`)
    }
    return problems
  })
}

/** The RPC of chain `id`: RPC_URL_<id>, else viem's public RPC for the spec's default chains only. */
function rpcUrlOf(
  env: Record<string, string | undefined>,
  id: number,
  known: KnownChain | string | undefined,
) {
  const configured = env[`RPC_URL_${id}`]
  if (configured !== undefined) return configured
  return PUBLIC_RPC_CHAIN_IDS.has(id) && typeof known === 'object' ? known.publicRpcUrl : undefined
}

/** The chains `chainIds`, once chainProblems found none; proxied RPC URLs are on `origin`. */
export function chainSettings(
  env: Record<string, string | undefined>,
  chainIds: number[],
  origin: string,
): ChainSettings[] {
  return chainIds.map((id) => {
    const name = env[`CHAIN_NAME_${id}`]
    // chainProblems has refused an ambiguous id without a name that picks one of its chains.
    const known = knownChain(id, name) as KnownChain | undefined
    const upstream = rpcUrlOf(env, id, known) as string
    // Local nodes are reached through the app's own /rpc/<id> so the browser needs one origin only.
    const proxied = isLoopback(upstream)
    return {
      id,
      name: (name ?? known?.name) as string,
      upstreamRpcUrl: upstream,
      rpcUrl: proxied ? `${origin}/rpc/${id}` : upstream,
      proxied,
      nativeCurrency: known?.nativeCurrency ?? { name: 'Ether', symbol: 'ETH', decimals: 18 },
      blockExplorerUrl: known?.blockExplorerUrl ?? null,
      multicall3: (env[`MULTICALL3_ADDRESS_${id}`] ?? known?.multicall3 ?? null) as `0x${string}` | null,
      testnet: known?.testnet ?? false,
    }
  })
}
