import type { SessionListItem } from '@guildhall/core'
import { type ReactNode, useState } from 'react'
import { useAccount } from 'wagmi'
import { describeRequestError } from '../../lib/api.ts'
import { chainName } from '../../lib/chains.ts'
import { MemberName } from '../../lib/names.tsx'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import './auth.css'
import { useSignIn } from './auth-provider.tsx'
import { useMemberSessions } from './queries/member-sessions.ts'
import { useRevokeSessions } from './queries/revoke-sessions.ts'
import { SignInButton } from './session-gate.tsx'
import { describeUserAgent } from './user-agent.ts'

/** What this page has always said for an error that is not a request's. */
const SESSIONS_FALLBACK = 'Something went wrong. Please try again.'

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const formatDate = (iso: string) => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date)
}

/**
 * /account/sessions: where this address is signed in, with a way to end any or all of it; `beside`, what
 * else acts for the signed-in member (the discussion keys, composed by the route), under the sessions.
 */
export function SessionsPage({ beside }: { beside?: ReactNode }) {
  const signIn = useSignIn()
  const { isConnected } = useAccount()
  const signedIn = signIn?.status === 'authenticated'
  return (
    <article className="page sessions-page">
      <h1>Your sessions</h1>
      {!signIn ? (
        <p className="muted">Sign-in is turned off on this server, so there are no sessions to manage.</p>
      ) : signIn.status === 'loading' ? (
        <p className="muted" role="status">
          Checking your session…
        </p>
      ) : (!signedIn || !signIn.session) && isConnected ? (
        <div className="sign-in-prompt">
          <p className="muted">You are not signed in. Sign in to see where you are signed in.</p>
          <SignInButton />
        </div>
      ) : !signedIn || !signIn.session ? (
        <p className="muted">
          You are not signed in. Connect your wallet and sign the message to see where you are signed in.
        </p>
      ) : (
        <>
          <SessionList address={signIn.session.address} />
          {beside}
        </>
      )}
    </article>
  )
}

function SessionList({ address }: { address: string }) {
  const config = usePublicConfig()
  const sessions = useMemberSessions()
  const revoke = useRevokeSessions()
  const [confirmAll, setConfirmAll] = useState(false)

  return (
    <>
      <p className="lead">
        Signed in as <MemberName address={address} />. Ending a session signs that browser out; your wallet
        stays connected.
      </p>
      {sessions.isPending ? (
        <p className="muted" role="status">
          Loading your sessions…
        </p>
      ) : sessions.isError ? (
        <div role="alert" className="error">
          <p>Your sessions could not be loaded. {describeRequestError(sessions.error, SESSIONS_FALLBACK)}</p>
          <button type="button" className="button" onClick={() => void sessions.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <ul className="session-list" aria-label="Sessions">
          {sessions.data.sessions.map((row) => (
            <SessionItem
              key={row.id}
              row={row}
              chain={chainName(config.chains, row.chainId)}
              busy={revoke.isPending}
              onRevoke={() => revoke.mutate({ id: row.id, current: row.current })}
            />
          ))}
        </ul>
      )}
      <p className="status error" role="alert">
        {revoke.isError ? `That did not work. ${describeRequestError(revoke.error, SESSIONS_FALLBACK)}` : ''}
      </p>
      <div className="session-actions">
        {confirmAll ? (
          <>
            <span>Sign out of every session, this one included?</span>
            <button
              type="button"
              className="button primary"
              disabled={revoke.isPending}
              onClick={() =>
                revoke.mutate({ id: null, current: true }, { onSettled: () => setConfirmAll(false) })
              }
            >
              Yes, sign out everywhere
            </button>
            <button type="button" className="button" onClick={() => setConfirmAll(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button"
            disabled={revoke.isPending}
            onClick={() => setConfirmAll(true)}
          >
            Sign out everywhere
          </button>
        )}
      </div>
    </>
  )
}

function SessionItem({
  row,
  chain,
  busy,
  onRevoke,
}: {
  row: SessionListItem
  /** The name of the chain it signed in on. */
  chain: string
  busy: boolean
  onRevoke: () => void
}) {
  const device = describeUserAgent(row.userAgent)
  return (
    <li className="session-item" data-testid="session-item" aria-current={row.current ? 'true' : undefined}>
      <div className="session-what">
        <strong title={row.userAgent ?? undefined}>{device}</strong>
        {row.current ? <span className="session-badge">This device</span> : null}
        <span className="muted">on {chain}</span>
      </div>
      <dl className="session-times">
        <div>
          <dt>Signed in</dt>
          <dd>{formatDate(row.createdAt)}</dd>
        </div>
        <div>
          <dt>Last active</dt>
          <dd>{formatDate(row.lastSeenAt)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{formatDate(row.expiresAt)}</dd>
        </div>
      </dl>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={onRevoke}
        aria-label={
          row.current
            ? 'Sign out of this device'
            : `End the session of ${device}, signed in ${formatDate(row.createdAt)}`
        }
      >
        {row.current ? 'Sign out here' : 'End session'}
      </button>
    </li>
  )
}
