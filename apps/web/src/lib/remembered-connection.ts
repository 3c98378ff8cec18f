import type { Config } from 'wagmi'
import { watchAccount } from 'wagmi/actions'

type DisconnectError = { code?: unknown } | undefined
type EventfulProvider = {
  on?: (event: 'disconnect', listener: (error: DisconnectError) => void) => unknown
  request?: (args: { method: 'eth_accounts' }) => Promise<unknown>
}

/** wagmi 2's per-connector "do not reconnect on load" flag (what wagmi 1 called clearing `injected.shimDisconnect`; ADR 005). */
const disconnectedFlagKey = (connectorId: string) => `${connectorId}.disconnected`

/**
 * A provider `disconnect` event clears the remembered connection, except code 1013 while the
 * wallet still has an account. wagmi 2 drops the connection but would reconnect on the next load if
 * the wallet still grants the site, so the app sets wagmi's own `<connector id>.disconnected` flag
 * (stored as `wagmi.<connector id>.disconnected`), and removes it again when the wallet comes back.
 */
export function forgetConnectionOnProviderDisconnect(config: Config): () => void {
  const watched = new WeakSet<object>()
  // Several connectors can share one provider (window.ethereum and its EIP-6963 announcement).
  let connectedId: string | undefined
  let connectedProvider: unknown
  return watchAccount(config, {
    onChange(account, previous) {
      const connector = account.connector
      if (account.status !== 'connected' || !connector) return
      connectedId = connector.id
      // Connected again (e.g. the wallet emitted `connect` after a disconnect): remember it again.
      if (previous.status !== 'connected') void config.storage?.removeItem(disconnectedFlagKey(connector.id))
      void connector
        .getProvider()
        .then((value) => {
          const provider = value as EventfulProvider | undefined
          if (connectedId === connector.id) connectedProvider = provider
          if (!provider || typeof provider.on !== 'function' || watched.has(provider)) return
          watched.add(provider)
          provider.on('disconnect', async (error) => {
            // Only the wallet of the current connection counts.
            if (provider !== connectedProvider) return
            if (error?.code === 1013) {
              const accounts = await provider.request?.({ method: 'eth_accounts' }).catch(() => [])
              if (Array.isArray(accounts) && accounts.length > 0) return
            }
            // Every connector over this provider is flagged: wagmi's reconnect tries all of them, and
            // "Browser Wallet" (window.ethereum) would otherwise reconnect what its EIP-6963 twin forgot.
            // Only injected connectors can share it, and asking the others would start their SDKs.
            for (const other of config.connectors.filter((c) => c.type === 'injected')) {
              const otherProvider = await other.getProvider().catch(() => undefined)
              if (other.id === connectedId || otherProvider === provider) {
                await config.storage?.setItem(disconnectedFlagKey(other.id), true)
              }
            }
          })
        })
        .catch(() => undefined)
    },
  })
}
