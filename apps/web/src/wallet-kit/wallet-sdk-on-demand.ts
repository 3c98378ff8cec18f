import type { Wallet } from '@rainbow-me/rainbowkit'
import type { Config } from 'wagmi'

type PersistedStore = { state?: { connections?: unknown } } | null | undefined

/**
 * The connector ids of the connections wagmi persisted on the last visit (`wagmi.store`). Read before
 * `createConfig`: until its own copy has loaded, wagmi may persist its initial (empty) state over them. Empty on a first visit or after an explicit
 * disconnect; unreadable storage remembers nothing.
 */
export async function rememberedConnectorIds(storage: Config['storage']): Promise<Set<string>> {
  const ids = new Set<string>()
  let store: PersistedStore
  try {
    store = (await storage?.getItem('store' as never)) as PersistedStore
  } catch {
    return ids
  }
  const connections = store?.state?.connections
  if (!(connections instanceof Map)) return ids
  for (const connection of connections.values()) {
    const id = (connection as { connector?: { id?: unknown } }).connector?.id
    if (typeof id === 'string') ids.add(id)
  }
  return ids
}

/**
 * A wallet whose SDK (WalletConnect, Coinbase, MetaMask SDK…) does not start when its connector is created.
 * wagmi calls every connector's `setup` on creation, and the WalletConnect connector's setup downloads its
 * SDK and opens WalletConnect's relay. Skipped unless that connector holds a remembered connection; the
 * SDK then loads on the user's pick (RainbowKit asks the connector for its provider), as ADR 008 decides.
 * The connector's `connect` registers the listeners `setup` would have, so nothing is lost by skipping it.
 */
export function sdkOnDemand(wallet: Wallet, remembered: ReadonlySet<string>): Wallet {
  return {
    ...wallet,
    createConnector: (details) => {
      const createBase = wallet.createConnector(details)
      return (config) => {
        const base = createBase(config)
        if (base.type === 'injected' || remembered.has(base.id)) return base
        return { ...base, setup: undefined }
      }
    },
  }
}
