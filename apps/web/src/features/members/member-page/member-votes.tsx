import { relativeTime } from '@guildhall/core'
import { Link } from 'react-router'
import type { Address } from 'viem'
import { Card } from '../../../components/card.tsx'
import { MorePages } from '../../../components/more-pages.tsx'
import { VoteReason } from '../../../components/vote-reason.tsx'
import { describeRequestError } from '../../../lib/api.ts'
import { useTokenAmount } from '../../../lib/token.ts'
import { useMemberVotes } from '../queries/member-votes.ts'

/** The member's ballots, newest first: the proposal, their choice, their power and reason, a page at a time. */
export function MemberVotes({ address }: { address: Address }) {
  const votes = useMemberVotes(address)
  const amount = useTokenAmount()
  const rows = votes.data?.pages.flatMap((page) => page.votes) ?? []
  const now = Math.floor(Date.now() / 1000)
  return (
    <Card title="Votes" testId="member-votes">
      {votes.isPending ? (
        <p className="muted">Loading the votes…</p>
      ) : rows.length === 0 ? (
        votes.error ? (
          <p role="alert">The votes could not be loaded. {describeRequestError(votes.error)}</p>
        ) : (
          <p className="muted">No votes yet.</p>
        )
      ) : (
        <ol className="member-page-list">
          {rows.map((vote) => (
            <li key={vote.id} data-testid="member-vote">
              <Link to={`/proposals/${vote.proposalId}`}>{vote.proposalTitle}</Link>
              <span>
                <span className="member-page-choice">{vote.choiceLabels.join(', ')}</span>
                {' · '}
                {amount(vote.power)}
                {' · '}
                <time dateTime={new Date(vote.timestamp * 1000).toISOString()} className="muted">
                  {relativeTime(vote.timestamp, now)}
                </time>
              </span>
              {vote.reason ? <VoteReason reason={vote.reason} /> : null}
            </li>
          ))}
        </ol>
      )}
      <MorePages list={votes} what="votes" />
    </Card>
  )
}
