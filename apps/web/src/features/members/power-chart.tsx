import type { PowerHistory } from '@guildhall/core'
import { useId } from 'react'

// Drawing units of the chart's viewBox; the SVG stretches to its box's width.
const WIDTH = 600
const HEIGHT = 160

/** `part / whole` of `size`, for amounts too large for a number. */
const scaled = (part: bigint, whole: bigint, size: number) =>
  whole === 0n ? 0 : (Number((part * 1_000_000n) / whole) / 1_000_000) * size

/**
 * The step line of the series: each value holds from its block until the next change, the last until
 * `end` (the block the index stands at).
 */
export function stepPath(points: PowerHistory['points'], end: number): string {
  const first = points[0]
  if (!first) return ''
  const from = first.block
  const span = Math.max(end - from, 1)
  const max = points.reduce((top, point) => (BigInt(point.votes) > top ? BigInt(point.votes) : top), 0n)
  const x = (block: number) => (((Math.min(block, end) - from) / span) * WIDTH).toFixed(1)
  const y = (votes: string) => (HEIGHT - scaled(BigInt(votes), max, HEIGHT)).toFixed(1)
  let path = `M${x(first.block)},${y(first.votes)}`
  for (const point of points.slice(1)) path += ` H${x(point.block)} V${y(point.votes)}`
  return `${path} H${x(end)}`
}

/**
 * Voting power over time as a step chart, with its summary in words and every point in a table for
 * readers who cannot see it. Blocks, not dates: the server's index keeps no block times.
 */
export function PowerChart({
  history,
  amount,
}: {
  history: PowerHistory
  amount: (value: string) => string
}) {
  const summaryId = useId()
  const { points } = history
  const first = points[0]
  const last = points.at(-1)
  if (!first || !last) {
    return (
      <p className="muted">No voting power yet: nobody, the member included, has delegated tokens to them.</p>
    )
  }
  const end = Math.max(history.blockNumber ?? last.block, last.block)
  const highest = points.reduce((top, point) => (BigInt(point.votes) > BigInt(top.votes) ? point : top))
  const sampled = history.changes > points.length
  return (
    <figure className="power-chart" data-testid="power-chart">
      <div className="power-chart-plot">
        <span className="power-chart-top muted">{amount(highest.votes)}</span>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={summaryId}
        >
          <title>Voting power over time</title>
          <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="power-chart-axis" />
          <path d={stepPath(points, end)} className="power-chart-line" vectorEffect="non-scaling-stroke" />
        </svg>
        <span className="power-chart-blocks muted">
          <span>block {first.block.toLocaleString('en-US')}</span>
          <span>block {end.toLocaleString('en-US')}</span>
        </span>
      </div>
      <figcaption id={summaryId} data-testid="power-chart-summary">
        From block {first.block.toLocaleString('en-US')} to block {end.toLocaleString('en-US')}: voting power
        went from {amount(first.votes)} to {amount(last.votes)}, at most {amount(highest.votes)};{' '}
        {history.changes.toLocaleString('en-US')} {history.changes === 1 ? 'change' : 'changes'}
        {sampled ? `, ${points.length} shown (the last in each span of blocks)` : ''}.
      </figcaption>
      <details>
        <summary>Show as a table</summary>
        <table className="power-chart-table">
          <thead>
            <tr>
              <th scope="col">From block</th>
              <th scope="col">Voting power</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.block}>
                <td>{point.block.toLocaleString('en-US')}</td>
                <td>{amount(point.votes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
