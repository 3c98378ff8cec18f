// The bare RainbowKit page: what a developer following RainbowKit's "Getting started" ships, with
// Guildhall's wallet list (the seven required "Popular" wallets, in Guildhall's order) and chain, and the
// ConnectButton, nothing else. A fake WalletConnect project id, like Guildhall's demo.
import '@rainbow-me/rainbowkit/styles.css'
import { ConnectButton, getDefaultConfig, RainbowKitProvider } from '@rainbow-me/rainbowkit'
import {
  braveWallet,
  coinbaseWallet,
  injectedWallet,
  metaMaskWallet,
  rainbowWallet,
  safeWallet,
  walletConnectWallet,
} from '@rainbow-me/rainbowkit/wallets'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { http, WagmiProvider } from 'wagmi'
import { localChain, rpcUrl } from '../chain.ts'

const config = getDefaultConfig({
  appName: 'RainbowKit reference',
  projectId: 'YOUR_PROJECT_ID',
  chains: [localChain],
  transports: { [localChain.id]: http(rpcUrl) },
  wallets: [
    {
      groupName: 'Popular',
      wallets: [
        injectedWallet,
        safeWallet,
        rainbowWallet,
        coinbaseWallet,
        metaMaskWallet,
        walletConnectWallet,
        braveWallet,
      ],
    },
  ],
})

const queryClient = new QueryClient()

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <RainbowKitProvider>
          <ConnectButton />
        </RainbowKitProvider>
      </QueryClientProvider>
    </WagmiProvider>
  </StrictMode>,
)
