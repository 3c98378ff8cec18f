import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createStorage } from 'wagmi'
import { AppProviders } from './app/providers.tsx'
import { AppRouter } from './app/router.tsx'
import { readPublicConfig } from './lib/public-config.ts'
import { createQueryClient } from './lib/query-client.ts'
import { forgetConnectionOnProviderDisconnect } from './lib/remembered-connection.ts'
import { createWagmiConfig } from './lib/wagmi.ts'
import { rememberedConnectorIds } from './wallet-kit/wallet-sdk-on-demand.ts'

const root = createRoot(document.getElementById('root') as HTMLElement)
try {
  const config = readPublicConfig()
  // Before createConfig: until its persisted state has loaded, wagmi may write its initial state over it.
  const rememberedConnectors = await rememberedConnectorIds(createStorage({ storage: localStorage }))
  const wagmiConfig = createWagmiConfig(config)
  forgetConnectionOnProviderDisconnect(wagmiConfig)
  root.render(
    <StrictMode>
      <AppProviders
        config={config}
        wagmiConfig={wagmiConfig}
        queryClient={createQueryClient()}
        rememberedConnectors={rememberedConnectors}
      >
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  )
} catch (error) {
  // A broken configuration must say what is wrong, not leave a blank page.
  root.render(
    <main className="main">
      <h1>Guildhall cannot start</h1>
      <pre role="alert" className="config-error">
        {error instanceof Error ? error.message : String(error)}
      </pre>
    </main>,
  )
}
