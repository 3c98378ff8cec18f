import { type Session, type SessionResponse, sessionResponseSchema } from '@guildhall/core'
import type { AuthenticationStatus } from '@rainbow-me/rainbowkit'
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import { ApiRequestError, apiFetch, apiGet } from '../../lib/api.ts'

export type { Session, SessionResponse }

export const SESSION_QUERY_KEY = ['api', 'auth', 'session'] as const

/** A logout that could not reach the server; retried before the next session check (survives reloads). */
const LOGOUT_PENDING_KEY = 'guildhall.auth.logoutPending'

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export const logoutPending = {
  get: () => storage()?.getItem(LOGOUT_PENDING_KEY) === '1',
  set: () => storage()?.setItem(LOGOUT_PENDING_KEY, '1'),
  clear: () => storage()?.removeItem(LOGOUT_PENDING_KEY),
}

/** POST /api/auth/logout; true when the server has no session for us any more (204, 401, 404). */
export async function postLogout(): Promise<boolean> {
  try {
    const response = await apiFetch('POST', '/api/auth/logout')
    const done = response.ok || response.status === 401 || response.status === 404
    if (done) logoutPending.clear()
    else logoutPending.set()
    return done
  } catch {
    logoutPending.set()
    return false
  }
}

/** GET /api/auth/session: who this browser is signed in as (never 401: `{ session: null }` instead). */
export async function fetchSession(): Promise<SessionResponse> {
  // A sign-out that failed offline is finished first, so the old cookie cannot sign us back in.
  if (logoutPending.get() && !(await postLogout())) return { session: null }
  return apiGet('/api/auth/session', sessionResponseSchema)
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSession,
    // The server is the only truth about a session: asked on every mount and focus, never persisted;
    // a server without sign-in (404) is not asked again until the page reloads.
    staleTime: 0,
    refetchOnWindowFocus: (query) => !isSignInUnavailable(query.state.error),
    refetchOnReconnect: (query) => !isSignInUnavailable(query.state.error),
    meta: { persist: false },
  })

export function useSession() {
  return useQuery(sessionQueryOptions())
}

/** A 404 from the session route means this server does not offer sign-in: connect-only, no adapter. */
export function isSignInUnavailable(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404
}

export interface SignInState {
  /** What RainbowKit is told. */
  status: AuthenticationStatus
  /** False when the server has no sign-in (connect-only); RainbowKit then gets no adapter. */
  available: boolean
  /** The session, only when it belongs to the connected wallet. */
  session: Session | null
  /** A session exists for an address other than the connected one: it must be ended. */
  foreignSession: boolean
}

/**
 * The RainbowKit status from the session query. `loading` only while the first answer is really
 * outstanding (so neither the sign-in modal nor the button flashes); a failed first fetch is
 * `unauthenticated` (nothing proves a session), a later failed refetch keeps the last known answer.
 */
export function deriveSignInState(
  query: { data: SessionResponse | undefined; error: unknown },
  connectedAddress: string | undefined,
  walletIdle = false,
): SignInState {
  if (query.data === undefined) {
    // With no wallet connected or reconnecting nothing waits on the session. Reporting "loading" there
    // would let RainbowKit show "Connect Wallet" and then close the just-opened connect modal when the
    // answer turns the status to "unauthenticated" (its ModalProvider closes modals on that change).
    if (query.error == null && walletIdle) {
      return { status: 'unauthenticated', available: true, session: null, foreignSession: false }
    }
    if (query.error == null)
      return { status: 'loading', available: true, session: null, foreignSession: false }
    return {
      status: 'unauthenticated',
      available: !isSignInUnavailable(query.error),
      session: null,
      foreignSession: false,
    }
  }
  const session = query.data.session
  if (!session) return { status: 'unauthenticated', available: true, session: null, foreignSession: false }
  const foreign =
    connectedAddress !== undefined && connectedAddress.toLowerCase() !== session.address.toLowerCase()
  return foreign
    ? { status: 'unauthenticated', available: true, session: null, foreignSession: true }
    : { status: 'authenticated', available: true, session, foreignSession: false }
}

/** Marks this tab signed out at once, before the server has answered. */
export function setSignedOut(queryClient: QueryClient): void {
  queryClient.setQueryData<SessionResponse>(SESSION_QUERY_KEY, { session: null })
}

/** The channel every tab of the app listens on for sign-in and sign-out. */
export const AUTH_CHANNEL_NAME = 'guildhall-auth'

export type AuthChannelMessage = { type: 'signed-in' } | { type: 'signed-out' }

/** Tells the other tabs that the session changed; they refetch it (the cookie is shared). */
export function announceAuthChange(message: AuthChannelMessage): void {
  if (typeof BroadcastChannel === 'undefined') return
  const channel = new BroadcastChannel(AUTH_CHANNEL_NAME)
  channel.postMessage(message)
  channel.close()
}
