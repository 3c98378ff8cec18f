// Server-sent events (ADR 024), read with the browser's EventSource, which reconnects by itself and sends the
// last event id so the server replays what was missed; a refused stream is tried again later (ADR 064).
// While a stream is open pages do not poll.
import { useEffect, useState } from 'react'

/**
 * A stream the server refused (it is full, 503, or this address holds too many, 429) is opened again after
 * this long, doubled at each refusal up to RETRY_MAX_MS; each wait is drawn between half and all of it, so the
 * pages refused together do not come back together. Meanwhile the page reads the result as it does offline.
 */
export const RETRY_FIRST_MS = 10_000
export const RETRY_MAX_MS = 300_000

/**
 * Opens `url` after the page has rendered (never part of its first load) and calls `on[event]` with each
 * event's data; closes on unmount. True while the stream is open.
 */
export function useEventStream(url: string, on: Record<string, (data: unknown) => void>): boolean {
  const [open, setOpen] = useState(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the handlers are rebuilt each render; the URL names the stream
  useEffect(() => {
    let source: EventSource | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let refusals = 0
    const connect = () => {
      const current = new EventSource(url)
      source = current
      current.onopen = () => {
        refusals = 0
        setOpen(true)
      }
      current.onerror = () => {
        setOpen(false)
        // A stream that ended (the server closed, dropped a slow reader, or went away) EventSource opens
        // again by itself, with Last-Event-ID. An answer that is not a stream (a refusal) ends it for good.
        if (current.readyState !== EventSource.CLOSED) return
        const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** refusals++)
        retry = setTimeout(connect, wait * (0.5 + Math.random() / 2))
      }
      for (const [event, handle] of Object.entries(on)) {
        current.addEventListener(event, (message) =>
          handle(JSON.parse((message as MessageEvent<string>).data)),
        )
      }
    }
    connect()
    return () => {
      clearTimeout(retry)
      source?.close()
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
