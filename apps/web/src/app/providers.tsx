import { type PublicConfig, QUERY_GC_TIME_MS } from '@guildhall/core'
import { defaultShouldDehydrateQuery, type QueryClient } from '@tanstack/react-query'
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client'
import { type ReactNode, useMemo } from 'react'
import { type Config, WagmiProvider } from 'wagmi'
import { AuthProvider } from '../features/auth/auth-provider.tsx'
import { PublicConfigProvider } from '../lib/public-config-context.tsx'
import { createQueryPersister } from '../lib/query-client.ts'
import { RememberedConnectorsContext } from '../wallet-kit/connect-slot.tsx'

// Queries marked `meta: { persist: false }` (the sign-in session) are never written to localStorage:
// only the server knows whether a session is still alive.
const dehydrateOptions = {
  shouldDehydrateQuery: (query: Parameters<typeof defaultShouldDehydrateQuery>[0]) =>
    query.meta?.persist !== false && defaultShouldDehydrateQuery(query),
}

export interface AppProvidersProps {
  config: PublicConfig
  wagmiConfig: Config
  queryClient: QueryClient
  /** Connector ids of the last visit's connections (see rememberedConnectorIds). */
  rememberedConnectors: ReadonlySet<string>
  children: ReactNode
}

/**
 * wagmi, the persisted query cache and sign-in (unless off). RainbowKit is not here: it loads on demand
 * in the header's ConnectSlot (ADR 008), so the content never waits for it.
 */
export function AppProviders({
  config,
  wagmiConfig,
  queryClient,
  rememberedConnectors,
  children,
}: AppProvidersProps) {
  const persister = useMemo(() => createQueryPersister(), [])
  return (
    <PublicConfigProvider config={config}>
      <WagmiProvider config={wagmiConfig} reconnectOnMount>
        <PersistQueryClientProvider
          client={queryClient}
          persistOptions={{ persister, maxAge: QUERY_GC_TIME_MS, dehydrateOptions }}
        >
          <RememberedConnectorsContext.Provider value={rememberedConnectors}>
            {config.signIn ? <AuthProvider>{children}</AuthProvider> : children}
          </RememberedConnectorsContext.Provider>
        </PersistQueryClientProvider>
      </WagmiProvider>
    </PublicConfigProvider>
  )
}
