import { curveStepAfter } from '@visx/curve'
import { scaleLinear } from '@visx/scale'
import { LinePath, line } from '@visx/shape'
import { type ReactNode, useId } from 'react'
import { ChartDate } from './chart-date.tsx'
import './charts.css'
import { CHART_HEIGHT, CHART_WIDTH, fraction, largest } from './scale.ts'

/** A value of a series from the moment `at` (unix seconds) on. */
export type StepPoint = { at: number; value: bigint }

/** The right edge of the plot: `end`, and a second after the first point at least (a history within one second still spans the plot). */
const rightEdge = (points: StepPoint[], end: number) => Math.max(end, (points[0]?.at ?? 0) + 1)

/** Where each point is drawn: over time from the first point to `end`, upwards from a zero baseline. */
function stepScales(points: StepPoint[], end: number) {
  const from = points[0]?.at ?? 0
  const top = largest(points.map((point) => point.value))
  const x = scaleLinear({ domain: [from, rightEdge(points, end)], range: [0, CHART_WIDTH], clamp: true })
  const y = scaleLinear({ domain: [0, 1], range: [CHART_HEIGHT, 0] })
  return { x: (point: StepPoint) => x(point.at), y: (point: StepPoint) => y(fraction(point.value, top)) }
}

/** The points drawn: the series, and its last value held until the right edge of the plot. */
function heldUntil(points: StepPoint[], end: number): StepPoint[] {
  const last = points.at(-1)
  return last ? [...points, { at: rightEdge(points, end), value: last.value }] : []
}

/**
 * The step line of a series: each value holds until the next change, the last until `end`, over time,
 * scaled to the highest value from a zero baseline at the bottom. The path the chart draws.
 */
export function stepPath(points: StepPoint[], end: number): string {
  if (points.length === 0) return ''
  const { x, y } = stepScales(points, end)
  return line<StepPoint>({ x, y, curve: curveStepAfter })(heldUntil(points, end)) ?? ''
}

/**
 * A series over time as a step chart on dates, from a zero baseline: the highest value and 0 beside the
 * plot, the first and last dates under it. `summary` (the chart in words, the image's accessible name) and
 * `table` (every point, for readers who cannot see it) are the caller's. Test ids: `testId` and
 * `<testId>-top`, `-zero`, `-dates`, `-summary`.
 */
export function StepChart({
  title,
  points,
  end,
  format,
  summary,
  table,
  testId,
}: {
  title: string
  points: StepPoint[]
  end: number
  format: (value: bigint) => string
  summary: ReactNode
  table: ReactNode
  testId: string
}) {
  const summaryId = useId()
  const first = points[0]
  if (!first) return null
  const { x, y } = stepScales(points, end)
  const span = Math.max(end, first.at) - first.at
  return (
    <figure className="chart" data-testid={testId}>
      <div className="chart-plot">
        <span className="chart-y muted" aria-hidden="true">
          <span data-testid={`${testId}-top`}>{format(largest(points.map((point) => point.value)))}</span>
          <span data-testid={`${testId}-zero`}>0</span>
        </span>
        <svg
          viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={summaryId}
        >
          <title>{title}</title>
          <ChartAxes />
          <LinePath<StepPoint>
            data={heldUntil(points, end)}
            x={x}
            y={y}
            curve={curveStepAfter}
            className="chart-line"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        <span className="chart-x muted" aria-hidden="true" data-testid={`${testId}-dates`}>
          <ChartDate seconds={first.at} span={span} />
          <ChartDate seconds={Math.max(end, first.at)} span={span} />
        </span>
      </div>
      <figcaption id={summaryId} data-testid={`${testId}-summary`}>
        {summary}
      </figcaption>
      <details>
        <summary>Show as a table</summary>
        {table}
      </details>
    </figure>
  )
}

/** The zero baseline and the value axis. */
export function ChartAxes() {
  return (
    <>
      <line
        x1="0"
        y1={CHART_HEIGHT}
        x2={CHART_WIDTH}
        y2={CHART_HEIGHT}
        className="chart-axis"
        vectorEffect="non-scaling-stroke"
      />
      <line x1="0" y1="0" x2="0" y2={CHART_HEIGHT} className="chart-axis" vectorEffect="non-scaling-stroke" />
    </>
  )
}
