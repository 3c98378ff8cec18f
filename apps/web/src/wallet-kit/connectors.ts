// RainbowKit's wallet list, added to wagmi when the wallet kit loads (ADR 008).
import { type PublicConfig, WALLET_GROUP_NAME, type WalletId, walletErrorMessage } from '@guildhall/core'
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
import type { Config, Connector } from 'wagmi'
import { getAccount, reconnect } from 'wagmi/actions'
import type { developmentWallet } from '../lib/dev-wallet.ts'
import { notify } from '../lib/notifications.ts'
import { sdkOnDemand } from './wallet-sdk-on-demand.ts'

type WalletOptions = { projectId: string; appName: string }

/**
 * Safe, whose connector reads the Safe from Safe{Wallet} framing the app. When it cannot (no answer, or
 * an empty one), the member who picked it is told in the spec's words, "Could not load Safe information",
 * beside RainbowKit's RETRY. RainbowKit asks the connector's chain before wagmi's connect runs, so the
 * failure shows there first, and only on a pick: a reconnect on load asks for the accounts, never this.
 */
function safeWalletSaysWhenUnreadable(): Wallet {
  const wallet = safeWallet()
  return {
    ...wallet,
    createConnector: (details) => (config) => {
      const connector = wallet.createConnector(details)(config)
      return {
        ...connector,
        async getChainId() {
          try {
            return await connector.getChainId()
          } catch (error) {
            notify(walletErrorMessage(error, { action: 'connect', connectorType: 'safe' }))
            throw error
          }
        },
      }
    },
  }
}

const WALLETS: Record<WalletId, (options: WalletOptions) => Wallet> = {
  injected: injectedWallet,
  safe: safeWalletSaysWhenUnreadable,
  rainbow: rainbowWallet,
  coinbase: coinbaseWallet,
  metaMask: metaMaskWallet,
  walletConnect: walletConnectWallet,
  brave: braveWallet,
}

/**
 * The wallet list: the required "Popular" group (docs/spec-coverage.md), then the development wallet on the local demo chain.
 * `remembered`: connector ids of the last visit's connections, the only ones whose SDK may start at once.
 * `devWallet`: the development wallet's module, loaded only where the config offers it.
 */
export function walletList(
  config: PublicConfig,
  remembered: ReadonlySet<string> = new Set(),
  devWallet?: typeof developmentWallet,
): WalletList {
  // "Browser Wallet" needs an injected provider: without one its connector fails faster than
  // RainbowKit's 50 ms timer and the connect spinner never stops. Extensions inject before page scripts.
  const hasInjectedProvider = typeof window !== 'undefined' && window.ethereum !== undefined
  const ids = config.wallets.filter((id) => id !== 'injected' || hasInjectedProvider)
  const groups: WalletList = [
    {
      groupName: WALLET_GROUP_NAME,
      wallets: ids.map((id) => (options) => sdkOnDemand(WALLETS[id](options), remembered)),
    },
  ]
  if (config.devWallet && devWallet) {
    const { accounts } = config.devWallet
    groups.push({
      groupName: 'Development',
      wallets: [() => devWallet({ accounts, chains: config.chains })],
    })
  }
  return groups
}

const rdnsOf = (connector: Connector): string[] =>
  connector.rdns === undefined
    ? []
    : typeof connector.rdns === 'string'
      ? [connector.rdns]
      : [...connector.rdns]

const added = new WeakSet<Config>()

/**
 * Adds RainbowKit's connectors to the running wagmi config, as if they had been given to `createConfig`
 * (listed first; an EIP-6963 wallet they cover is dropped unless it is the connected one), then reconnects
 * a remembered connection that only they can restore (settled when this resolves, for injected wallets).
 * Uses wagmi's `_internal.connectors`, the same store wagmi itself adds EIP-6963 wallets to; wagmi is
 * pinned exactly. Idempotent.
 */
export async function addWalletConnectors(
  wagmiConfig: Config,
  config: PublicConfig,
  remembered: ReadonlySet<string>,
): Promise<void> {
  if (added.has(wagmiConfig)) return
  added.add(wagmiConfig)
  // Its own chunk: a real deployment never offers it, so its wallet and signing code never load there.
  const devWallet = config.devWallet ? (await import('../lib/dev-wallet.ts')).developmentWallet : undefined
  const store = wagmiConfig._internal.connectors
  const ours = connectorsForWallets(walletList(config, remembered, devWallet), {
    appName: config.dao.name,
    appUrl: config.appUrl,
    appDescription: config.dao.description || undefined,
    // publicConfigSchema already refused WalletConnect wallets without a project id.
    projectId: config.walletConnectProjectId ?? '',
  }).map((createConnector) => store.setup(createConnector))
  const covered = new Set(ours.flatMap(rdnsOf))
  const connected = getAccount(wagmiConfig).connector
  store.setState((discovered) => [
    ...ours,
    ...discovered.filter((c) => c.uid === connected?.uid || !rdnsOf(c).some((rdns) => covered.has(rdns))),
  ])
  const toRestore = ours.filter((connector) => remembered.has(connector.id))
  if (toRestore.length > 0 && getAccount(wagmiConfig).status !== 'connected') {
    const restoring = reconnect(wagmiConfig, { connectors: toRestore })
    // An injected wallet answers at once, and the kit waits for it (connect-slot.tsx); a wallet behind a
    // relay (WalletConnect…) may take long, and is restored while the kit is already shown.
    if (toRestore.every((connector) => connector.type === 'injected')) await restoring
  }
}
