import './styles.css'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { createStorage } from 'wagmi'
import { AppProviders } from './app/providers.tsx'
import { AppRouter, startPageCode } from './app/router.tsx'
import { readPublicConfig } from './lib/public-config.ts'
import { createQueryClient } from './lib/query-client.ts'
import { forgetConnectionOnProviderDisconnect } from './lib/remembered-connection.ts'
import { createWagmiConfig } from './lib/wagmi.ts'
import { rememberedConnectorIds } from './wallet-kit/wallet-sdk-on-demand.ts'

const root = createRoot(document.getElementById('root') as HTMLElement)
startPageCode(window.location.pathname)
try {
  const config = readPublicConfig()
  // Before createConfig: until its persisted state has loaded, wagmi may write its initial state over it.
  const rememberedConnectors = await rememberedConnectorIds(createStorage({ storage: localStorage }))
  const wagmiConfig = createWagmiConfig(config)
  forgetConnectionOnProviderDisconnect(wagmiConfig)
  // The server's shell is on screen already (ADR 009), so nothing waits for this render: as a transition,
  // React renders in slices and never holds the main thread long while the page starts (a tap or a key
  // then is handled between slices, not after the whole render).
  startTransition(() =>
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
    ),
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
