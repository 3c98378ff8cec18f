import { STATE_LABELS, timeLine } from '@guildhall/core'
import type { QueryClient } from '@tanstack/react-query'
import { type ReactNode, Suspense, useDeferredValue } from 'react'
import { Link, useParams } from 'react-router'
import { Card } from '../../components/card.tsx'
import { Term } from '../../components/term.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { MemberName } from '../../lib/names.tsx'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'
import { exactTime } from './format.ts'
import { useLiveProposal } from './queries/live.ts'
import { proposalQueryOptions, useProposal } from './queries/proposal.ts'
import { Results, rankedChart } from './results.tsx'
import { Verify } from './verify.tsx'
import { VotePanel } from './vote-panel.tsx'
import { VotesList } from './votes-list.tsx'
import './proposals.css'

// The markdown renderer and its sanitiser (≈ 26 KiB gzip) are their own chunk: requested here, as the page's
// code runs, so they download beside the proposal's data, and evaluated in a task of their own.
const markdown = preloadable(
  () => import('../../components/markdown.tsx'),
  (m) => m.Markdown,
)
void markdown.load().catch(() => {}) // Preloaded's lazy path tries again, and reports

// A proposal's actions and its execution panel (≈ 5 KiB gzip with core's treasury code): one chunk,
// requested once the proposal is known to carry actions.
const treasuryParts = () => import('./execution/proposal-treasury.ts')
const proposalActions = preloadable(treasuryParts, (m) => m.ProposalActions)
const executionPanel = preloadable(treasuryParts, (m) => m.ExecutionPanel)

/**
 * Puts the proposal in the cache and the markdown renderer (and, for a proposal with actions, their code;
 * for a ranked-choice one, its rounds' chart) in place before the page first renders, when the page is opened directly.
 */
export async function prepareProposalPage(queryClient: QueryClient, id: string): Promise<void> {
  await Promise.all([queryClient.prefetchQuery(proposalQueryOptions(id)), markdown.load()])
  // A failed load is tried again by the lazy path, and reported there.
  const detail = queryClient.getQueryData(proposalQueryOptions(id).queryKey)
  if (detail?.actions.length) {
    await proposalActions.load().catch(() => {})
  }
  if (detail?.kind === 'ranked-choice') await rankedChart.load().catch(() => {})
}

/**
 * A proposal: its text, where it stands, the results, your vote, the recount, and every vote; then
 * `discussion`, its thread (the discussion feature's, composed by the route).
 */
export function ProposalPage({ discussion }: { discussion?: (id: string) => ReactNode }) {
  const { id = '' } = useParams()
  const live = useLiveProposal(id)
  const { data: proposal, error } = useProposal(id, live)
  // The heading renders with the answer (the server's shell of this page shows it already); the rest
  // (text, results, vote panel) is the biggest render here, so it follows deferred: React renders it in
  // slices once the heading is in place (ADR 014). A deferred value can still be the previous
  // proposal's for a moment after a navigation.
  const deferred = useDeferredValue(proposal, undefined)
  const details = deferred?.id === id ? deferred : undefined
  if (error) return <p role="alert">This proposal could not be loaded. {describeRequestError(error)}</p>
  if (!proposal) return <p className="muted">Loading the proposal…</p>
  return (
    <article className="page">
      <p>
        <Link to="/proposals">← Proposals</Link>
      </p>
      {/* The server writes this heading into the page's shell too (renderProposalHeader, apps/api/src/
          web/app-shell.ts): a change here must be made there (e2e: governance.spec checks nothing moves). */}
      <header className="page-header">
        <span className={`state state-${proposal.state}`}>{STATE_LABELS[proposal.state]}</span>
        <h1>{proposal.message.title}</h1>
        <p className="muted">
          By <MemberName address={proposal.author} /> ·{' '}
          <span title={exactTime(proposal.state === 'pending' ? proposal.start : proposal.end)}>
            {timeLine(proposal, proposal.now)}
          </span>{' '}
          · <Term id="snapshot-block">snapshot block {proposal.snapshot}</Term>
        </p>
      </header>
      {/* At desktop width the votes list sits under the proposal's text, beside the results (as on other
          governance sites); on a phone it follows the recount, and the results' voter count links to it. */}
      {details ? (
        <div className="proposal-layout">
          <div className="proposal-main">
            <Card title="Proposal" testId="proposal-body">
              {details.category ? (
                <p className="muted" data-testid="proposal-category">
                  Category: {details.category}
                </p>
              ) : null}
              {details.message.body ? (
                <Preloaded code={markdown} props={{ text: details.message.body }} />
              ) : (
                <p className="muted">No description.</p>
              )}
            </Card>
            {details.actions.length > 0 ? (
              <Suspense fallback={null}>
                <Preloaded code={proposalActions} props={{ proposal: details }} />
              </Suspense>
            ) : null}
          </div>
          {/* A column of its own: the cards keep their gap, and the proposal's text keeps its own height. */}
          <div className="proposal-side">
            <Results proposal={details} />
            {details.actions.length > 0 ? (
              <Suspense fallback={null}>
                <Preloaded code={executionPanel} props={{ proposal: details, live }} />
              </Suspense>
            ) : null}
            <VotePanel proposal={details} />
            <Verify proposal={details} />
          </div>
          <div className="proposal-votes" id="votes">
            <VotesList proposal={details} />
          </div>
        </div>
      ) : null}
      {details && discussion ? discussion(details.id) : null}
    </article>
  )
}
