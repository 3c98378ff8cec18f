import { shortenAddress } from '@guildhall/core'
import { useState } from 'react'
import { Link } from 'react-router'
import './auth.css'
import { useSignIn } from './auth-provider.tsx'

/** "Signed in as 0x12…abcd · Sign out · Your sessions", shown only while signed in. */
export function SignedInAs() {
  const signIn = useSignIn()
  const [busy, setBusy] = useState(false)
  if (signIn?.status !== 'authenticated' || !signIn.session) return null
  const { address } = signIn.session
  const signOut = () => {
    setBusy(true)
    // The adapter never throws; the status flips at once, the server call follows.
    void signIn.adapter.signOut().finally(() => setBusy(false))
  }
  return (
    <div className="signed-in" data-testid="signed-in-as">
      <span>
        Signed in as <span title={address}>{shortenAddress(address)}</span>
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
