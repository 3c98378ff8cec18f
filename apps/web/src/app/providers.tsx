import { type PublicConfig, QUERY_GC_TIME_MS } from '@guildhall/core'
import { type DisclaimerComponent, darkTheme, lightTheme, RainbowKitProvider } from '@rainbow-me/rainbowkit'
import { defaultShouldDehydrateQuery, type QueryClient } from '@tanstack/react-query'
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client'
import { type ReactNode, useMemo } from 'react'
import { type Config, WagmiProvider } from 'wagmi'
import { AuthProvider } from '../features/auth/auth-provider.tsx'
import { PublicConfigProvider } from '../lib/public-config-context.tsx'
import { createQueryPersister } from '../lib/query-client.ts'

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
  children: ReactNode
}

/** wagmi, the persisted query cache, sign-in (unless off) and RainbowKit, configured as the spec asks. */
export function AppProviders({ config, wagmiConfig, queryClient, children }: AppProvidersProps) {
  const persister = useMemo(() => createQueryPersister(), [])
  const theme = useMemo(
    () => ({
      lightMode: lightTheme({ accentColor: config.accentColor }),
      darkMode: darkTheme({ accentColor: config.accentColor }),
    }),
    [config.accentColor],
  )
  const disclaimer = useMemo<DisclaimerComponent | undefined>(() => {
    const text = config.disclaimer
    return text ? ({ Text }) => <Text>{text}</Text> : undefined
  }, [config.disclaimer])

  const rainbowKit = (
    <RainbowKitProvider
      appInfo={{ appName: config.dao.name, learnMoreUrl: config.learnMoreUrl, disclaimer }}
      showRecentTransactions
      locale="en-US"
      theme={theme}
    >
      {children}
    </RainbowKitProvider>
  )

  return (
    <PublicConfigProvider config={config}>
      <WagmiProvider config={wagmiConfig} reconnectOnMount>
        <PersistQueryClientProvider
          client={queryClient}
          persistOptions={{ persister, maxAge: QUERY_GC_TIME_MS, dehydrateOptions }}
        >
          {config.signIn ? <AuthProvider>{rainbowKit}</AuthProvider> : rainbowKit}
        </PersistQueryClientProvider>
      </WagmiProvider>
    </PublicConfigProvider>
  )
}
