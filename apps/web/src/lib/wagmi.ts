import {
  HTTP_TIMEOUT_MS,
  MULTICALL_BATCH_SIZE,
  POLLING_INTERVAL_MS,
  type PublicConfig,
  WALLET_GROUP_NAME,
  type WalletId,
} from '@guildhall/core'
import { connectorsForWallets, type Wallet, type WalletList } from '@rainbow-me/rainbowkit'
import {
  braveWallet,
  coinbaseWallet,
  injectedWallet,
  metaMaskWallet,
  rainbowWallet,
  safeWallet,
  walletConnectWallet,
} from '@rainbow-me/rainbowkit/wallets'
import type { Chain } from 'viem'
import { type Config, createConfig, http } from 'wagmi'
import { toViemChain } from './chains.ts'
import { developmentWallet } from './dev-wallet.ts'
import { sdkOnDemand } from './wallet-sdk-on-demand.ts'

const WALLETS: Record<WalletId, (options: { projectId: string; appName: string }) => Wallet> = {
  injected: injectedWallet,
  safe: safeWallet,
  rainbow: rainbowWallet,
  coinbase: coinbaseWallet,
  metaMask: metaMaskWallet,
  walletConnect: walletConnectWallet,
  brave: braveWallet,
}

/** The wallet list: the spec's "Popular" group, then the development wallet on the local demo chain. */
export function walletList(config: PublicConfig): WalletList {
  // "Browser Wallet" needs an injected provider: without one its connector fails faster than
  // RainbowKit's 50 ms timer and the connect spinner never stops. Extensions inject before page scripts.
  const hasInjectedProvider = typeof window !== 'undefined' && window.ethereum !== undefined
  const ids = config.wallets.filter((id) => id !== 'injected' || hasInjectedProvider)
  const groups: WalletList = [
    {
      groupName: WALLET_GROUP_NAME,
      wallets: ids.map((id) => (options) => sdkOnDemand(WALLETS[id](options))),
    },
  ]
  if (config.devWallet) {
    const { accounts } = config.devWallet
    groups.push({
      groupName: 'Development',
      wallets: [() => developmentWallet({ accounts, chains: config.chains })],
    })
  }
  return groups
}

/** wagmi config: configured chains over HTTP, 4 s polling, multicall batching, RainbowKit connectors. */
export function createWagmiConfig(config: PublicConfig): Config {
  const chains = config.chains.map(toViemChain) as [Chain, ...Chain[]]
  const connectors = connectorsForWallets(walletList(config), {
    appName: config.dao.name,
    appUrl: config.appUrl,
    appDescription: config.dao.description || undefined,
    // publicConfigSchema already refused WalletConnect wallets without a project id.
    projectId: config.walletConnectProjectId ?? '',
  })
  return createConfig({
    chains,
    connectors,
    transports: Object.fromEntries(
      chains.map((chain) => [chain.id, http(chain.rpcUrls.default.http[0], { timeout: HTTP_TIMEOUT_MS })]),
    ),
    pollingInterval: POLLING_INTERVAL_MS,
    batch: { multicall: { batchSize: MULTICALL_BATCH_SIZE } },
  })
}
