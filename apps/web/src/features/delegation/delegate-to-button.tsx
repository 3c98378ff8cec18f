import type { Address } from 'viem'
import { useDisplayName } from '../../lib/names.tsx'
import './delegation.css'
import { DelegationGateNotice, DelegationOutcome } from './delegation-gate.tsx'
import { onDelegationIntent, useDelegation } from './use-delegation.ts'

/**
 * "Delegate to ben.eth": the delegation flow of the Overview's panel for one delegate, for a page about a
 * member. `name` overrides the name the server knows for `delegatee`; `onConfirmed` runs once the
 * delegation is confirmed (the page may refresh what it shows about the delegate).
 */
export function DelegateToButton({
  delegatee,
  name,
  onConfirmed,
}: {
  delegatee: Address
  name?: string
  onConfirmed?: () => void
}) {
  const { gate, address, currentDelegate, progressText, busy, error, delegate } = useDelegation({
    onConfirmed,
  })
  const known = useDisplayName(delegatee)
  const shown = name ?? known
  if (gate === 'none') return null
  const self = delegatee === address
  return (
    <div className="delegate-to" data-testid="delegate-to">
      {gate !== 'ready' ? (
        <DelegationGateNotice gate={gate} action={`delegate to ${shown}`} />
      ) : currentDelegate === delegatee ? (
        <p data-testid="delegate-to-status">
          {self ? 'You vote with your own tokens.' : `You delegate your votes to ${shown}.`}
        </p>
      ) : (
        <button
          type="button"
          className="button primary"
          disabled={busy || currentDelegate === undefined}
          {...onDelegationIntent}
          onClick={() => delegate(delegatee, name)}
        >
          {self ? 'Delegate to myself' : `Delegate to ${shown}`}
        </button>
      )}
      <DelegationOutcome progressText={progressText} error={error} testId="delegate-to-progress" />
    </div>
  )
}
