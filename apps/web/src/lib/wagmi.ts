import {
  HTTP_TIMEOUT_MS,
  MULTICALL_BATCH_SIZE,
  POLLING_INTERVAL_MS,
  type PublicConfig,
} from '@guildhall/core'
import type { Chain } from 'viem'
import { type Config, createConfig, http } from 'wagmi'
import { toViemChain } from './chains.ts'

/**
 * wagmi config: configured chains over HTTP, 4 s polling, multicall batching. No connectors yet: wagmi
 * finds EIP-6963 wallets itself, and the wallet kit adds RainbowKit's list when it loads (ADR 008).
 */
export function createWagmiConfig(config: PublicConfig): Config {
  const chains = config.chains.map(toViemChain) as [Chain, ...Chain[]]
  return createConfig({
    chains,
    connectors: [],
    transports: Object.fromEntries(
      chains.map((chain) => [chain.id, http(chain.rpcUrls.default.http[0], { timeout: HTTP_TIMEOUT_MS })]),
    ),
    pollingInterval: POLLING_INTERVAL_MS,
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE } },
  })
}
