// A real local HTTP server that cuts the connection of the first requests it is told to (no answer, as an
// instance killed mid-request behind a proxy), and answers the others with what `answer` says, when it
// says (a promise holds the answer back); the page's relative API paths reach it through the real fetch,
// resolved against its origin as a browser would.
import { createServer, type Server } from 'node:http'
import { vi } from 'vitest'

type Received = { method: string; path: string; body: string }
type Answer = { status: number; body?: unknown }

export type DroppingServer = {
  /** Every request the server read, cut or answered, in order. */
  received: Received[]
  /** Cuts the next `count` requests' connections instead of answering them. */
  drop: (count: number) => void
  /** How requests are answered from now on (200 `{}` by default); a promise answers once it settles. */
  answer: (reply: (request: Received) => Answer | Promise<Answer>) => void
  close: () => Promise<void>
}

/** Starts the server and routes the global fetch's relative paths to it until `close()`. */
export async function startDroppingServer(): Promise<DroppingServer> {
  const received: Received[] = []
  let dropping = 0
  let reply = (_request: Received): Answer | Promise<Answer> => ({ status: 200, body: {} })
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const entry = { method: request.method ?? '', path: request.url ?? '', body }
      received.push(entry)
      if (dropping > 0) {
        dropping--
        request.socket.destroy()
        return
      }
      void Promise.resolve(reply(entry)).then(({ status, body: answerBody }) => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(answerBody === undefined ? undefined : JSON.stringify(answerBody))
      })
    })
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const address = server.address()
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => realFetch(new URL(input, origin), init))
  return {
    received,
    drop: (count) => {
      dropping = count
    },
    answer: (next) => {
      reply = next
    },
    close: async () => {
      vi.unstubAllGlobals()
      server.closeAllConnections()
      await new Promise((closed) => server.close(closed))
    },
  }
}
