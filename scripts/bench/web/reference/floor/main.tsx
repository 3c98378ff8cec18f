// The floor page: plain wagmi, one injected() connector, a hand-made "Connect Wallet" button that opens a
// native <dialog> listing the connectors (so "modal open" and "wallet list" have a floor too), and the
// connected account's short address. The least a wallet-login page can ship.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode, useRef } from 'react'
import { createRoot } from 'react-dom/client'
import { createConfig, http, useAccount, useConnect, useDisconnect, WagmiProvider } from 'wagmi'
import { injected } from 'wagmi/connectors'
import { localChain, rpcUrl } from '../chain.ts'

const config = createConfig({
  chains: [localChain],
  connectors: [injected()],
  transports: { [localChain.id]: http(rpcUrl) },
})

const queryClient = new QueryClient()

function WalletButton() {
  const { address, status } = useAccount()
  const { connectors, connect } = useConnect()
  const { disconnect } = useDisconnect()
  const dialog = useRef<HTMLDialogElement>(null)
  if (status === 'connected') {
    return (
      <button type="button" data-testid="floor-account-button" onClick={() => disconnect()}>
        {address.slice(0, 6)}…{address.slice(-4)}
      </button>
    )
  }
  return (
    <>
      <button type="button" data-testid="floor-connect-button" onClick={() => dialog.current?.showModal()}>
        Connect Wallet
      </button>
      <dialog ref={dialog} aria-labelledby="floor-connect-title">
        <h2 id="floor-connect-title">Connect a Wallet</h2>
        {connectors.map((connector) => (
          <button
            type="button"
            key={connector.uid}
            data-testid={`floor-wallet-option-${connector.id}`}
            onClick={() => {
              connect({ connector })
              dialog.current?.close()
            }}
          >
            {connector.name}
          </button>
        ))}
      </dialog>
    </>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <WalletButton />
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
