import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { StepChart, stepPath } from './step-chart.tsx'

const points = [
  { at: 1_000, value: 50n },
  { at: 1_500, value: 100n },
  { at: 1_800, value: 0n },
]

test('behavior: the step line holds each value until the next change and the last until the end, over time, scaled to the highest from a zero baseline', () => {
  // x: seconds 1,000 → 2,000 over 600 units; y: 0 → 100 over 160 units, upwards from the bottom (0). The
  // library's step curve ends on its last point twice.
  expect(stepPath(points, 2_000)).toBe('M0,80L300,80L300,0L480,0L480,160L600,160L600,160')
  // A history within one second still holds its value across the plot.
  expect(stepPath([{ at: 7, value: 5n }], 7)).toBe('M0,0L600,0L600,0')
  expect(
    stepPath(
      [
        { at: 7, value: 5n },
        { at: 7, value: 10n },
      ],
      7,
    ),
  ).toBe('M0,80L0,80L0,0L600,0L600,0')
  // Amounts beyond a number's precision (token base units) are scaled exactly.
  expect(
    stepPath(
      [
        { at: 0, value: 10n ** 30n },
        { at: 10, value: 2n * 10n ** 30n },
      ],
      20,
    ),
  ).toBe('M0,80L300,80L300,0L600,0L600,0')
  expect(stepPath([], 7)).toBe('')
})

test('behavior: the chart draws that line as an image named by its summary, beside its highest value and 0, between its first and last dates', () => {
  render(
    <StepChart
      title="Balance over time"
      testId="balance-chart"
      points={points}
      end={2_000}
      format={(value) => `${value} GHD`}
      summary="The balance went from 50 GHD to 0 GHD."
      table={<table />}
    />,
  )
  const image = screen.getByRole('img', { name: 'The balance went from 50 GHD to 0 GHD.' })
  expect(image.querySelector('path.chart-line')?.getAttribute('d')).toBe(stepPath(points, 2_000))
  expect(screen.getByTestId('balance-chart-top').textContent).toBe('100 GHD')
  expect(screen.getByTestId('balance-chart-zero').textContent).toBe('0')
  const dates = [...screen.getByTestId('balance-chart-dates').querySelectorAll('time')]
  expect(dates.map((time) => time.getAttribute('datetime'))).toEqual([
    new Date(1_000_000).toISOString(),
    new Date(2_000_000).toISOString(),
  ])
})
