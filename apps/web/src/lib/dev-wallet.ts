import type { PublicChain, PublicConfig } from '@guildhall/core'
import { type AnvilProvider, createAnvilProvider } from '@guildhall/devchain/browser'
import type { Wallet } from '@rainbow-me/rainbowkit'
import { createConnector } from 'wagmi'
import { injected } from 'wagmi/connectors'
import { registerDevWallet } from './dev-wallet-account.ts'

type DevWalletAccount = NonNullable<PublicConfig['devWallet']>['accounts'][number]

/**
 * The development wallet's EIP-1193 provider: anvil's test accounts, signing in the browser with their
 * public keys (the signing code loads on the first signature) and talking to the chain through `chains`'
 * RPC URLs, which serve reads and raw transactions only.
 */
export function createDevWalletProvider({
  accounts,
  chains,
}: {
  accounts: DevWalletAccount[]
  chains: PublicChain[]
}): AnvilProvider {
  return createAnvilProvider({
    accounts: accounts.map((a) => a.address),
    chains: chains.map((chain) => ({ chainId: chain.id, rpcUrl: chain.rpcUrl, name: chain.name })),
    persistKey: 'guildhall.devWallet',
    errorDelayMs: 0,
    signer: { request: async (args) => (await import('./dev-wallet-signer.ts')).signLocally(args) },
  })
}

// One provider per page: the account picker drives the same instance the connector uses.
let provider: AnvilProvider | undefined

const ICON =
  'data:image/svg+xml;base64,' +
  btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"><rect width="28" height="28" fill="#1b1b1f"/><path d="M7 9h14v10H7z" fill="none" stroke="#ffd23f" stroke-width="2"/><circle cx="18" cy="14" r="1.6" fill="#ffd23f"/></svg>',
  )

/**
 * anvil's test accounts as a wallet, so a newcomer can try every flow without an extension.
 * Only offered when the app runs against the local demo chain (the server decides, see settings/env.ts).
 */
export function developmentWallet({
  accounts,
  chains,
}: {
  accounts: DevWalletAccount[]
  chains: PublicChain[]
}): Wallet {
  const getProvider = () => {
    if (!provider) {
      provider = createDevWalletProvider({ accounts, chains })
      registerDevWallet(provider.control)
    }
    return provider
  }
  return {
    id: 'development',
    name: 'Development wallet',
    shortName: 'Dev wallet',
    iconUrl: ICON,
    iconBackground: '#1b1b1f',
    installed: true,
    createConnector: (walletDetails) =>
      createConnector((config) => ({
        ...injected({
          target: () => ({ id: 'development', name: 'Development wallet', provider: getProvider() as never }),
        })(config),
        ...walletDetails,
      })),
  }
}
