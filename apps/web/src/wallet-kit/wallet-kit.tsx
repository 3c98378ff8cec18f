// The wallet kit: RainbowKit's provider, connect button and modals, with sign-in when it is on. Loaded on
// demand by ConnectSlot (ADR 008), so the page and its content never wait for it.
import '@rainbow-me/rainbowkit/styles.css'
import {
  type AvatarComponent,
  ConnectButton,
  type DisclaimerComponent,
  RainbowKitAuthenticationProvider,
  RainbowKitProvider,
  useAddRecentTransaction,
  useConnectModal,
} from '@rainbow-me/rainbowkit'
import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useEffect, useMemo } from 'react'
import { normalize } from 'viem/ens'
import { useAccount, useConfig } from 'wagmi'
import { mainnet } from 'wagmi/chains'
import { getEnsAvatarQueryKey, getEnsNameQueryKey } from 'wagmi/query'
import { useSignIn } from '../features/auth/auth-provider.tsx'
import { AvatarImage, useName } from '../lib/names.tsx'
import { usePublicConfig } from '../lib/public-config-context.tsx'
import { registerKitFunctions } from './kit-bridge.ts'
import { walletKitTheme } from './theme.ts'

export { addWalletConnectors } from './connectors.ts'

export interface WalletKitProps {
  /** Called once RainbowKit shows its button (it renders it hidden first). */
  onShown: () => void
}

export function WalletKit({ onShown }: WalletKitProps) {
  const config = usePublicConfig()
  const signIn = useSignIn()
  const theme = useMemo(() => walletKitTheme(config.accentColor), [config.accentColor])
  const disclaimer = useMemo<DisclaimerComponent | undefined>(() => {
    const text = config.disclaimer
    return text ? ({ Text }) => <Text>{text}</Text> : undefined
  }, [config.disclaimer])

  const kit = (
    <RainbowKitProvider
      appInfo={{ appName: config.dao.name, learnMoreUrl: config.learnMoreUrl, disclaimer }}
      showRecentTransactions
      locale="en-US"
      theme={theme}
      avatar={KitAvatar}
    >
      <ConnectButton
        accountStatus={{ smallScreen: 'avatar', largeScreen: 'full' }}
        showBalance={{ smallScreen: false, largeScreen: true }}
        chainStatus={{ smallScreen: 'icon', largeScreen: 'full' }}
      />
      <KitBridge onShown={onShown} />
      <AccountNameBridge />
    </RainbowKitProvider>
  )
  if (!signIn) return kit
  return (
    <RainbowKitAuthenticationProvider adapter={signIn.adapter} status={signIn.status}>
      {kit}
    </RainbowKitAuthenticationProvider>
  )
}

/** Publishes the kit's functions to the rest of the app and finishes what the stand-in button started. */
function KitBridge({ onShown }: WalletKitProps): ReactNode {
  const addRecentTransaction = useAddRecentTransaction()
  const { openConnectModal } = useConnectModal()

  useEffect(() => {
    // After RainbowKit's own mount effects (parents' effects run after this child's): its ModalProvider
    // closes every modal on mount when signed out, which would close one opened from here at once.
    const timer = setTimeout(() => registerKitFunctions({ addRecentTransaction, openConnectModal }), 0)
    return () => {
      clearTimeout(timer)
      registerKitFunctions({ addRecentTransaction: undefined, openConnectModal: undefined })
    }
  }, [addRecentTransaction, openConnectModal])

  useEffect(() => {
    // RainbowKit shows its button on the render after mounting; two frames later it is on screen.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(onShown)
    })
    return () => cancelAnimationFrame(frame)
  }, [onShown])
  return null
}

/** RainbowKit's avatars are the app's: the member's image, else the one generated from the address. */
const KitAvatar: AvatarComponent = ({ address, ensImage, size }) => (
  <AvatarImage address={address} url={ensImage} size={size} />
)

/**
 * RainbowKit looks names up on mainnet only when mainnet is one of wagmi's chains, and a DAO on another chain
 * must not offer mainnet in the chain selector (ADR 031). So, off mainnet, the connected account's name and
 * avatar come from the server's table (`useName`) and are put where RainbowKit's own lookups keep theirs:
 * wagmi's `ensName` and `ensAvatar` queries for chain 1, which RainbowKit holds disabled and reads from the
 * cache. Button and account modal then show them as they would on mainnet.
 */
function AccountNameBridge(): ReactNode {
  const { address } = useAccount()
  const mainnetConfigured = useConfig().chains.some((chain) => chain.id === mainnet.id)
  const answer = useName(mainnetConfigured ? undefined : address)
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!address || !answer || answer.pending) return
    queryClient.setQueryData(getEnsNameQueryKey({ address, chainId: mainnet.id }), answer.name)
    if (answer.name)
      queryClient.setQueryData(
        getEnsAvatarQueryKey({ name: normalize(answer.name), chainId: mainnet.id }),
        answer.avatarUrl,
      )
  }, [address, answer, queryClient])
  return null
}
