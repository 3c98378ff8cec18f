import type { Session, SessionResponse } from '@guildhall/core'
import type { AuthenticationStatus } from '@rainbow-me/rainbowkit'

export interface SignInState {
  /** What RainbowKit is told. */
  status: AuthenticationStatus
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
    const waiting = query.error == null && !walletIdle
    return { status: waiting ? 'loading' : 'unauthenticated', session: null, foreignSession: false }
  }
  const session = query.data.session
  if (!session) return { status: 'unauthenticated', session: null, foreignSession: false }
  const foreign =
    connectedAddress !== undefined && connectedAddress.toLowerCase() !== session.address.toLowerCase()
  return foreign
    ? { status: 'unauthenticated', session: null, foreignSession: true }
    : { status: 'authenticated', session, foreignSession: false }
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
