import { basisPoints, formatBasisPoints, type ProposalDetail, sharesInBasisPoints } from '@guildhall/core'
import { Card } from '../../components/card.tsx'
import { Term } from '../../components/term.tsx'
import { useTokenAmount } from '../../lib/token.ts'

const OUTCOME_LABELS = {
  passed: 'Passed',
  rejected: 'Rejected',
  'no-quorum': 'No quorum',
  tie: 'Tie',
} as const

/** The tally: each choice's power and share, the quorum, the voters and, once closed, the outcome. */
export function Results({ proposal }: { proposal: ProposalDetail }) {
  const amount = useTokenAmount()
  const { tally, message } = proposal
  const quorum = BigInt(message.quorum)
  // Rounded to add up to 100 %, as a reader adds them.
  const shares = sharesInBasisPoints(message.choices.map((_, index) => BigInt(tally.perChoice[index] ?? '0')))
  return (
    <Card title="Results" testId="results">
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
        {proposal.state === 'closed' || proposal.state === 'final'
          ? ` · ${OUTCOME_LABELS[tally.outcome]}`
          : ''}
      </p>
    </Card>
  )
}
