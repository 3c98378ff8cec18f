import { STATE_LABELS, timeLine } from '@guildhall/core'
import { Link } from 'react-router'
import type { Address } from 'viem'
import { Card } from '../../../components/card.tsx'
import { MorePages } from '../../../components/more-pages.tsx'
import { describeRequestError } from '../../../lib/api.ts'
import { useMemberProposals } from '../queries/member-proposals.ts'

/** The proposals the member wrote, newest first, with where each stands, a page at a time. */
export function MemberProposals({ address }: { address: Address }) {
  const proposals = useMemberProposals(address)
  const rows = proposals.data?.pages.flatMap((page) => page.proposals) ?? []
  const now = proposals.data?.pages[0]?.now ?? Math.floor(Date.now() / 1000)
  return (
    <Card title="Proposals written" testId="member-proposals">
      {proposals.isPending ? (
        <p className="muted">Loading the proposals…</p>
      ) : rows.length === 0 ? (
        proposals.error ? (
          <p role="alert">The proposals could not be loaded. {describeRequestError(proposals.error)}</p>
        ) : (
          <p className="muted">No proposals written.</p>
        )
      ) : (
        <ol className="member-page-list">
          {rows.map((proposal) => (
            <li key={proposal.id} data-testid="member-proposal">
              <Link to={`/proposals/${proposal.id}`}>{proposal.title}</Link>
              <span>
                <span className={`state state-${proposal.state}`}>{STATE_LABELS[proposal.state]}</span>{' '}
                <span className="muted">{timeLine(proposal, now)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <MorePages list={proposals} what="proposals" />
    </Card>
  )
}
