import type { PowerHistory } from '@guildhall/core'
import { chartWhen } from '../../components/charts/chart-date.tsx'
import { StepChart } from '../../components/charts/step-chart.tsx'

/**
 * Voting power over time as a step chart on dates (each block's time), from a zero baseline, with its
 * summary in words and every point, dated and with its block, in a table for readers who cannot see it.
 */
export function PowerChart({
  history,
  amount,
}: {
  history: PowerHistory
  amount: (value: string | bigint) => string
}) {
  const { points } = history
  const first = points[0]
  const last = points.at(-1)
  if (!first || !last) {
    return (
      <p className="muted">No voting power yet: nobody, the member included, has delegated tokens to them.</p>
    )
  }
  const endBlock = Math.max(history.blockNumber ?? last.block, last.block)
  const end = Math.max(history.blockTime ?? last.time, last.time)
  const span = end - first.time
  const when = (seconds: number) => chartWhen(seconds, span)
  const highest = points.reduce((top, point) => (BigInt(point.votes) > BigInt(top.votes) ? point : top))
  const sampled = history.changes > points.length
  return (
    <StepChart
      title="Voting power over time"
      testId="power-chart"
      points={points.map((point) => ({ at: point.time, value: BigInt(point.votes) }))}
      end={end}
      format={amount}
      summary={
        <>
          From {when(first.time)} (block {first.block.toLocaleString('en-US')}) to {when(end)} (block{' '}
          {endBlock.toLocaleString('en-US')}): voting power went from {amount(first.votes)} to{' '}
          {amount(last.votes)}, at most {amount(highest.votes)}; {history.changes.toLocaleString('en-US')}{' '}
          {history.changes === 1 ? 'change' : 'changes'}
          {sampled ? `, ${points.length} shown (the last in each span of blocks)` : ''}.
        </>
      }
      table={
        <table className="chart-table">
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Block</th>
              <th scope="col">Voting power</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.block}>
                <td>
                  <time dateTime={new Date(point.time * 1000).toISOString()}>{when(point.time)}</time>
                </td>
                <td>{point.block.toLocaleString('en-US')}</td>
                <td>{amount(point.votes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  )
}
