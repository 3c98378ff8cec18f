import './styles.css'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { createStorage } from 'wagmi'
import { AppProviders } from './app/providers.tsx'
import { AppRouter, startPageCode } from './app/router.tsx'
import { readPublicConfig } from './lib/public-config.ts'
import { createQueryClient } from './lib/query-client.ts'
import { createWagmiConfig } from './lib/wagmi.ts'
import { rememberedConnectorIds } from './wallet-kit/wallet-sdk-on-demand.ts'

/**
 * How long the first render waits for the opened page's code and data (a proposal's page: the server's
 * shell already shows its heading, which the app must not blank out and redraw). Past this, the app
 * renders anyway and the page shows its own loading state.
 */
const FIRST_PAGE_WAIT_MS = 3_000

const root = createRoot(document.getElementById('root') as HTMLElement)
const queryClient = createQueryClient()
const firstPage = startPageCode(window.location.pathname, queryClient)

// A function, not top-level await: the opened page's code imports from this chunk, and its import could
// not finish while this module was still being evaluated (it would wait out FIRST_PAGE_WAIT_MS).
async function start() {
  try {
    const config = readPublicConfig()
    // Before createConfig: until its persisted state has loaded, wagmi may write its initial state over it.
    const rememberedConnectors = await rememberedConnectorIds(createStorage({ storage: localStorage }))
    const wagmiConfig = createWagmiConfig(config)
    await Promise.race([firstPage, new Promise((done) => setTimeout(done, FIRST_PAGE_WAIT_MS))])
    // The server's shell is on screen already (ADR 009), so nothing waits for this render: as a transition,
    // React renders in slices and never holds the main thread long while the page starts (a tap or a key
    // then is handled between slices, not after the whole render).
    startTransition(() =>
      root.render(
        <StrictMode>
          <AppProviders
            config={config}
            wagmiConfig={wagmiConfig}
            queryClient={queryClient}
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
}
void start()
