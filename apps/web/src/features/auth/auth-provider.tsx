import { useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react'
import { useAccount, useConfig } from 'wagmi'
import { getAccount } from 'wagmi/actions'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import {
  createGuildhallAuthenticationAdapter,
  type GuildhallAuthenticationAdapter,
} from './authentication-adapter.ts'
import { CURRENT_SESSION_QUERY_KEY, useCurrentSession } from './queries/current-session.ts'
import {
  AUTH_CHANNEL_NAME,
  type AuthChannelMessage,
  deriveSignInState,
  type SignInState,
} from './sign-in-state.ts'
import { signOut } from './sign-out.ts'

interface SignInContextValue extends SignInState {
  /** What RainbowKit's authentication provider gets (in the wallet kit). */
  adapter: GuildhallAuthenticationAdapter
  /** Signs this browser out (the header's "Sign out"). */
  signOut: () => Promise<void>
}

const SignInContext = createContext<SignInContextValue | null>(null)

/**
 * Sign-in state for the app's own UI; null when sign-in is off. The config's `signIn` is the one
 * decision: the server mounts its /api/auth routes and the app this provider from it.
 */
export function useSignIn(): SignInContextValue | null {
  return useContext(SignInContext)
}

/**
 * Sign-In with Ethereum: the session query drives the sign-in status (RainbowKit's, in the wallet kit), the
 * adapter talks to /api/auth, and every tab follows the others (BroadcastChannel, refetch on focus).
 * Must sit inside WagmiProvider and the QueryClientProvider; mounted only when the config's `signIn` is on.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const config = usePublicConfig()
  const queryClient = useQueryClient()
  const { address, status: accountStatus } = useAccount()
  const query = useCurrentSession()
  const { status, session, foreignSession } = deriveSignInState(
    { data: query.data, error: query.error },
    accountStatus === 'connected' ? address : undefined,
    // Only a connected or remembered wallet waits on the session; wagmi's reconnect-on-mount passes
    // through "connecting" when nothing was remembered.
    accountStatus === 'disconnected' || accountStatus === 'connecting',
  )

  const wagmiConfig = useConfig()
  const adapter = useMemo(
    () =>
      createGuildhallAuthenticationAdapter({
        appUrl: config.appUrl,
        daoName: config.dao.name,
        queryClient,
        connectedAddress: () => {
          const account = getAccount(wagmiConfig)
          return account.status === 'connected' ? account.address : undefined
        },
      }),
    [config.appUrl, config.dao.name, queryClient, wagmiConfig],
  )

  // Another tab signed in or out: ask the server (the cookie is shared by all tabs).
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return
    const channel = new BroadcastChannel(AUTH_CHANNEL_NAME)
    channel.onmessage = (event: MessageEvent<AuthChannelMessage>) => {
      if (event.data?.type === 'signed-in' || event.data?.type === 'signed-out') {
        void queryClient.invalidateQueries({ queryKey: CURRENT_SESSION_QUERY_KEY })
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
    void signOut(queryClient).finally(() => {
      endingForeign.current = false
    })
  }, [foreignSession, queryClient])

  const value = useMemo(
    () => ({ status, session, foreignSession, adapter, signOut: () => signOut(queryClient) }),
    [status, session, foreignSession, adapter, queryClient],
  )

  return <SignInContext.Provider value={value}>{children}</SignInContext.Provider>
}
