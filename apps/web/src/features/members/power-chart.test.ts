import { expect, test } from 'vitest'
import { stepPath } from './power-chart.tsx'

test('behavior: the step line holds each value until the next change and the last until the end block, scaled to the highest', () => {
  const points = [
    { block: 100, votes: '50' },
    { block: 150, votes: '100' },
    { block: 180, votes: '0' },
  ]
  // x: blocks 100 → 200 over 600 units; y: 0 → 100 votes over 160 units, upwards.
  expect(stepPath(points, 200)).toBe('M0.0,80.0 H300.0 V0.0 H480.0 V160.0 H600.0')
  expect(stepPath([{ block: 7, votes: '5' }], 7)).toBe('M0.0,0.0 H0.0')
  expect(stepPath([], 7)).toBe('')
})
