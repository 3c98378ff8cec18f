import { expect, test } from 'vitest'
import { chartDate, stepPath } from './power-chart.tsx'

test('behavior: the step line holds each value until the next change and the last until the end, over time, scaled to the highest from a zero baseline', () => {
  const points = [
    { at: 1_000, votes: '50' },
    { at: 1_500, votes: '100' },
    { at: 1_800, votes: '0' },
  ]
  // x: seconds 1,000 → 2,000 over 600 units; y: 0 → 100 votes over 160 units, upwards from the bottom (0).
  expect(stepPath(points, 2_000)).toBe('M0.0,80.0 H300.0 V0.0 H480.0 V160.0 H600.0')
  // A history within one second still holds its value across the plot.
  expect(stepPath([{ at: 7, votes: '5' }], 7)).toBe('M0.0,0.0 H600.0')
  expect(
    stepPath(
      [
        { at: 7, votes: '5' },
        { at: 7, votes: '10' },
      ],
      7,
    ),
  ).toBe('M0.0,80.0 H0.0 V0.0 H600.0')
  expect(stepPath([], 7)).toBe('')
})

test('behavior: a point is dated by its block’s time; with the time of day when the series spans less than a day, and its seconds under an hour', () => {
  const noon = Date.UTC(2026, 10, 27, 12, 5, 9) / 1000
  expect(chartDate(noon, 90 * 86_400, 'UTC')).toEqual({ date: 'Nov 27, 2026', time: null })
  expect(chartDate(noon, 5 * 3_600, 'UTC')).toEqual({ date: 'Nov 27, 2026', time: '12:05 PM' })
  expect(chartDate(noon, 40, 'UTC')).toEqual({ date: 'Nov 27, 2026', time: '12:05:09 PM' })
})
