import { expect, test } from 'vitest'
import { resultLine } from './proposals-page.tsx'

const row = (fields: Partial<Parameters<typeof resultLine>[0]>): Parameters<typeof resultLine>[0] => ({
  id: `0x${'ab'.repeat(32)}`,
  author: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  title: 'Where the meetup goes',
  kind: 'ranked-choice',
  choices: ['Lisbon', 'Porto', 'Braga'],
  category: '',
  start: 1_900_000_000,
  end: 1_900_003_600,
  snapshot: 10,
  state: 'active',
  result: { outcome: 'passed', leading: [2], quorumReached: true, voters: 3 },
  ...fields,
})

test('behavior: while open the list names who leads (or the tie); once closed the outcome, "Won by" naming the winner of the new kinds', () => {
  expect(resultLine(row({}))).toBe('Leading: Porto')
  expect(
    resultLine(row({ result: { outcome: 'tie', leading: [1, 3], quorumReached: true, voters: 2 } })),
  ).toBe('Tied: Lisbon and Braga')
  expect(
    resultLine(row({ result: { outcome: 'no-quorum', leading: [], quorumReached: false, voters: 0 } })),
  ).toBe('No votes yet')
  expect(resultLine(row({ state: 'final' }))).toBe('Won by Porto')
  expect(
    resultLine(
      row({ state: 'closed', result: { outcome: 'tie', leading: [1, 3], quorumReached: true, voters: 2 } }),
    ),
  ).toBe('Tie')
  expect(
    resultLine(
      row({
        state: 'final',
        result: { outcome: 'no-quorum', leading: [2], quorumReached: false, voters: 1 },
      }),
    ),
  ).toBe('No quorum')
  expect(
    resultLine(
      row({
        state: 'final',
        kind: 'basic',
        choices: ['For', 'Against', 'Abstain'],
        result: { outcome: 'passed', leading: [1], quorumReached: true, voters: 1 },
      }),
    ),
  ).toBe('Passed')
  expect(
    resultLine(
      row({
        state: 'final',
        kind: 'basic',
        choices: ['For', 'Against', 'Abstain'],
        result: { outcome: 'rejected', leading: [2], quorumReached: true, voters: 1 },
      }),
    ),
  ).toBe('Rejected')
})

test('behavior: nothing before voting opens; a ranked-choice proposal never counted yet is "Counting rounds…"', () => {
  expect(resultLine(row({ state: 'pending', result: null }))).toBeNull()
  expect(resultLine(row({ result: null }))).toBe('Counting rounds…')
})
