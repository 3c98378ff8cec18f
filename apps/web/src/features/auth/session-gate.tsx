import { requestConnectModal } from '../../wallet-kit/kit-bridge.ts'
import './auth.css'
import { useSignIn } from './auth-provider.tsx'

/**
 * Whether a connected wallet may go on with something that needs a session (writing a proposal, voting,
 * its sessions): `open` when signed in, or when the server has no sign-in (connecting is the whole login
 * then); `checking` while the session is being asked for; `sign-in` when it must sign in first.
 */
export type SessionGate = 'open' | 'checking' | 'sign-in'

export function useSessionGate(): SessionGate {
  const signIn = useSignIn()
  if (!signIn || signIn.status === 'authenticated') return 'open'
  return signIn.status === 'loading' ? 'checking' : 'sign-in'
}

/**
 * "Sign in": RainbowKit's connect modal, which for a connected wallet without a session is its
 * "Verify your account" step.
 */
export function SignInButton({ className = 'button primary' }: { className?: string }) {
  return (
    <button type="button" className={className} onClick={requestConnectModal}>
      Sign in
    </button>
  )
}

/**
 * What a page shows in place of a form that needs a session, before the member fills anything in: that
 * they must sign in, and the button to do it. `purpose` completes "Sign in to …".
 */
export function SessionGateNotice({
  gate,
  purpose,
}: {
  gate: Exclude<SessionGate, 'open'>
  purpose: string
}) {
  if (gate === 'checking') {
    return (
      <p className="muted" role="status">
        Checking your session…
      </p>
    )
  }
  return (
    <div className="sign-in-prompt">
      <p>
        Sign in to {purpose}. Your wallet signs a message to prove the address is yours; it costs nothing.
      </p>
      <SignInButton />
    </div>
  )
}
