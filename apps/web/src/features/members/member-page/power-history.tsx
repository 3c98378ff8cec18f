import type { Address } from 'viem'
import { Card } from '../../../components/card.tsx'
import { describeRequestError } from '../../../lib/api.ts'
import { useTokenAmount } from '../../../lib/token.ts'
import { PowerChart } from '../power-chart.tsx'
import { usePowerHistory } from '../queries/member-power.ts'

/** The member's voting power over time, as a chart. */
export function PowerHistory({ address }: { address: Address }) {
  const history = usePowerHistory(address)
  const amount = useTokenAmount()
  return (
    <Card title="Voting power over time" testId="member-power-history">
      {history.error ? (
        <p role="alert">
          The voting power history could not be loaded. {describeRequestError(history.error)}
        </p>
      ) : history.isPending ? (
        <p className="muted">Loading the voting power history…</p>
      ) : (
        <PowerChart history={history.data} amount={amount} />
      )}
    </Card>
  )
}
