import {
  basisPoints,
  formatBasisPoints,
  type GlossaryTermId,
  PROPOSAL_KIND_HELP,
  PROPOSAL_KIND_LABELS,
  type ProposalDetail,
  type ProposalKind,
  QUADRATIC_WARNING,
  sharesInBasisPoints,
  type TallyJson,
} from '@guildhall/core'
import { Suspense } from 'react'
import { Card } from '../../components/card.tsx'
import { Term } from '../../components/term.tsx'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'
import { useTokenAmount } from '../../lib/token.ts'
import { listNames } from './format.ts'
import { RankedRounds } from './ranked-rounds.tsx'
import type { RankedRoundJson } from './ranked-steps.ts'

const OUTCOME_LABELS: Record<TallyJson['outcome'], string> = {
  passed: 'Passed',
  rejected: 'Rejected',
  'no-quorum': 'No quorum',
  tie: 'Tie',
}

/** The kinds the glossary explains further. */
const KIND_TERMS: Partial<Record<ProposalKind, GlossaryTermId>> = {
  'ranked-choice': 'ranked-choice',
  weighted: 'weighted-voting',
  quadratic: 'quadratic-voting',
}

/**
 * The chart of a ranked-choice count (with the chart library): its own chunk, loaded for ranked-choice
 * proposals only (ADR 050).
 */
export const rankedChart = preloadable(
  () => import('./ranked-chart.tsx'),
  (m) => m.RankedChart,
)

const isOpen = (proposal: ProposalDetail) => proposal.state === 'pending' || proposal.state === 'active'

/** The tally: each choice's power and share (or the rounds), the quorum, the voters and, once closed, the outcome. */
export function Results({ proposal }: { proposal: ProposalDetail }) {
  const amount = useTokenAmount()
  const { tally, message } = proposal
  const { kind } = message
  const quorum = BigInt(message.quorum)
  // Rounded to add up to 100 %, as a reader adds them.
  const shares = sharesInBasisPoints(message.choices.map((_, index) => BigInt(tally.perChoice[index] ?? '0')))
  return (
    <Card title="Results" testId="results">
      {kind !== 'basic' ? (
        <p className="muted kind-help" data-testid="proposal-kind">
          <strong>
            {KIND_TERMS[kind] ? (
              <Term id={KIND_TERMS[kind]}>{PROPOSAL_KIND_LABELS[kind]}</Term>
            ) : (
              PROPOSAL_KIND_LABELS[kind]
            )}
          </strong>
          : {PROPOSAL_KIND_HELP[kind]}
        </p>
      ) : null}
      {kind === 'quadratic' ? (
        <p className="quadratic-warning" role="note" data-testid="quadratic-warning">
          {QUADRATIC_WARNING}
        </p>
      ) : null}
      {kind === 'ranked-choice' ? (
        <RankedResult proposal={proposal} amount={amount} />
      ) : (
        <>
          {kind === 'quadratic' ? (
            <p className="muted" data-testid="quadratic-rescaled">
              Each choice's power is its square of summed square roots, rescaled so that all choices add up to
              the power that voted.
            </p>
          ) : null}
          {message.choices.map((choice, index) => {
            const power = tally.perChoice[index] ?? '0'
            const share = shares[index] ?? 0n
            return (
              <div className="result-row" key={choice}>
                <div>
                  <strong>{choice}</strong> · {amount(power)} · {formatBasisPoints(share)}
                </div>
                <div className="result-bar" aria-hidden="true">
                  <span style={{ width: `${Number(share) / 100}%` }} />
                </div>
              </div>
            )
          })}
        </>
      )}
      <p data-testid="quorum">
        <Term id="quorum">Quorum</Term>: {amount(tally.quorumPower)} of {amount(quorum)} (
        {formatBasisPoints(basisPoints(BigInt(tally.quorumPower), quorum))}){' '}
        {tally.quorumReached ? '· reached' : ''}
      </p>
      <p data-testid="voters">
        {/* The votes list can be below the fold (on a phone, after the vote panel): this is the way to it. */}
        <a href="#votes">
          {tally.voters} {tally.voters === 1 ? 'voter' : 'voters'}
        </a>
        {isOpen(proposal) ? '' : ` · ${OUTCOME_LABELS[tally.outcome]}`}
      </p>
    </Card>
  )
}

/** The headline of a ranked-choice count: who leads or won, in which round, or the tie. */
function rankedHeadline(
  proposal: ProposalDetail,
  rounds: readonly RankedRoundJson[],
  amount: (value: bigint) => string,
) {
  const { tally, message } = proposal
  const names = listNames(tally.leading.map((choice) => message.choices[choice - 1] ?? `Choice ${choice}`))
  const last = rounds.at(-1)
  const round = rounds.length
  if (tally.leading.length === 0 || !last)
    return isOpen(proposal) ? 'No votes yet.' : 'No ballot had voting power: no winner.'
  if (tally.leading.length > 1)
    return isOpen(proposal) ? `Tied in round ${round}: ${names}` : `Tie between ${names}`
  const held = `${amount(BigInt(last.perChoice[(tally.leading[0] ?? 1) - 1] ?? '0'))} of ${amount(BigInt(last.continuing))} in round ${round}`
  if (isOpen(proposal)) return `Leading: ${names}, with ${held}`
  if (tally.outcome === 'no-quorum') return `${names} led with ${held}, but the quorum was not reached`
  return `Won by ${names}, with ${held}`
}

/**
 * A ranked-choice result: who won (or leads, or the tie), every round as a table, and a chart of how the
 * eliminated choices' power moved. While voting is open the server recounts the rounds every few seconds.
 */
function RankedResult({ proposal, amount }: { proposal: ProposalDetail; amount: (value: bigint) => string }) {
  const { tally, message } = proposal
  const { rounds } = tally
  // A ranked proposal's rounds are settled by the server from its ballots; until then there are none.
  if (!rounds) return <p className="muted">Counting rounds…</p>
  return (
    <div className="ranked-result">
      <p data-testid="ranked-headline">
        <strong>{rankedHeadline(proposal, rounds, amount)}</strong>
      </p>
      {isOpen(proposal) ? (
        <p className="muted" data-testid="ranked-recount">
          While voting is open the rounds are recounted every few seconds; these count {tally.voters}{' '}
          {tally.voters === 1 ? 'ballot' : 'ballots'}.
        </p>
      ) : null}
      <RankedRounds
        choices={message.choices}
        rounds={rounds}
        winners={tally.leading}
        open={isOpen(proposal)}
        format={amount}
      />
      <Suspense fallback={null}>
        <Preloaded code={rankedChart} props={{ choices: message.choices, rounds, format: amount }} />
      </Suspense>
    </div>
  )
}
