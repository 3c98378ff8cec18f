// Server-sent events (ADR 024), read with the browser's EventSource, which reconnects by itself and sends the
// last event id so the server replays what was missed. While a stream is open pages do not poll.
import { useEffect, useState } from 'react'

/**
 * Opens `url` after the page has rendered (never part of its first load) and calls `on[event]` with each
 * event's data; closes on unmount. True while the stream is open.
 */
export function useEventStream(url: string, on: Record<string, (data: unknown) => void>): boolean {
  const [open, setOpen] = useState(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the handlers are rebuilt each render; the URL names the stream
  useEffect(() => {
    const source = new EventSource(url)
    source.onopen = () => setOpen(true)
    // EventSource tries again by itself (with Last-Event-ID); until then the page polls.
    source.onerror = () => setOpen(false)
    for (const [event, handle] of Object.entries(on)) {
      source.addEventListener(event, (message) => handle(JSON.parse((message as MessageEvent<string>).data)))
    }
    return () => {
      source.close()
      setOpen(false)
    }
  }, [url])
  return open
}

/** Runs the latest task at most once per `ms`: at once when idle, else at the end of the wait. */
export function throttled(ms: number) {
  let last = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let pending: (() => unknown) | undefined
  const fire = () => {
    timer = undefined
    last = Date.now()
    const task = pending
    pending = undefined
    task?.()
  }
  return {
    run(task: () => unknown) {
      pending = task
      if (timer) return
      const wait = last + ms - Date.now()
      if (wait <= 0) fire()
      else timer = setTimeout(fire, wait)
    },
    cancel() {
      clearTimeout(timer)
      timer = undefined
      pending = undefined
    },
  }
}
