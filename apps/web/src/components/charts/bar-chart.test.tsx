import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { BarChart, barShapes } from './bar-chart.tsx'

const months = [
  { key: '2026-10', label: 'Oct 2026', values: [100n, 25n] },
  { key: '2026-11', label: 'Nov 2026', values: [0n, 50n] },
]

test('behavior: each group’s bars stand side by side in its band, upwards from a zero baseline, scaled to the highest value of all', () => {
  const bars = barShapes(months, 2)
  expect(bars.map((bar) => [bar.group, bar.series, bar.y, bar.height])).toEqual([
    ['2026-10', 0, 0, 160],
    ['2026-10', 1, 120, 40],
    ['2026-11', 0, 160, 0],
    ['2026-11', 1, 80, 80],
  ])
  // Every bar stands on the baseline (y + height = 160), within the plot, in order and without overlap.
  for (const bar of bars) expect(bar.y + bar.height).toBe(160)
  const lefts = bars.map((bar) => bar.x)
  expect(lefts).toEqual([...lefts].sort((a, b) => a - b))
  for (const [index, bar] of bars.entries()) {
    const next = bars[index + 1]
    if (next) expect(bar.x + bar.width).toBeLessThanOrEqual(next.x)
    expect(bar.x).toBeGreaterThanOrEqual(0)
    expect(bar.x + bar.width).toBeLessThanOrEqual(600)
  }
  // Nothing moved: every bar flat on the baseline.
  expect(barShapes([{ key: 'a', label: 'a', values: [0n, 0n] }], 2).map((bar) => bar.height)).toEqual([0, 0])
})

test('behavior: the chart names its series in a legend, is an image named by its summary, with its highest value and 0 beside it', () => {
  render(
    <BarChart
      title="Money in and out per month"
      testId="flows-chart"
      series={[
        { name: 'In', className: 'chart-series-in' },
        { name: 'Out', className: 'chart-series-out' },
      ]}
      groups={months}
      format={(value) => `${value} ETH`}
      summary="In October 100 ETH came in."
      table={<table />}
    />,
  )
  expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['In', 'Out'])
  const image = screen.getByRole('img', { name: 'In October 100 ETH came in.' })
  expect(image.querySelectorAll('rect.chart-bar')).toHaveLength(4)
  expect(image.querySelectorAll('rect.chart-series-out')).toHaveLength(2)
  expect(screen.getByTestId('flows-chart-top').textContent).toBe('100 ETH')
  expect(screen.getByTestId('flows-chart-zero').textContent).toBe('0')
})
