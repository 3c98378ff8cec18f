import { type MemberProfile, relativeTime, STATE_LABELS, timeLine } from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { Link, useParams } from 'react-router'
import type { Address } from 'viem'
import { useAccount } from 'wagmi'
import { Card, Stat } from '../../components/card.tsx'
import { FullAddress } from '../../components/full-address.tsx'
import { Term } from '../../components/term.tsx'
import { VoteReason } from '../../components/vote-reason.tsx'
import { ApiRequestError, describeRequestError } from '../../lib/api.ts'
import { MemberAvatar, MemberName, useDisplayName } from '../../lib/names.tsx'
import { useTokenAmount } from '../../lib/token.ts'
import { DelegateStatementEditor } from './delegate-statement.tsx'
import { percent } from './format.ts'
import { PowerChart } from './power-chart.tsx'
import { useMember } from './queries/member.ts'
import { useMemberDelegators } from './queries/member-delegators.ts'
import { memberPageKeys } from './queries/member-keys.ts'
import { usePowerHistory } from './queries/member-power.ts'
import { useMemberProposals } from './queries/member-proposals.ts'
import { useMemberVotes } from './queries/member-votes.ts'
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
      <Figures member={member} own={own} />
      <ZeroPowerReason member={member} own={own} name={name} />
      <div className="grid member-page-grid">
        {own ? (
          <DelegateStatementEditor />
        ) : (
          <Card title="Delegate statement" testId="member-statement">
            <DelegateStatementView delegate={address} />
          </Card>
        )}
        <PowerCard address={address} />
      </div>
      <Votes address={address} />
      <Proposals address={address} />
      <Delegators address={address} />
    </article>
  )
}

/** The full address, with a button that copies it. */
function CopyableAddress({ address }: { address: Address }) {
  const [copied, setCopied] = useState<boolean>()
  return (
    <p className="member-full-address">
      <FullAddress address={address} testId="member-address" />{' '}
      <button
        type="button"
        className="button"
        onClick={() =>
          navigator.clipboard.writeText(address).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        Copy address
      </button>
      <span role="status" className="muted">
        {copied === undefined
          ? ''
          : copied
            ? 'Copied.'
            : 'The browser did not allow copying; select the address instead.'}
      </span>
    </p>
  )
}

/**
 * Why a member who holds tokens has no voting power: public facts from their figures (balance and
 * delegate), so said to anyone, signed in or not. Worded for the member on their own page.
 */
function ZeroPowerReason({ member, own, name }: { member: MemberProfile; own: boolean; name: string }) {
  const amount = useTokenAmount()
  // Self-delegated tokens are votes: a holder delegating to themself has power, so nothing to explain.
  if (BigInt(member.votes) > 0n || BigInt(member.balance) === 0n || member.delegate === member.address)
    return null
  const tokens = amount(member.balance)
  return (
    <p className="notice notice-info" data-testid="member-zero-power">
      {member.delegate === null ? (
        own ? (
          `You hold ${tokens} but have not delegated them, so they are nobody's votes: tokens become votes only when delegated. Delegate to yourself to vote with them on proposals created after that.`
        ) : (
          `${name} holds ${tokens} but has not delegated them, so they are nobody's votes: tokens become votes only when delegated, to their holder or to another member.`
        )
      ) : (
        <>
          {own ? `You delegate your ${tokens} to ` : `${name} delegates their ${tokens} to `}
          <MemberName address={member.delegate} />, who votes with them.
        </>
      )}
    </p>
  )
}

function Figures({ member, own }: { member: MemberProfile; own: boolean }) {
  const amount = useTokenAmount()
  const now = Math.floor(Date.now() / 1000)
  return (
    <dl className="stats member-figures" data-testid="member-figures">
      <Stat
        label={<Term id="voting-power">Voting power</Term>}
        value={
          <>
            {amount(member.votes)} <span className="muted">{percent(member.share)}</span>
          </>
        }
        testId="member-power"
      />
      <Stat
        label={<Term id="delegators">Delegators</Term>}
        value={member.delegators}
        testId="member-delegators"
      />
      <Stat label="Tokens" value={amount(member.balance)} testId="member-balance" />
      <Stat
        label={<Term id="delegation">Delegates to</Term>}
        testId="member-delegate"
        value={
          member.delegate === null ? (
            'Nobody'
          ) : member.delegate === member.address ? (
            own ? (
              'Yourself'
            ) : (
              'Self'
            )
          ) : (
            <MemberName address={member.delegate} />
          )
        }
      />
      <Stat
        label={<Term id="participation">Participation</Term>}
        value={
          member.participation === null
            ? '—'
            : `${percent(member.participation)} (${member.votesCast} of ${member.eligibleProposals})`
        }
        testId="member-participation"
      />
      <Stat
        label="Last vote"
        value={member.lastVoteAt === null ? 'Never' : relativeTime(member.lastVoteAt, now)}
      />
    </dl>
  )
}

function PowerCard({ address }: { address: Address }) {
  const history = usePowerHistory(address)
  const amount = useTokenAmount()
  return (
    <Card title="Voting power over time" testId="member-power-history">
      {history.error ? (
        <p role="alert">
          The voting power history could not be loaded. {describeRequestError(history.error)}
        </p>
      ) : history.isPending ? (
        <p className="muted">Loading the voting power history…</p>
      ) : (
        <PowerChart history={history.data} amount={amount} />
      )}
    </Card>
  )
}

/** "Show more" under a paged list, and the sentence when a further page fails. */
function MorePages({
  list,
  what,
}: {
  list: {
    hasNextPage: boolean
    isFetchingNextPage: boolean
    isFetchNextPageError: boolean
    error: Error | null
    fetchNextPage: () => unknown
  }
  what: string
}) {
  return (
    <>
      {list.isFetchNextPageError ? (
        <p role="alert">
          More {what} could not be loaded. {describeRequestError(list.error)}
        </p>
      ) : null}
      {list.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading…' : `Show more ${what}`}
        </button>
      ) : null}
    </>
  )
}

function Votes({ address }: { address: Address }) {
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

function Proposals({ address }: { address: Address }) {
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

function Delegators({ address }: { address: Address }) {
  const delegators = useMemberDelegators(address)
  const amount = useTokenAmount()
  const rows = delegators.data?.pages.flatMap((page) => page.delegators) ?? []
  return (
    <Card title="Delegators" testId="member-delegator-list">
      {delegators.isPending ? (
        <p className="muted">Loading the delegators…</p>
      ) : rows.length === 0 ? (
        delegators.error ? (
          <p role="alert">The delegators could not be loaded. {describeRequestError(delegators.error)}</p>
        ) : (
          <p className="muted">Nobody delegates to this member.</p>
        )
      ) : (
        <ol className="member-page-list">
          {rows.map((row) => (
            <li key={row.address} className="member-page-delegator" data-testid="member-delegator">
              <MemberName address={row.address} />
              <span>{amount(row.balance)}</span>
            </li>
          ))}
        </ol>
      )}
      <MorePages list={delegators} what="delegators" />
    </Card>
  )
}
