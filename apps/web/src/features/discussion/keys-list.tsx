import type { DiscussionKeyJson } from '@guildhall/core'
import { getAddress } from 'viem'
import { SignedActionStatusLine } from '../../components/signed-action-status.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { useDaoChain } from '../../lib/dao-chain.ts'
import { forgetKey, loadKey } from './discussion-key.ts'
import { useMemberKeys, useRevokeKey } from './queries/member-keys.ts'

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const formatSeconds = (seconds: number) => dateTime.format(new Date(seconds * 1000))

/**
 * "Discussion keys": each browser key the member authorised to sign their comments, reactions and flags,
 * with its scopes and expiry, and a way to revoke it (the wallet signs the revocation).
 */
export function DiscussionKeys() {
  const keys = useMemberKeys()
  const revoke = useRevokeKey()
  const { token, address } = useDaoChain()
  const here = token && address ? loadKey(token.chainId, getAddress(address))?.key : undefined
  const now = Math.floor(Date.now() / 1000)

  async function revokeKey(row: DiscussionKeyJson) {
    const answer = await revoke.run({
      member: row.member,
      key: row.key,
      timestamp: Math.floor(Date.now() / 1000),
    })
    if (answer && token) forgetKey(token.chainId, row.member, row.key)
  }

  return (
    <section className="discussion-keys" aria-labelledby="discussion-keys-heading">
      <h2 id="discussion-keys-heading">Discussion keys</h2>
      <p className="muted">
        A key lets one browser sign your comments, reactions and flags without asking your wallet each time.
        Proposals, votes and delegation always ask your wallet. Revoking a key is signed by your wallet.
      </p>
      {keys.isPending ? (
        <p className="muted" role="status">
          Loading your keys…
        </p>
      ) : keys.isError ? (
        <p role="alert">Your keys could not be loaded. {describeRequestError(keys.error)}</p>
      ) : keys.data.items.length === 0 ? (
        <p className="muted">No keys yet: your first comment asks your wallet to authorise this browser.</p>
      ) : (
        <ul className="session-list" aria-label="Discussion keys">
          {keys.data.items.map((row) => {
            const state = row.revokedAt !== null ? 'Revoked' : row.expires <= now ? 'Expired' : undefined
            return (
              <li key={row.key} className="session-item" data-testid="discussion-key">
                <div className="session-what">
                  <strong>
                    <code>{row.key}</code>
                  </strong>
                  {here?.toLowerCase() === row.key.toLowerCase() ? (
                    <span className="session-badge">This browser</span>
                  ) : null}
                  <span className="muted">may sign: {row.scopes.join(', ')}</span>
                </div>
                <dl className="session-times">
                  <div>
                    <dt>Authorised</dt>
                    <dd>{formatSeconds(row.createdAt)}</dd>
                  </div>
                  <div>
                    <dt>{state === 'Revoked' ? 'Revoked' : 'Expires'}</dt>
                    <dd>{formatSeconds(row.revokedAt ?? row.expires)}</dd>
                  </div>
                </dl>
                {state ? (
                  <span className="muted">{state}</span>
                ) : (
                  <button
                    type="button"
                    className="button"
                    disabled={revoke.busy}
                    onClick={() => void revokeKey(row)}
                    aria-label={`Revoke the key ${row.key}`}
                  >
                    Revoke
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <SignedActionStatusLine
        status={revoke.status}
        words={{
          signing: 'Confirm the revocation in your wallet…',
          submitting: 'Revoking…',
          done: 'The key is revoked: it can no longer sign for you.',
        }}
      />
    </section>
  )
}
