import { scaleBand, scaleLinear } from '@visx/scale'
import { Bar } from '@visx/shape'
import { type ReactNode, useId } from 'react'
import { ChartAxes } from './step-chart.tsx'
import './charts.css'
import { CHART_HEIGHT, CHART_WIDTH, fraction, largest } from './scale.ts'

/** One group of bars (e.g. a month): its label under the plot and one value per series. */
export type BarGroup = { key: string; label: string; values: bigint[] }

/** A drawn bar: where, and which group and series it stands for. */
type BarShape = { group: string; series: number; x: number; y: number; width: number; height: number }

/**
 * The bars of grouped series side by side, each group in its band of the width, every bar upwards from a
 * zero baseline at the bottom and scaled to the highest value of all.
 */
export function barShapes(groups: BarGroup[], seriesCount: number): BarShape[] {
  const top = largest(groups.flatMap((group) => group.values))
  const band = scaleBand({ domain: groups.map((group) => group.key), range: [0, CHART_WIDTH], padding: 0.2 })
  const inner = scaleBand({
    domain: Array.from({ length: seriesCount }, (_, series) => series),
    range: [0, band.bandwidth()],
    padding: 0.1,
  })
  const y = scaleLinear({ domain: [0, 1], range: [CHART_HEIGHT, 0] })
  return groups.flatMap((group) =>
    group.values.map((value, series) => {
      const barTop = y(fraction(value, top))
      return {
        group: group.key,
        series,
        x: (band(group.key) ?? 0) + (inner(series) ?? 0),
        y: barTop,
        width: inner.bandwidth(),
        height: CHART_HEIGHT - barTop,
      }
    }),
  )
}

/**
 * Grouped bars from a zero baseline (e.g. money in and out per month), with a legend naming each series,
 * the highest value and 0 beside the plot, the first and last groups' labels under it. `summary` (the
 * accessible name) and `table` (every figure) are the caller's. Test ids: `testId` and `<testId>-top`,
 * `-zero`, `-summary`.
 */
export function BarChart({
  title,
  series,
  groups,
  format,
  summary,
  table,
  testId,
}: {
  title: string
  /** Each series' name and class (its colour in the plot and the legend). */
  series: { name: string; className: string }[]
  groups: BarGroup[]
  format: (value: bigint) => string
  summary: ReactNode
  table: ReactNode
  testId: string
}) {
  const summaryId = useId()
  const first = groups[0]
  const last = groups.at(-1)
  if (!first || !last) return null
  return (
    <figure className="chart" data-testid={testId}>
      <ul className="chart-legend">
        {series.map((one) => (
          <li key={one.name}>
            <span className={`chart-swatch ${one.className}`} aria-hidden="true" />
            {one.name}
          </li>
        ))}
      </ul>
      <div className="chart-plot">
        <span className="chart-y muted" aria-hidden="true">
          <span data-testid={`${testId}-top`}>
            {format(largest(groups.flatMap((group) => group.values)))}
          </span>
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
          {barShapes(groups, series.length).map((bar) => (
            <Bar
              key={`${bar.group}-${bar.series}`}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
              className={`chart-bar ${series[bar.series]?.className ?? ''}`}
            />
          ))}
        </svg>
        <span className="chart-x muted" aria-hidden="true">
          <span>{first.label}</span>
          {last !== first ? <span>{last.label}</span> : null}
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
