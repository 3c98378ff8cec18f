import {
  ADDRESS_START_PATTERN,
  ballotText,
  kindTakesWeights,
  type ProposalDetail,
  relativeTime,
  VOTE_LIST_ORDERS,
  voteWeights,
} from '@guildhall/core'
import { useState } from 'react'
import { Card } from '../../components/card.tsx'
import { MorePages } from '../../components/more-pages.tsx'
import { Term } from '../../components/term.tsx'
import { VoteReason } from '../../components/vote-reason.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { SEARCH_PAUSE_MS, useDebouncedValue } from '../../lib/debounced-value.ts'
import { MemberName } from '../../lib/names.tsx'
import { useTokenAmount } from '../../lib/token.ts'
import { exactTime } from './format.ts'
import { useVotes } from './queries/votes.ts'

const ORDER_LABELS: Record<(typeof VOTE_LIST_ORDERS)[number], string> = {
  power: 'Most voting power',
  time: 'Newest',
}

/**
 * Every counting vote, a page at a time: who, what (a ranking in order, weights as shares), with how much
 * power, why and when.
 */
export function VotesList({ proposal }: { proposal: ProposalDetail }) {
  const amount = useTokenAmount()
  const [order, setOrder] = useState<(typeof VOTE_LIST_ORDERS)[number]>('power')
  const [choice, setChoice] = useState<number | undefined>()
  const [search, setSearch] = useState('')
  const [typed] = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS)
  const searchable = typed === '' || ADDRESS_START_PATTERN.test(typed)
  const votes = useVotes(proposal.id, {
    order,
    choice,
    voter: typed !== '' && searchable ? typed : undefined,
  })
  const shown = votes.data?.pages.flatMap((page) => page.votes) ?? []
  const { choices } = proposal.message
  // Every ranked ballot ranks every choice: the filter keeps those that rank it first.
  const ranked = proposal.message.kind === 'ranked-choice'
  // A ranking or a set of shares takes a line of its own on a phone.
  const wideBallots = ranked || kindTakesWeights(proposal.message.kind)
  return (
    <Card title={`Votes (${proposal.tally.voters})`} testId="votes-list">
      <p className="muted">
        Each member's latest vote, the one that counts, with their <Term id="voting-power">voting power</Term>{' '}
        at the <Term id="snapshot-block">snapshot block</Term>.
      </p>
      <div className="votes-controls form">
        <label>
          <span>Order</span>
          <select value={order} onChange={(e) => setOrder(e.target.value as typeof order)}>
            {VOTE_LIST_ORDERS.map((option) => (
              <option key={option} value={option}>
                {ORDER_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{ranked ? 'First choice' : 'Choice'}</span>
          <select
            value={choice ?? ''}
            onChange={(e) => setChoice(e.target.value === '' ? undefined : Number(e.target.value))}
          >
            <option value="">All choices</option>
            {choices.map((label, index) => (
              <option key={label} value={index + 1}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Voter</span>
          <input
            type="search"
            value={search}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setSearch(e.target.value)}
            aria-describedby={searchable ? undefined : 'voter-search-hint'}
          />
        </label>
      </div>
      {!searchable ? (
        <p id="voter-search-hint" className="muted">
          Search by the start of an address: 0x followed by up to 40 hex digits.
        </p>
      ) : votes.error && shown.length === 0 ? (
        <p role="alert">The votes could not be loaded. {describeRequestError(votes.error)}</p>
      ) : votes.isPending ? (
        <p className="muted">Loading votes…</p>
      ) : shown.length === 0 ? (
        <p className="muted">{choice === undefined && typed === '' ? 'No votes yet.' : 'No votes match.'}</p>
      ) : (
        <ol className="votes">
          {shown.map((vote) => (
            <li key={vote.voter} className={wideBallots ? 'vote-row wide-ballot' : 'vote-row'}>
              <span className="vote-voter">
                <MemberName address={vote.voter} />
              </span>
              <span className="vote-choices">
                {ballotText(proposal.message.kind, choices, {
                  choices: vote.choices,
                  weights: voteWeights(vote.message),
                  power: vote.power,
                })}
              </span>
              <span className="vote-power">{amount(vote.power)}</span>
              <span className="vote-time muted" title={exactTime(vote.timestamp)}>
                {relativeTime(vote.timestamp, proposal.now)}
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
