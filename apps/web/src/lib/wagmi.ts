import {
  HTTP_TIMEOUT_MS,
  MULTICALL_BATCH_SIZE,
  POLLING_INTERVAL_MS,
  type PublicConfig,
  rpcTransport,
} from '@guildhall/core'
import type { Chain } from 'viem'
import { type Config, createConfig } from 'wagmi'
import { toViemChain } from './chains.ts'

/**
 * wagmi config: configured chains over HTTP or a WebSocket (their RPC URL says which), 4 s polling, multicall batching. No connectors yet: wagmi
 * finds EIP-6963 wallets itself, and the wallet kit adds RainbowKit's list when it loads (ADR 008).
 */
export function createWagmiConfig(config: PublicConfig): Config {
  const chains = config.chains.map(toViemChain) as [Chain, ...Chain[]]
  return createConfig({
    chains,
    connectors: [],
    transports: Object.fromEntries(
      config.chains.map((chain) => [chain.id, rpcTransport(chain.rpcUrl, { timeout: HTTP_TIMEOUT_MS })]),
    ),
    pollingInterval: POLLING_INTERVAL_MS,
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE } },
  })
}
