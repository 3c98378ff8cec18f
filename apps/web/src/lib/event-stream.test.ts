// useEventStream (event-stream.ts): a refused stream is tried again later with a growing, spread wait; an
// ended one is left to the browser's own reconnect. jsdom has no EventSource: a small one stands in for the
// browser's, with its readyState as the browser sets it (CLOSED after a refusal, CONNECTING after an end).
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { RETRY_FIRST_MS, RETRY_MAX_MS, useEventStream } from './event-stream.ts'

class StandInEventSource {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  static opened: StandInEventSource[] = []
  readyState = StandInEventSource.CONNECTING
  closed = false
  onopen: (() => void) | null = null
  onerror: (() => void) | null = null
  readonly listeners = new Map<string, (event: MessageEvent<string>) => void>()
  constructor(readonly url: string) {
    StandInEventSource.opened.push(this)
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener)
  }
  close() {
    this.closed = true
    this.readyState = StandInEventSource.CLOSED
  }
  /** The server answered with a stream. */
  accept() {
    this.readyState = StandInEventSource.OPEN
    this.onopen?.()
  }
  /** The server answered 429 or 503: the browser fails the stream for good. */
  refuse() {
    this.readyState = StandInEventSource.CLOSED
    this.onerror?.()
  }
  /** The stream ended (server closed, slow reader dropped): the browser reconnects by itself. */
  end() {
    this.readyState = StandInEventSource.CONNECTING
    this.onerror?.()
  }
}

beforeEach(() => {
  StandInEventSource.opened = []
  vi.stubGlobal('EventSource', StandInEventSource)
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const latest = () => StandInEventSource.opened.at(-1) as StandInEventSource

test('behavior: a refused stream is opened again after a wait between half and all of 10 s, doubling at each refusal up to 5 minutes; an accepted one starts over; not live meanwhile', () => {
  const { result } = renderHook(() => useEventStream('/api/events', { proposal: () => {} }))
  expect(StandInEventSource.opened).toHaveLength(1)
  // Drawn at the shortest (half the wait), in the middle, and at the longest.
  for (const draw of [0, 0.5, 0.999_999]) {
    vi.spyOn(Math, 'random').mockReturnValue(draw)
    act(() => latest().accept())
    expect(result.current).toBe(true)
    // 10, 20, 40, 80, 160 s, then 5 minutes at most.
    for (let refusal = 0; refusal < 7; refusal++) {
      const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** refusal) * (0.5 + draw / 2)
      act(() => latest().refuse())
      expect(result.current).toBe(false)
      const count = StandInEventSource.opened.length
      act(() => vi.advanceTimersByTime(Math.floor(wait) - 1))
      expect(StandInEventSource.opened).toHaveLength(count)
      act(() => vi.advanceTimersByTime(1))
      expect(StandInEventSource.opened).toHaveLength(count + 1)
      expect(latest().url).toBe('/api/events')
    }
    // Accepted (next round): the next refusal waits the first wait again.
  }
})

test('behavior: an ended stream is left to the browser’s own reconnect (nothing opened here); unmounted, nothing is opened again', () => {
  const { result, unmount } = renderHook(() => useEventStream('/api/events', {}))
  act(() => latest().accept())
  expect(result.current).toBe(true)
  act(() => latest().end())
  expect(result.current).toBe(false)
  act(() => vi.advanceTimersByTime(10 * RETRY_MAX_MS))
  expect(StandInEventSource.opened).toHaveLength(1)

  act(() => latest().refuse())
  unmount()
  expect(latest().closed).toBe(true)
  act(() => vi.advanceTimersByTime(10 * RETRY_MAX_MS))
  expect(StandInEventSource.opened).toHaveLength(1)
})

test('behavior: each event’s data reaches its handler as JSON, from a stream opened again after a refusal too', () => {
  const seen: unknown[] = []
  renderHook(() => useEventStream('/api/events', { proposal: (data) => seen.push(data) }))
  act(() => latest().refuse())
  act(() => vi.advanceTimersByTime(RETRY_FIRST_MS))
  act(() => latest().accept())
  latest().listeners.get('proposal')?.(new MessageEvent('proposal', { data: '{"seq":7}' }))
  expect(seen).toEqual([{ seq: 7 }])
})
