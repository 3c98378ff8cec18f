import type { PowerHistory } from '@guildhall/core'
import { useId } from 'react'

// Drawing units of the chart's viewBox; the SVG stretches to its box's width.
const WIDTH = 600
const HEIGHT = 160
/** Below this span the dates carry their time of day too (a young DAO's history fits in a day)… */
const DAY_SECONDS = 86_400
/** …and below this one, the seconds. */
const HOUR_SECONDS = 3_600

/** `part / whole` of `size`, for amounts too large for a number. */
const scaled = (part: bigint, whole: bigint, size: number) =>
  whole === 0n ? 0 : (Number((part * 1_000_000n) / whole) / 1_000_000) * size

/** A value of the series from the moment `at` (unix seconds) on. */
type StepPoint = { at: number; votes: string }

/**
 * The step line of the series, over time from the first change to `end`: each value holds until the next
 * change, the last until `end` (the time of the block the index stands at), the plot's right edge even when
 * the whole history fits in one second. Upwards from a zero baseline at the bottom, scaled to the highest
 * value.
 */
export function stepPath(points: StepPoint[], end: number): string {
  const first = points[0]
  if (!first) return ''
  const from = first.at
  const span = Math.max(end - from, 1)
  const max = points.reduce((top, point) => (BigInt(point.votes) > top ? BigInt(point.votes) : top), 0n)
  const x = (at: number) => (((Math.min(at, end) - from) / span) * WIDTH).toFixed(1)
  const y = (votes: string) => (HEIGHT - scaled(BigInt(votes), max, HEIGHT)).toFixed(1)
  let path = `M${x(first.at)},${y(first.votes)}`
  for (const point of points.slice(1)) path += ` H${x(point.at)} V${y(point.votes)}`
  return `${path} H${WIDTH.toFixed(1)}`
}

/**
 * A point in time as the chart says it: the date and, when the whole series spans less than a day, the time
 * of day (with seconds under an hour), so that its labels differ. `timeZone` for tests; the reader's by
 * default.
 */
export function chartDate(
  seconds: number,
  spanSeconds: number,
  timeZone?: string,
): { date: string; time: string | null } {
  const at = new Date(seconds * 1000)
  const date = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone })
  const time = new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    ...(spanSeconds < HOUR_SECONDS ? { second: '2-digit' } : {}),
    timeZone,
  })
  return { date: date.format(at), time: spanSeconds < DAY_SECONDS ? time.format(at) : null }
}

/** A date of the chart, its time of day (if any) on a line of its own beside the plot. */
function ChartDate({ seconds, span }: { seconds: number; span: number }) {
  const { date, time } = chartDate(seconds, span)
  return (
    <time dateTime={new Date(seconds * 1000).toISOString()}>
      <span>{date}</span>
      {time ? <span>{time}</span> : null}
    </time>
  )
}

/**
 * Voting power over time as a step chart on dates (each block's time), from a zero baseline, with its
 * summary in words and every point, dated and with its block, in a table for readers who cannot see it.
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
  const endBlock = Math.max(history.blockNumber ?? last.block, last.block)
  const end = Math.max(history.blockTime ?? last.time, last.time)
  const span = end - first.time
  const when = (seconds: number) => {
    const { date, time } = chartDate(seconds, span)
    return time ? `${date}, ${time}` : date
  }
  const highest = points.reduce((top, point) => (BigInt(point.votes) > BigInt(top.votes) ? point : top))
  const sampled = history.changes > points.length
  return (
    <figure className="power-chart" data-testid="power-chart">
      <div className="power-chart-plot">
        <span className="power-chart-y muted" aria-hidden="true">
          <span data-testid="power-chart-top">{amount(highest.votes)}</span>
          <span data-testid="power-chart-zero">0</span>
        </span>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={summaryId}
        >
          <title>Voting power over time</title>
          <line
            x1="0"
            y1={HEIGHT}
            x2={WIDTH}
            y2={HEIGHT}
            className="power-chart-axis"
            vectorEffect="non-scaling-stroke"
          />
          <line
            x1="0"
            y1="0"
            x2="0"
            y2={HEIGHT}
            className="power-chart-axis"
            vectorEffect="non-scaling-stroke"
          />
          <path
            d={stepPath(
              points.map((point) => ({ at: point.time, votes: point.votes })),
              end,
            )}
            className="power-chart-line"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        <span className="power-chart-x muted" aria-hidden="true" data-testid="power-chart-dates">
          <ChartDate seconds={first.time} span={span} />
          <ChartDate seconds={end} span={span} />
        </span>
      </div>
      <figcaption id={summaryId} data-testid="power-chart-summary">
        From {when(first.time)} (block {first.block.toLocaleString('en-US')}) to {when(end)} (block{' '}
        {endBlock.toLocaleString('en-US')}): voting power went from {amount(first.votes)} to{' '}
        {amount(last.votes)}, at most {amount(highest.votes)}; {history.changes.toLocaleString('en-US')}{' '}
        {history.changes === 1 ? 'change' : 'changes'}
        {sampled ? `, ${points.length} shown (the last in each span of blocks)` : ''}.
      </figcaption>
      <details>
        <summary>Show as a table</summary>
        <table className="power-chart-table">
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
      </details>
    </figure>
  )
}
