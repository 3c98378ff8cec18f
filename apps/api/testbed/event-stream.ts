// An event stream's client over fetch, for the tests of live events (governance/live/routes.ts) on one server and
// through HAProxy (fault/cluster.postgres.test.ts): every event it receives, a wait for the next ones, and
// when the stream ended.

type ReceivedEvent = { id: string; event: string; data: unknown }

/** Opens `url` as an event stream (with `headers`, e.g. Last-Event-ID) and reads it until closed or cut. */
export async function openStream(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController()
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  })
  const events: ReceivedEvent[] = []
  const waiters = new Set<() => void>()
  let ended: Promise<void> = Promise.resolve()
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    ended = (async () => {
      let buffer = ''
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          buffer += value
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const fields = Object.fromEntries(
              frame
                .split('\n')
                .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
            )
            // Comment frames (heartbeats) are not events.
            if (!frame.startsWith(':')) {
              events.push({
                id: fields.id ?? '',
                event: fields.event ?? 'message',
                data: JSON.parse(fields.data ?? 'null'),
              })
            }
            for (const wake of waiters) wake()
          }
        }
      } catch {
        // aborted, or the connection was cut
      }
    })()
  }
  return {
    response,
    events,
    /** Waits until `count` events have arrived (fails after 10 s). */
    async until(count: number) {
      const deadline = Date.now() + 10_000
      while (events.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${events.length} of ${count} events: ${JSON.stringify(events)}`)
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake)
            resolve()
          }
          waiters.add(wake)
          setTimeout(wake, 100)
        })
      }
      return events
    },
    /** Resolves when the stream has ended: closed by the server, cut, or closed here. */
    ended,
    close: () => abort.abort(),
  }
}
