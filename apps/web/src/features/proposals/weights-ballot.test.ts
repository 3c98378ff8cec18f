import { describe, expect, test } from 'vitest'
import { weightsBallot } from './weights-ballot.tsx'

describe('weightsBallot', () => {
  test("default: the choices given a weight above 0, in the proposal's order, with their weights; 0 and empty are left out", () => {
    expect(weightsBallot(['3', '', '0', ' 1 '])).toEqual({ picked: [1, 4], weights: [3, 1], problem: null })
    expect(weightsBallot(['1000000', '1'])).toEqual({
      picked: [1, 2],
      weights: [1_000_000, 1],
      problem: null,
    })
  })

  test('behavior: every weight 0 (or empty) is said in words', () => {
    for (const entries of [
      ['0', '0'],
      ['', ''],
      ['', '0'],
    ]) {
      expect(weightsBallot(entries).problem).toBe(
        'Every weight is 0: give at least one choice a weight above 0.',
      )
    }
  })

  test.each(['1.5', '-1', '1000001', '1e3', 'abc'])(
    'parameters: a weight of %j is refused in words',
    (typed) => {
      expect(weightsBallot(['2', typed])).toEqual({
        picked: [],
        weights: [],
        problem: 'Check the weights: each is a whole number from 0 to 1,000,000.',
      })
    },
  )
})
