import {
  PROPOSAL_KIND_LABELS,
  PROPOSAL_STATES,
  type ProposalState,
  type proposalListSchema,
  STATE_LABELS,
  timeLine,
} from '@guildhall/core'
import { useState } from 'react'
import { Link } from 'react-router'
import type { z } from 'zod/mini'
import { MorePages } from '../../components/more-pages.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { exactTime, listNames } from './format.ts'
import { useLiveProposals } from './queries/live.ts'
import { useProposals } from './queries/proposals-list.ts'

import './proposals.css'

type ProposalSummary = z.infer<typeof proposalListSchema>['proposals'][number]

const FILTERS: { id: 'all' | ProposalState; label: string; states: readonly ProposalState[] }[] = [
  { id: 'all', label: 'All', states: PROPOSAL_STATES },
  { id: 'active', label: 'Active', states: ['active'] },
  { id: 'pending', label: 'Pending', states: ['pending'] },
  { id: 'closed', label: 'Closed', states: ['closed', 'final'] },
]

/**
 * Where a proposal's count stands, in a few words: who leads while voting is open, the outcome once it
 * closed; nothing before voting opens. A ranked-choice proposal whose rounds were never counted yet has no
 * result (its page counts them).
 */
export function resultLine(proposal: ProposalSummary): string | null {
  if (proposal.state === 'pending') return null
  const { result } = proposal
  if (!result) return 'Counting rounds…'
  const names = listNames(result.leading.map((choice) => proposal.choices[choice - 1] ?? `Choice ${choice}`))
  if (proposal.state === 'active') {
    if (result.leading.length === 0) return 'No votes yet'
    return result.leading.length === 1 ? `Leading: ${names}` : `Tied: ${names}`
  }
  if (result.outcome === 'no-quorum') return 'No quorum'
  if (result.outcome === 'tie') return 'Tie'
  if (result.outcome === 'rejected') return 'Rejected'
  return proposal.kind === 'basic' ? 'Passed' : `Won by ${names}`
}

/** The list of proposals, newest first, filtered by where they stand. */
export function ProposalsPage() {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>(FILTERS[0] as (typeof FILTERS)[number])
  useLiveProposals()
  // "All" asks for every state: no filter.
  const proposals = useProposals(filter.id === 'all' ? [] : filter.states)
  const { data, error, isPending } = proposals
  const shown = data?.pages.flatMap((page) => page.proposals) ?? []
  const now = data?.pages[0]?.now ?? 0
  return (
    <article className="page">
      <header className="page-header with-action">
        <h1>Proposals</h1>
        <Link className="button primary" to="/proposals/new">
          New proposal
        </Link>
      </header>
      <fieldset className="filters" aria-label="Show">
        {FILTERS.map((option) => (
          <button
            key={option.id}
            type="button"
            className="filter"
            aria-pressed={option.id === filter.id}
            onClick={() => setFilter(option)}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
      {error && shown.length === 0 ? (
        <p role="alert">The proposals could not be loaded. {describeRequestError(error)}</p>
      ) : isPending ? (
        <p className="muted">Loading proposals…</p>
      ) : shown.length === 0 ? (
        <p className="muted">
          {filter.id === 'all' ? 'No proposals yet.' : `No ${filter.label.toLowerCase()} proposals.`}
        </p>
      ) : (
        <ul className="proposal-list">
          {shown.map((proposal) => (
            <li key={proposal.id}>
              <Link to={`/proposals/${proposal.id}`} className="proposal-item">
                <span className={`state state-${proposal.state}`}>{STATE_LABELS[proposal.state]}</span>
                <span className="proposal-title">
                  {proposal.title}
                  {proposal.category ? (
                    <span className="proposal-category" data-testid="proposal-category">
                      {' '}
                      · {proposal.category}
                    </span>
                  ) : null}
                </span>
                <span
                  className="muted"
                  title={exactTime(proposal.state === 'pending' ? proposal.start : proposal.end)}
                >
                  {timeLine(proposal, now)}
                </span>
                <ProposalResultLine proposal={proposal} />
              </Link>
            </li>
          ))}
        </ul>
      )}
      <MorePages list={proposals} what="proposals" />
    </article>
  )
}

/** A row's kind (when not For / Against / Abstain) and where its count stands. */
function ProposalResultLine({ proposal }: { proposal: ProposalSummary }) {
  const line = resultLine(proposal)
  const kind = proposal.kind === 'basic' ? null : PROPOSAL_KIND_LABELS[proposal.kind]
  if (!line && !kind) return null
  return (
    <span className="muted proposal-result" data-testid="proposal-result">
      {[kind, line].filter(Boolean).join(' · ')}
    </span>
  )
}
