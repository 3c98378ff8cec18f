// The ranked ballot by its buttons, as a keyboard or a screen reader uses it: each move reorders the ranking,
// keeps the focus on the moved choice and is announced. Dragging is proved in Chromium (voting-kinds-ballot
// e2e): jsdom lays nothing out.
import { fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, test } from 'vitest'
import { moveRank, RankedBallot } from './ranked-ballot.tsx'

const CHOICES = ['Alba', 'Bram', 'Cato', 'Dara']

function Ballot() {
  const [ranking, setRanking] = useState([1, 2, 3, 4])
  return <RankedBallot choices={CHOICES} ranking={ranking} onChange={setRanking} />
}

const shown = () =>
  within(screen.getByTestId('ranking'))
    .getAllByRole('listitem')
    .map((row) => row.textContent?.replace(/[^A-Za-z0-9.]/g, ''))

describe('RankedBallot', () => {
  test('default: every choice in the given order, each with Move up and Move down named after it; the ends disabled', () => {
    render(<Ballot />)
    expect(shown()).toEqual(['1.Alba', '2.Bram', '3.Cato', '4.Dara'])
    expect(screen.getByRole('button', { name: 'Move Alba up' })).toHaveProperty('disabled', true)
    expect(screen.getByRole('button', { name: 'Move Dara down' })).toHaveProperty('disabled', true)
    expect(screen.getByRole('button', { name: 'Move Bram up' })).toHaveProperty('disabled', false)
  })

  test('behavior: a move reorders, is announced with the new position, and the focus follows the moved choice (to its other button at an end)', () => {
    render(<Ballot />)
    fireEvent.click(screen.getByRole('button', { name: 'Move Cato up' }))
    expect(shown()).toEqual(['1.Alba', '2.Cato', '3.Bram', '4.Dara'])
    expect(screen.getByTestId('ranking-announcement').textContent).toBe('Cato moved to position 2 of 4.')
    expect(screen.getByTestId('ranking-announcement').getAttribute('aria-live')).toBe('polite')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Cato up' }))

    fireEvent.click(screen.getByRole('button', { name: 'Move Cato up' }))
    expect(shown()).toEqual(['1.Cato', '2.Alba', '3.Bram', '4.Dara'])
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Cato down' }))

    fireEvent.click(screen.getByRole('button', { name: 'Move Bram down' }))
    expect(shown()).toEqual(['1.Cato', '2.Alba', '3.Dara', '4.Bram'])
    expect(screen.getByTestId('ranking-announcement').textContent).toBe('Bram moved to position 4 of 4.')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Bram up' }))
  })

  test('behavior: the drag handle is hidden from assistive technology (the buttons do the same)', () => {
    render(<Ballot />)
    expect(screen.getByTestId('drag-1').getAttribute('aria-hidden')).toBe('true')
  })
})

describe('moveRank', () => {
  test.each([
    [0, 2, [2, 3, 1, 4]],
    [3, 0, [4, 1, 2, 3]],
    [1, 1, [1, 2, 3, 4]],
  ])('moves the choice at %i to %i, the others keeping their order', (from, to, expected) => {
    const ranking = [1, 2, 3, 4]
    expect(moveRank(ranking, from, to)).toEqual(expected)
    expect(ranking).toEqual([1, 2, 3, 4])
  })
})
