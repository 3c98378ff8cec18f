import { type PublicConfig, QUERY_GC_TIME_MS } from '@guildhall/core'
import { type DisclaimerComponent, darkTheme, lightTheme, RainbowKitProvider } from '@rainbow-me/rainbowkit'
import type { QueryClient } from '@tanstack/react-query'
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client'
import { type ReactNode, useMemo } from 'react'
import { type Config, WagmiProvider } from 'wagmi'
import { PublicConfigProvider } from '../lib/public-config-context.tsx'
import { createQueryPersister } from '../lib/query-client.ts'

export interface AppProvidersProps {
  config: PublicConfig
  wagmiConfig: Config
  queryClient: QueryClient
  children: ReactNode
}

/** wagmi, the persisted query cache and RainbowKit, configured as the spec asks. */
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

  return (
    <PublicConfigProvider config={config}>
      <WagmiProvider config={wagmiConfig} reconnectOnMount>
        <PersistQueryClientProvider
          client={queryClient}
          persistOptions={{ persister, maxAge: QUERY_GC_TIME_MS }}
        >
          <RainbowKitProvider
            appInfo={{ appName: config.dao.name, learnMoreUrl: config.learnMoreUrl, disclaimer }}
            showRecentTransactions
            locale="en-US"
            theme={theme}
          >
            {children}
          </RainbowKitProvider>
        </PersistQueryClientProvider>
      </WagmiProvider>
    </PublicConfigProvider>
  )
}
