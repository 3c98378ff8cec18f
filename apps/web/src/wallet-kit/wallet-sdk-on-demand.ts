import type { Wallet } from '@rainbow-me/rainbowkit'
import type { CreateConnectorFn } from 'wagmi'

type ConnectorConfig = Parameters<CreateConnectorFn>[0]
type PersistedStore = { state?: { connections?: unknown } } | null | undefined

/**
 * The connector ids wagmi remembers from an earlier visit: the most recent one and those of the persisted
 * connections. Only their SDKs may start before the user picks a wallet.
 */
export async function rememberedConnectorIds(storage: ConnectorConfig['storage']): Promise<Set<string>> {
  const ids = new Set<string>()
  if (!storage) return ids
  let recent: unknown
  let store: PersistedStore
  try {
    recent = await storage.getItem('recentConnectorId')
    store = (await storage.getItem('store' as never)) as PersistedStore
  } catch {
    return ids // Unreadable storage remembers nothing.
  }
  if (typeof recent === 'string') ids.add(recent)
  const connections = store?.state?.connections
  if (connections instanceof Map) {
    for (const connection of connections.values()) {
      const id = (connection as { connector?: { id?: unknown } }).connector?.id
      if (typeof id === 'string') ids.add(id)
    }
  }
  return ids
}

/**
 * A wallet whose SDK (WalletConnect, Coinbase, MetaMask SDK…) loads only when the user picks it, or when a
 * remembered connection needs it on reload. wagmi asks every connector for its provider at start-up (the
 * WalletConnect connector's `setup`, `reconnect` on mount), which downloads each SDK and opens
 * WalletConnect's relay before anything is clicked. Until this connector is picked or remembered, its
 * provider is "not there yet": reconnect skips it, and `connect` (the user's click) switches it on for good.
 * Injected and Safe connectors are left alone: they load no SDK outside their own context.
 */
export function sdkOnDemand(wallet: Wallet): Wallet {
  return {
    ...wallet,
    createConnector: (details) => {
      const createBase = wallet.createConnector(details)
      return (config) => {
        const base = createBase(config)
        if (base.type === 'injected' || base.type === 'safe') return base
        let enabled = false
        return {
          ...base,
          async connect(parameters) {
            enabled = true
            return base.connect.call(this, parameters)
          },
          async getProvider(parameters) {
            if (!enabled) enabled = (await rememberedConnectorIds(config.storage)).has(base.id)
            if (!enabled) return undefined as never
            return base.getProvider.call(this, parameters)
          },
        } as typeof base
      }
    },
  }
}
