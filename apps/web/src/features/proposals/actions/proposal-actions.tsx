import { actionWarnings, type ProposalDetail } from '@guildhall/core'
import { Card } from '../../../components/card.tsx'
import { useTreasurySummary } from '../../../lib/treasury-summary.ts'
import { ActionList } from './action-list.tsx'

/**
 * "Actions": what the Safe does if this proposal passes, as signed in the proposal, each decoded with the
 * guards' warnings (a change of the Safe's settings, an unlimited approval). Nothing for a proposal without.
 */
export function ProposalActions({ proposal }: { proposal: ProposalDetail }) {
  const treasury = useTreasurySummary()
  // The signed actions; the server's `decoded` is read without the treasury's tokens, so they are decoded
  // here as in the form, with them.
  const actions = proposal.actions.map(({ decoded: _, ...action }) => action)
  if (actions.length === 0) return null
  const safe = treasury.data?.safe?.address ?? null
  const knownTokens =
    treasury.data?.assets.flatMap((asset) =>
      asset.token ? [{ address: asset.token, symbol: asset.symbol, decimals: asset.decimals }] : [],
    ) ?? []
  const warnings = safe
    ? actionWarnings(actions, { safe, changesSafeSettings: proposal.changesSafeSettings }).map((finding) => ({
        ...finding,
        severity: 'warning' as const,
      }))
    : []
  return (
    <Card title="Actions" testId="proposal-actions">
      <p className="muted">
        If the proposal passes, the DAO’s Safe makes {actions.length === 1 ? 'this call' : 'these calls'} in
        one transaction, all or nothing.
      </p>
      {proposal.changesSafeSettings ? (
        <p className="warning" data-testid="safe-settings-warning">
          This proposal changes the Safe’s settings: who owns the treasury, how many must sign, or what else
          may move its funds.
        </p>
      ) : null}
      <ActionList
        entries={actions.map((action) => ({ action }))}
        knownTokens={knownTokens}
        safe={safe}
        findings={warnings}
      />
    </Card>
  )
}
