import {
  MEMBER_SORTS,
  type MemberListItem,
  type MemberSort,
  relativeTime,
  shortenAddress,
} from '@guildhall/core'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { MorePages } from '../../components/more-pages.tsx'
import { Term } from '../../components/term.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { SEARCH_PAUSE_MS, useDebouncedValue } from '../../lib/debounced-value.ts'
import { MemberAvatar, useName } from '../../lib/names.tsx'
import { useTokenAmount } from '../../lib/token.ts'
import { percent } from './format.ts'
import { useMembers } from './queries/members-list.ts'
import './members.css'

const SORT_LABELS: Record<MemberSort, string> = {
  power: 'Most voting power',
  delegators: 'Most delegators',
  participation: 'Highest participation',
}

/**
 * Every member with tokens, voting power, delegators or a vote (ADR 037), a page at a time, by voting power,
 * delegators or participation, searched by the start of an address or of a name (a whole address finds any
 * account). Order, search and page size live in the page's URL.
 */
export function MembersPage() {
  const [params, setParams] = useSearchParams()
  const sort = (MEMBER_SORTS as readonly string[]).includes(params.get('sort') ?? '')
    ? (params.get('sort') as MemberSort)
    : 'power'
  const q = params.get('q')?.trim() ?? ''
  const limit = Number(params.get('limit')) || undefined
  const [typed, setTyped] = useState(q)
  const [search] = useDebouncedValue(typed.trim(), SEARCH_PAUSE_MS)
  useEffect(() => {
    if (search === q) return
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (search) next.set('q', search)
        else next.delete('q')
        return next
      },
      { replace: true },
    )
  }, [search, q, setParams])
  const members = useMembers({ sort, q: q || undefined, limit })
  // A member whose figures changed while paging can come again on a later page: the latest row stands.
  const rows = [
    ...new Map(
      (members.data?.pages ?? []).flatMap((page) => page.members).map((m) => [m.address, m]),
    ).values(),
  ]
  return (
    <article className="page members-page">
      <header className="page-header">
        <h1>Members</h1>
      </header>
      <div className="members-controls form">
        <label>
          <span>Order</span>
          <select
            value={sort}
            onChange={(e) =>
              setParams((current) => {
                const next = new URLSearchParams(current)
                next.set('sort', e.target.value)
                return next
              })
            }
          >
            {MEMBER_SORTS.map((option) => (
              <option key={option} value={option}>
                {SORT_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Search</span>
          <input
            type="search"
            value={typed}
            placeholder="0x… or name"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
      </div>
      <p className="muted">
        <Term id="voting-power">Voting power</Term>, <Term id="delegators">delegators</Term> and{' '}
        <Term id="participation">participation</Term> are explained in the{' '}
        <Link to="/glossary">glossary</Link>.
      </p>
      <p className="muted">
        What the moderators did in the discussions is public: the <Link to="/moderation">moderation log</Link>
        .
      </p>
      {members.error && rows.length === 0 ? (
        <p role="alert">The members could not be loaded. {describeRequestError(members.error)}</p>
      ) : members.isPending ? (
        <p className="muted">Loading members…</p>
      ) : rows.length === 0 ? (
        <p className="muted">{q === '' ? 'No members yet.' : 'No members match.'}</p>
      ) : (
        <MemberRows rows={rows} stale={members.isPlaceholderData} />
      )}
      <MorePages list={members} what="members" />
    </article>
  )
}

function MemberRows({ rows, stale }: { rows: MemberListItem[]; stale: boolean }) {
  const amount = useTokenAmount()
  const now = Math.floor(Date.now() / 1000)
  return (
    <ol className="member-list" aria-busy={stale} data-testid="member-list">
      <li className="member-row member-head" aria-hidden="true">
        <span>Member</span>
        <span>Voting power</span>
        <span>Delegators</span>
        <span>Tokens</span>
        <span>Participation</span>
        <span>Last vote</span>
      </li>
      {rows.map((member) => (
        <li key={member.address}>
          <Link to={`/members/${member.address}`} className="member-row" data-testid="member-row">
            <MemberWho address={member.address} />
            <span className="member-figure member-power">
              <span className="member-label">Voting power </span>
              <span data-testid="member-power">
                {amount(member.votes)} <span className="muted">{percent(member.share)}</span>
              </span>
            </span>
            {/* One line on a phone, cut with "…" where it ends; at desktop width each is a column of the row. */}
            <span className="member-more">
              <span className="member-figure member-delegators">
                <span className="member-label">Delegators </span>
                <span data-testid="member-delegators">{member.delegators}</span>
              </span>
              <span className="member-figure member-participation">
                <span className="member-label">Participation </span>
                <span data-testid="member-participation">
                  {member.participation === null
                    ? '—'
                    : `${percent(member.participation)} (${member.votesCast} of ${member.eligibleProposals})`}
                </span>
              </span>
              <span className="member-figure member-last-vote">
                <span className="member-label">Last vote </span>
                <span>{member.lastVoteAt === null ? 'Never' : relativeTime(member.lastVoteAt, now)}</span>
              </span>
              <span className="member-figure member-tokens">
                <span className="member-label">Tokens </span>
                <span>{amount(member.balance)}</span>
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ol>
  )
}

/** Avatar and name, and under a name the shortened address; the full address on hover. */
function MemberWho({ address }: { address: string }) {
  const name = useName(address)?.name
  return (
    <span className="member-who" title={address} data-testid="member-who">
      <MemberAvatar address={address} />
      <span className="member-who-text">
        <span className="member-who-name">{name ?? shortenAddress(address)}</span>
        {name ? <span className="member-who-address muted">{shortenAddress(address)}</span> : null}
      </span>
    </span>
  )
}
