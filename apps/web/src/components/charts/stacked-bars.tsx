import { scaleLinear } from '@visx/scale'
import { Bar } from '@visx/shape'
import { type ReactNode, useId } from 'react'
import './charts.css'
import { CHART_WIDTH, fraction, largest } from './scale.ts'

/** A part of a bar: its value, its colour (a class) and the group of parts it belongs to (outlined together). */
type StackedPart = { value: bigint; className: string; group: string }
/** One horizontal bar: its label beside it and its parts, left to right. */
export type StackedRow = { key: string; label: string; parts: StackedPart[] }

/** Drawing height of one bar's viewBox. */
const STACKED_BAR_HEIGHT = 24

type PartShape = { x: number; width: number; className: string }
type GroupShape = { group: string; x: number; width: number }

/**
 * A row's parts laid end to end from the left, scaled so that the longest row of all fills the width, and
 * each group's extent (drawn as an outline, so adjacent groups read apart).
 */
function stackedShapes(
  rows: readonly StackedRow[],
  row: StackedRow,
): { parts: PartShape[]; groups: GroupShape[] } {
  const top = largest(rows.map((one) => one.parts.reduce((sum, part) => sum + part.value, 0n)))
  const x = scaleLinear({ domain: [0, 1], range: [0, CHART_WIDTH] })
  const parts: PartShape[] = []
  const groups: GroupShape[] = []
  let sum = 0n
  for (const part of row.parts) {
    const from = x(fraction(sum, top))
    sum += part.value
    const to = x(fraction(sum, top))
    parts.push({ x: from, width: to - from, className: part.className })
    const group = groups.at(-1)
    if (group?.group === part.group) group.width = to - group.x
    else groups.push({ group: part.group, x: from, width: to - from })
  }
  return { parts, groups }
}

/**
 * Horizontal stacked bars, one per row with its label beside it, scaled to the longest row; a legend names
 * the colours. An image whose accessible name is `summary`; its figures are the caller's table (e.g. beside
 * it). Test ids: `testId`, `<testId>-summary`.
 */
export function StackedBars({
  title,
  rows,
  legend,
  summary,
  testId,
}: {
  title: string
  rows: StackedRow[]
  legend: { name: string; className: string }[]
  summary: ReactNode
  testId: string
}) {
  const summaryId = useId()
  return (
    <figure className="chart" data-testid={testId}>
      <ul className="chart-legend">
        {legend.map((one) => (
          <li key={one.name}>
            <span className={`chart-swatch ${one.className}`} aria-hidden="true" />
            {one.name}
          </li>
        ))}
      </ul>
      <div className="stacked-plot" role="img" aria-labelledby={summaryId}>
        {rows.map((row) => {
          const { parts, groups } = stackedShapes(rows, row)
          return (
            <div className="stacked-row" key={row.key}>
              <span className="muted">{row.label}</span>
              <svg viewBox={`0 0 ${CHART_WIDTH} ${STACKED_BAR_HEIGHT}`} preserveAspectRatio="none">
                <title>{`${title}: ${row.label}`}</title>
                {parts.map((part, index) => (
                  <Bar
                    // biome-ignore lint/suspicious/noArrayIndexKey: parts are drawn in their order, which never changes
                    key={index}
                    x={part.x}
                    y={0}
                    width={part.width}
                    height={STACKED_BAR_HEIGHT}
                    className={`chart-bar ${part.className}`}
                  />
                ))}
                {groups.map((group) => (
                  <Bar
                    key={group.group}
                    x={group.x}
                    y={0}
                    width={group.width}
                    height={STACKED_BAR_HEIGHT}
                    className="stacked-group"
                  />
                ))}
              </svg>
            </div>
          )
        })}
      </div>
      <figcaption id={summaryId} data-testid={`${testId}-summary`}>
        {summary}
      </figcaption>
    </figure>
  )
}
