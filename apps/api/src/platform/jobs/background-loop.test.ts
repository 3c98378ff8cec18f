// The background jobs' loop on a fake clock: when the next pass runs after a busy, an idle and a failed
// pass, what wake() and stop() end.
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { BackgroundLoop } from './background-loop.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A loop whose passes answer `outcomes` in turn (an Error is thrown), then 'idle'; records when each ran. */
function loopOf(outcomes: ('busy' | 'idle' | Error)[]) {
  const ranAt: number[] = []
  const failures: [string, number][] = []
  const loop = new BackgroundLoop({
    pass: async () => {
      ranAt.push(Date.now())
      const outcome = outcomes.shift() ?? 'idle'
      if (outcome instanceof Error) throw outcome
      return outcome
    },
    pollMs: 1_000,
    backoffMs: (n) => 10_000 * 2 ** (n - 1),
    onFailure: (error, retryInMs) => failures.push([(error as Error).message, retryInMs]),
  })
  return { loop, ranAt, failures }
}

test('behavior: a busy pass is followed at once, an idle one after the poll interval, failures after a doubling backoff that a success resets', async () => {
  const start = Date.now()
  const { loop, ranAt, failures } = loopOf(['busy', 'idle', new Error('a'), new Error('b'), 'idle'])
  loop.start()
  await vi.advanceTimersByTimeAsync(0)
  expect(ranAt.map((t) => t - start)).toEqual([0, 0])
  await vi.advanceTimersByTimeAsync(1_000)
  expect(ranAt.map((t) => t - start)).toEqual([0, 0, 1_000])
  await vi.advanceTimersByTimeAsync(10_000)
  expect(ranAt.map((t) => t - start)).toEqual([0, 0, 1_000, 11_000])
  await vi.advanceTimersByTimeAsync(20_000)
  expect(ranAt.map((t) => t - start)).toEqual([0, 0, 1_000, 11_000, 31_000])
  await vi.advanceTimersByTimeAsync(1_000)
  expect(ranAt.map((t) => t - start)).toEqual([0, 0, 1_000, 11_000, 31_000, 32_000])
  expect(failures).toEqual([
    ['a', 10_000],
    ['b', 20_000],
  ])
  await loop.stop()
})

test('behavior: wake() ends an idle pause but not a backoff; stop() ends either, and no pass runs after it', async () => {
  const { loop, ranAt } = loopOf(['idle', new Error('down')])
  loop.start()
  await vi.advanceTimersByTimeAsync(0)
  loop.wake()
  await vi.advanceTimersByTimeAsync(0)
  expect(ranAt).toHaveLength(2)
  // Backing off now: a wake changes nothing.
  loop.wake()
  await vi.advanceTimersByTimeAsync(5_000)
  expect(ranAt).toHaveLength(2)
  expect(loop.stopping).toBe(false)
  await loop.stop()
  expect(loop.stopping).toBe(true)
  await vi.advanceTimersByTimeAsync(60_000)
  expect(ranAt).toHaveLength(2)
  // Started again, it runs.
  loop.start()
  await vi.advanceTimersByTimeAsync(0)
  expect(ranAt).toHaveLength(3)
  await loop.stop()
})
