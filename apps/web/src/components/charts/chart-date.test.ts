import { expect, test } from 'vitest'
import { chartDate } from './chart-date.tsx'

test('behavior: a point is dated by its block’s time; with the time of day when the series spans less than a day, and its seconds under an hour', () => {
  const noon = Date.UTC(2026, 10, 27, 12, 5, 9) / 1000
  expect(chartDate(noon, 90 * 86_400, 'UTC')).toEqual({ date: 'Nov 27, 2026', time: null })
  expect(chartDate(noon, 5 * 3_600, 'UTC')).toEqual({ date: 'Nov 27, 2026', time: '12:05 PM' })
  expect(chartDate(noon, 40, 'UTC')).toEqual({ date: 'Nov 27, 2026', time: '12:05:09 PM' })
})
