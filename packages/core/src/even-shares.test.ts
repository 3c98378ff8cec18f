import { describe, expect, test } from 'vitest'
import { evenShares } from './even-shares.ts'

describe('evenShares', () => {
  test('behavior: consecutive shares as even as they divide, the first ones larger by one', () => {
    expect(evenShares([1, 2, 3, 4, 5], 2)).toEqual([
      [1, 2, 3],
      [4, 5],
    ])
    expect(evenShares([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([
      [1, 2, 3],
      [4, 5],
      [6, 7],
    ])
  })

  test('edge: fewer items than parts gives one share each; none gives none', () => {
    expect(evenShares([1, 2], 8)).toEqual([[1], [2]])
    expect(evenShares([], 4)).toEqual([])
  })
})
