import { useState } from 'react'
import { Link } from 'react-router'
import { useAccount } from 'wagmi'
import { MemberName } from '../../lib/names.tsx'
import './auth.css'
import { useSignIn } from './auth-provider.tsx'
import { SignInButton } from './session-gate.tsx'

/**
 * The header's session line: "Signed in as ada.eth · Sign out · Your sessions" (the member's name, else
 * their shortened address, as anywhere in the app) while signed in, and
 * "Not signed in · Sign in" while a wallet is connected without a session (after an account switch or a
 * sign-out, RainbowKit's button reads "Connect Wallet" again though the wallet is connected). Nothing
 * without sign-in, or without a wallet.
 */
export function SignedInAs() {
  const signIn = useSignIn()
  const { isConnected } = useAccount()
  const [busy, setBusy] = useState(false)
  if (signIn?.status === 'unauthenticated' && isConnected) {
    return (
      <div className="signed-in" data-testid="header-sign-in">
        <span>Not signed in</span>
        <SignInButton />
      </div>
    )
  }
  if (signIn?.status !== 'authenticated' || !signIn.session) return null
  const { address } = signIn.session
  const signOut = () => {
    setBusy(true)
    // Never throws; the status flips at once, the server call follows.
    void signIn.signOut().finally(() => setBusy(false))
  }
  return (
    <div className="signed-in" data-testid="signed-in-as">
      <span>
        {/* Not a link: the header's links are its actions, each a 36 px target. */}
        Signed in as <MemberName address={address} link={false} avatarSize={16} />
      </span>
      <span aria-hidden="true" className="signed-in-sep">
        ·
      </span>
      <button type="button" className="link-button" onClick={signOut} disabled={busy}>
        Sign out
      </button>
      <span aria-hidden="true" className="signed-in-sep">
        ·
      </span>
      <Link to="/account/sessions">Your sessions</Link>
    </div>
  )
}
