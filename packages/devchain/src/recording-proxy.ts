// A JSON-RPC proxy in front of a real node (anvil) for tests that must know what the app asked the chain:
// it records every call (method and parameters) and forwards it unchanged; it can also answer slowly, or
// not at all, like a provider that lags or is down.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A call as received: `at` is `performance.now()` on arrival, for tests that check a schedule. */
export type RecordedRpcCall = { method: string; params: unknown[]; at: number }

export type RecordingProxy = {
  url: string
  /** Every call received, in order, batched ones one by one; recorded even while `down`. */
  calls: RecordedRpcCall[]
  /** Milliseconds to hold a request whose calls include one of these methods before forwarding it. */
  delayMs: Map<string, number>
  /** While true, every request is answered HTTP 503 without reaching the node. */
  down: boolean
  close(): Promise<void>
}

type JsonRpcRequest = { method?: unknown; params?: unknown }

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Starts a proxy to `upstream` on a free 127.0.0.1 port. */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const proxy: RecordingProxy = {
    url: '',
    calls: [],
    delayMs: new Map(),
    down: false,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
  const server = createServer(async (request, response) => {
    try {
      const body = await readBody(request)
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[]
      const at = performance.now()
      const calls = (Array.isArray(parsed) ? parsed : [parsed]).map((call) => ({
        method: String(call.method),
        params: Array.isArray(call.params) ? call.params : [],
        at,
      }))
      proxy.calls.push(...calls)
      if (proxy.down) {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('down')
        return
      }
      const delay = Math.max(0, ...calls.map((call) => proxy.delayMs.get(call.method) ?? 0))
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
      const answer = await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
    } catch (error) {
      // The client went away while the request was held, or sent what is not JSON: answer like a node.
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' })
      response.end(String(error))
    }
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}
