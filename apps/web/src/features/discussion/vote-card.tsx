import { relativeTime, type VoteCardJson } from '@guildhall/core'
import { VoteReason } from '../../components/vote-reason.tsx'
import { MemberName } from '../../lib/names.tsx'
import { useTokenAmount } from '../../lib/token.ts'

/**
 * A counting vote with a reason, in the thread where it was cast: who, what, with how much power, why,
 * and the log entry holding the signed vote. A re-vote says so.
 */
export function VoteCard({ vote, now }: { vote: VoteCardJson; now: number }) {
  const amount = useTokenAmount()
  // The log page starting at the vote's own entry: the signed message and its signature.
  const signed = `/api/governance/log${vote.logSeq > 0 ? `?after=${vote.logSeq - 1}` : ''}`
  return (
    <article className="vote-card" data-testid="vote-card">
      <p>
        <strong>
          <MemberName address={vote.voter} />
        </strong>{' '}
        {vote.revote ? 'changed their vote to' : 'voted'} <strong>{vote.choice}</strong> ·{' '}
        {amount(vote.power)}
        <span className="muted"> · {relativeTime(vote.castAt, now)}</span>
      </p>
      <VoteReason reason={vote.reason} />
      <p className="muted">
        <a href={signed}>The signed vote</a>
      </p>
    </article>
  )
}
