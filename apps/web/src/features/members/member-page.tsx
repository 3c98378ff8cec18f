import type { MemberProfile } from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import type { Address } from 'viem'
import { useAccount } from 'wagmi'
import { Card } from '../../components/card.tsx'
import { ApiRequestError, describeRequestError } from '../../lib/api.ts'
import { MemberAvatar, useDisplayName } from '../../lib/names.tsx'
import { DelegateStatementEditor } from './delegate-statement.tsx'
import { CopyableAddress } from './member-page/copyable-address.tsx'
import { MemberDelegators } from './member-page/member-delegators.tsx'
import { MemberFigures } from './member-page/member-figures.tsx'
import { MemberProposals } from './member-page/member-proposals.tsx'
import { MemberVotes } from './member-page/member-votes.tsx'
import { PowerHistory } from './member-page/power-history.tsx'
import { ZeroPowerReason } from './member-page/zero-power-reason.tsx'
import { useMember } from './queries/member.ts'
import { memberPageKeys } from './queries/member-keys.ts'
import { DelegateStatementView } from './statement-view.tsx'
import './members.css'

/**
 * A member's page, `/members/<address or name>`: who they are, their figures, their delegate statement (their
 * own editable when it is the connected account's page), their voting power over time, votes, proposals and
 * delegators. `actions` (the app's "Delegate to …") show beside the header; `refresh` reloads what the page
 * shows of the member, for an action that changed it.
 */
export function MemberPage({ actions }: { actions?: MemberActions }) {
  const { address: who = '' } = useParams()
  const member = useMember(who)
  if (member.error) {
    const unknown = member.error instanceof ApiRequestError && [400, 404].includes(member.error.status)
    return (
      <article className="page">
        <header className="page-header">
          <h1>{unknown ? 'No such member' : 'Member'}</h1>
        </header>
        <p role="alert">
          {unknown
            ? member.error.message
            : `This member could not be loaded. ${describeRequestError(member.error)}`}
        </p>
        <p>
          <Link to="/members">Find a member in the directory</Link>
        </p>
      </article>
    )
  }
  if (member.isPending) {
    return (
      <article className="page">
        <p className="muted">Loading the member…</p>
      </article>
    )
  }
  return <MemberView member={member.data} actions={actions} />
}

type MemberActions = (address: Address, refresh: () => void) => ReactNode

function MemberView({ member, actions }: { member: MemberProfile; actions?: MemberActions }) {
  const { address } = member
  const queryClient = useQueryClient()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: memberPageKeys.all })
  const name = useDisplayName(address)
  const connected = useAccount().address
  const own = connected !== undefined && connected.toLowerCase() === address.toLowerCase()
  return (
    <article className="page member-page">
      <header className="page-header member-page-header">
        <MemberAvatar address={address} size={64} />
        <div className="member-page-who">
          <h1 title={address}>{name}</h1>
          <CopyableAddress address={address} />
        </div>
        {actions ? <div className="member-page-actions">{actions(address, refresh)}</div> : null}
      </header>
      {own && member.avatarProblem ? (
        <p className="muted" data-testid="member-avatar-problem">
          <span>{member.avatarProblem}</span> Your name's avatar record gives no picture here, so the one made
          from your address stands in: set the record to an ipfs:// or ar:// image to show yours.
        </p>
      ) : null}
      {member.listed ? null : (
        <p className="muted" data-testid="member-not-listed">
          The members directory does not list this address: it holds no tokens, has no voting power, nobody
          delegates to it and it has not voted.
        </p>
      )}
      <MemberFigures member={member} own={own} />
      <ZeroPowerReason member={member} own={own} name={name} />
      <div className="grid member-page-grid">
        {own ? (
          <DelegateStatementEditor />
        ) : (
          <Card title="Delegate statement" testId="member-statement">
            <DelegateStatementView delegate={address} />
          </Card>
        )}
        <PowerHistory address={address} />
      </div>
      <MemberVotes address={address} />
      <MemberProposals address={address} />
      <MemberDelegators address={address} />
    </article>
  )
}
