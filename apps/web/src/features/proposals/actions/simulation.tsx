import type { KnownToken, Simulation } from '@guildhall/core'
import { formatTokenAmount } from '@guildhall/core'
import { describeRequestError } from '../../../lib/api.ts'
import { MemberName } from '../../../lib/names.tsx'

/** A balance change, signed, in the token's units (ETH for the native coin). */
function delta(change: Simulation['balanceChanges'][number], knownTokens: readonly KnownToken[]) {
  const amount = BigInt(change.delta)
  const sign = amount < 0n ? '−' : '+'
  const size = amount < 0n ? -amount : amount
  if (change.token === null) return `${sign}${formatTokenAmount(size, 18, 18)} ETH`
  const token = knownTokens.find((known) => known.address === change.token)
  return token
    ? `${sign}${formatTokenAmount(size, token.decimals, token.decimals)} ${token.symbol}`
    : `${sign}${size.toLocaleString('en-US')} base units of the token at ${change.token}`
}

/**
 * The batch simulated against the Safe as it stands: success (with the gas it took) or the revert, and
 * the balances it moves. `stale`: the answer is the previous batch's while the new one runs.
 */
export function SimulationResult({
  simulation,
  error,
  pending,
  stale,
  knownTokens,
}: {
  simulation: Simulation | undefined
  error: unknown
  pending: boolean
  stale: boolean
  knownTokens: readonly KnownToken[]
}) {
  if (error) {
    return (
      <p role="alert" className="error" data-testid="simulation">
        The batch could not be simulated. {describeRequestError(error)}
      </p>
    )
  }
  if (!simulation) {
    return pending ? (
      <p className="muted" data-testid="simulation">
        Simulating the batch against the Safe…
      </p>
    ) : null
  }
  return (
    <div className={stale ? 'simulation muted' : 'simulation'} data-testid="simulation" aria-busy={stale}>
      {simulation.success ? (
        <p role="status">
          Simulated against the Safe as it stands: the batch succeeds (gas{' '}
          {BigInt(simulation.gasUsed).toLocaleString('en-US')}).
        </p>
      ) : (
        <p role="alert" className="error">
          Simulated against the Safe as it stands: the batch fails
          {simulation.revert ? `: ${simulation.revert}` : ' (no reason given)'}. It could not be executed
          today.
        </p>
      )}
      {simulation.balanceChanges.length > 0 ? (
        <ul className="balance-changes" aria-label="Balance changes">
          {simulation.balanceChanges.map((change) => (
            <li key={`${change.account}-${change.token ?? 'native'}`}>
              <MemberName address={change.account} />: {delta(change, knownTokens)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
