import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { useDebouncedValue } from './debounced-value.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

test('behavior: the value once it has not changed for the delay; each change starts the wait again; settle takes it at once', () => {
  const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 300), {
    initialProps: { value: 'a' },
  })
  expect(result.current[0]).toBe('a')
  rerender({ value: 'ad' })
  act(() => vi.advanceTimersByTime(200))
  rerender({ value: 'ada' })
  act(() => vi.advanceTimersByTime(299))
  expect(result.current[0]).toBe('a')
  act(() => vi.advanceTimersByTime(1))
  expect(result.current[0]).toBe('ada')

  rerender({ value: 'ada.eth' })
  act(() => result.current[1]())
  expect(result.current[0]).toBe('ada.eth')
})
