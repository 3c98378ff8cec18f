import type { SessionResponse } from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react'
import { useAccount, useConfig } from 'wagmi'
import { getAccount } from 'wagmi/actions'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import {
  createGuildhallAuthenticationAdapter,
  type GuildhallAuthenticationAdapter,
} from './authentication-adapter.ts'
import { isSignInUnavailable, SESSION_QUERY_KEY, useSession } from './queries/session.ts'
import {
  AUTH_CHANNEL_NAME,
  type AuthChannelMessage,
  deriveSignInState,
  type SignInState,
} from './sign-in-state.ts'

interface SignInContextValue extends SignInState {
  adapter: GuildhallAuthenticationAdapter
  /** What RainbowKit's authentication provider gets (in the wallet kit). */
  rainbowKitAdapter: GuildhallAuthenticationAdapter
}

const SignInContext = createContext<SignInContextValue | null>(null)

/** Sign-in state for the app's own UI; null when sign-in is off in the config. */
export function useSignIn(): SignInContextValue | null {
  return useContext(SignInContext)
}

/**
 * Sign-In with Ethereum: the session query drives the sign-in status (RainbowKit's, in the wallet kit), the
 * adapter talks to /api/auth, and every tab follows the others (BroadcastChannel, refetch on focus).
 * Must sit inside WagmiProvider and the QueryClientProvider.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const config = usePublicConfig()
  const queryClient = useQueryClient()
  const { address, status: accountStatus } = useAccount()
  const query = useSession()
  const { status, available, session, foreignSession } = deriveSignInState(
    { data: query.data, error: query.error },
    accountStatus === 'connected' ? address : undefined,
    // Only a connected or remembered wallet waits on the session; wagmi's reconnect-on-mount passes
    // through "connecting" when nothing was remembered.
    accountStatus === 'disconnected' || accountStatus === 'connecting',
  )

  const adapter = useMemo(
    () =>
      createGuildhallAuthenticationAdapter({
        appUrl: config.appUrl,
        daoName: config.dao.name,
        queryClient,
        isAvailable: () => !isSignInUnavailable(queryClient.getQueryState(SESSION_QUERY_KEY)?.error),
      }),
    [config.appUrl, config.dao.name, queryClient],
  )

  // What RainbowKit gets: it signs out on every `change` event with accounts, even when the wallet
  // re-announces the same account (unlock, EIP-6963 re-announce). Proving the same address again would
  // be pointless, so that case keeps the session; a different address or a disconnect signs out. If the
  // check ever runs before wagmi has the new account, the mismatch below still ends the session.
  const wagmiConfig = useConfig()
  const rainbowKitAdapter = useMemo<GuildhallAuthenticationAdapter>(
    () => ({
      ...adapter,
      signOut: async () => {
        const account = getAccount(wagmiConfig)
        const current = queryClient.getQueryData<SessionResponse>(SESSION_QUERY_KEY)?.session
        const sameAccount =
          account.status === 'connected' &&
          current != null &&
          account.address.toLowerCase() === current.address.toLowerCase()
        if (!sameAccount) await adapter.signOut()
      },
    }),
    [adapter, wagmiConfig, queryClient],
  )

  // Another tab signed in or out: ask the server (the cookie is shared by all tabs).
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return
    const channel = new BroadcastChannel(AUTH_CHANNEL_NAME)
    channel.onmessage = (event: MessageEvent<AuthChannelMessage>) => {
      if (event.data?.type === 'signed-in' || event.data?.type === 'signed-out') {
        void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY })
      }
    }
    return () => channel.close()
  }, [queryClient])

  // The wallet came back (reload, another tab) on an account the session was not made for: end it.
  // RainbowKit itself only signs out on changes it witnesses while authenticated.
  const endingForeign = useRef(false)
  useEffect(() => {
    if (!foreignSession || endingForeign.current) return
    endingForeign.current = true
    void adapter.signOut().finally(() => {
      endingForeign.current = false
    })
  }, [foreignSession, adapter])

  const value = useMemo(
    () => ({ status, available, session, foreignSession, adapter, rainbowKitAdapter }),
    [status, available, session, foreignSession, adapter, rainbowKitAdapter],
  )

  return <SignInContext.Provider value={value}>{children}</SignInContext.Provider>
}
