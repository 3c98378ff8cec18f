import {
  HTTP_TIMEOUT_MS,
  MULTICALL_BATCH_SIZE,
  POLLING_INTERVAL_MS,
  type PublicConfig,
  rpcTransport,
} from '@guildhall/core'
import type { Chain } from 'viem'
import { type Config, createConfig, createStorage } from 'wagmi'
import { toViemChain } from './chains.ts'
import { rememberedConnectionStorage, rememberWhileConnected } from './remembered-connection.ts'

/**
 * wagmi config: configured chains over HTTP or a WebSocket (their RPC URL says which), 4 s polling, multicall batching. No connectors yet: wagmi
 * finds EIP-6963 wallets itself, and the wallet kit adds RainbowKit's list when it loads (ADR 008).
 * Stored in localStorage under `wagmi.`, an injected wallet's remembered connection under the spec's key (ADR 042).
 */
export function createWagmiConfig(config: PublicConfig): Config {
  const chains = config.chains.map(toViemChain) as [Chain, ...Chain[]]
  // The storage asks the config for a connector's type, so it is created first and finds it here.
  let wagmiConfig: Config | undefined
  const isInjected = (connectorId: string) =>
    wagmiConfig?.connectors.some(
      (connector) => connector.id === connectorId && connector.type === 'injected',
    ) ?? false
  wagmiConfig = createConfig({
    chains,
    connectors: [],
    storage: createStorage({ storage: rememberedConnectionStorage(localStorage, isInjected) }),
    transports: Object.fromEntries(
      config.chains.map((chain) => [chain.id, rpcTransport(chain.rpcUrl, { timeout: HTTP_TIMEOUT_MS })]),
    ),
    pollingInterval: POLLING_INTERVAL_MS,
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE } },
  })
  rememberWhileConnected(wagmiConfig)
  return wagmiConfig
}
