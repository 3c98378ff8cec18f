import type { PowerHistory } from '@guildhall/core'
import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { stepPath } from '../../components/charts/step-chart.tsx'
import { PowerChart } from './power-chart.tsx'

const day = 86_400
const history: PowerHistory = {
  points: [
    { block: 10, time: 1_000 * day, votes: '50' },
    { block: 20, time: 1_010 * day, votes: '100' },
  ],
  changes: 2,
  blockNumber: 30,
  blockTime: 1_020 * day,
}

test('behavior: voting power over time is a step line on the dates of its blocks from a zero baseline, said in words and given as a table', () => {
  render(<PowerChart history={history} amount={(value) => `${value} GHD`} />)
  const chart = screen.getByTestId('power-chart')
  const image = screen.getByRole('img')
  expect(image.querySelector('path.chart-line')?.getAttribute('d')).toBe(
    stepPath(
      [
        { at: 1_000 * day, value: 50n },
        { at: 1_010 * day, value: 100n },
      ],
      1_020 * day,
    ),
  )
  expect(screen.getByTestId('power-chart-zero').textContent).toBe('0')
  expect(screen.getByTestId('power-chart-top').textContent).toBe('100 GHD')
  expect(
    [...screen.getByTestId('power-chart-dates').querySelectorAll('time')].map((time) =>
      time.getAttribute('datetime'),
    ),
  ).toEqual([new Date(1_000 * day * 1000).toISOString(), new Date(1_020 * day * 1000).toISOString()])
  const summary = screen.getByTestId('power-chart-summary').textContent ?? ''
  expect(image.getAttribute('aria-labelledby')).toBe(screen.getByTestId('power-chart-summary').id)
  expect(summary).toMatch(
    /^From .+ \(block 10\) to .+ \(block 30\): voting power went from 50 GHD to 100 GHD, at most 100 GHD; 2 changes\.$/,
  )
  expect([...chart.querySelectorAll('tbody tr')].map((row) => row.textContent)).toHaveLength(2)
})

test('behavior: without any voting power yet the chart says so instead of drawing nothing', () => {
  render(<PowerChart history={{ ...history, points: [], changes: 0 }} amount={(value) => `${value} GHD`} />)
  expect(screen.queryByRole('img')).toBeNull()
  expect(screen.getByText(/^No voting power yet/)).toBeTruthy()
})
