// A JSON-RPC proxy in front of a real node (anvil) for tests that must know what the app asked the chain:
// it records every call (method and parameters) and forwards it unchanged. It also stands in for a hosted
// provider that misbehaves: it can answer slowly or not at all (lag, downtime), refuse some calls itself
// (as providers refuse wide eth_getLogs ranges) and pass an older node's answer on instead of anvil's.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A call as received: `at` is `performance.now()` on arrival, for tests that check a schedule. */
export type RecordedRpcCall = { method: string; params: unknown[]; at: number }
/** A call the node answered, with the size in bytes of the answer passed on (its own, in a batch). */
export type ForwardedRpcCall = RecordedRpcCall & { responseBytes: number }
/** How the proxy answers a request instead of the node: an HTTP status and a body (JSON-RPC fields, or text as is). */
export type RpcRefusal = { status: number; body: unknown }

export type RecordingProxy = {
  url: string
  /** Every call received, in order, batched ones one by one; recorded even while `down`. */
  calls: RecordedRpcCall[]
  /** Every call the node answered, in the order the answers came. */
  forwarded: ForwardedRpcCall[]
  /** Every call the proxy answered itself with a refusal. */
  refused: RecordedRpcCall[]
  /** Milliseconds to hold a request whose calls include one of these methods before forwarding it. */
  delayMs: Map<string, number>
  /** While true, every request is answered HTTP 503 without reaching the node. */
  down: boolean
  /** Decides, per call, whether to refuse it (undefined: forward it); one refused call refuses its whole batch. */
  refuse: (call: RecordedRpcCall) => RpcRefusal | undefined
  /** Changes the node's JSON answer to a call before it is passed on; absent: as is. */
  rewrite: ((call: RecordedRpcCall, answer: { result?: unknown }) => unknown) | undefined
  close(): Promise<void>
}

type JsonRpcRequest = { id?: unknown; method?: unknown; params?: unknown }

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The refusal's payload, shaped like the node's answer to `request` when the refusal's body is JSON-RPC fields. */
function refusalPayload(refusal: RpcRefusal, request: JsonRpcRequest): { type: string; text: string } {
  if (typeof refusal.body === 'string') return { type: 'text/plain', text: refusal.body }
  return {
    type: 'application/json',
    text: JSON.stringify({ jsonrpc: '2.0', id: request.id, ...(refusal.body as object) }),
  }
}

/** The node's answer `text` to `parsed` with each call's answer passed through `rewrite`. */
function rewritten(
  rewrite: NonNullable<RecordingProxy['rewrite']>,
  calls: RecordedRpcCall[],
  parsed: JsonRpcRequest | JsonRpcRequest[],
  text: string,
): string {
  if (!Array.isArray(parsed)) return JSON.stringify(rewrite(calls[0] as RecordedRpcCall, JSON.parse(text)))
  // A batch's answers come in the order of its calls (anvil keeps it), so the nth answer is the nth call's.
  const answers = JSON.parse(text) as { result?: unknown }[]
  return JSON.stringify(answers.map((answer, n) => rewrite(calls[n] as RecordedRpcCall, answer)))
}

/** The size in bytes of the `n`th call's answer in `payload`: the whole payload, or its part of a batch's. */
function answerBytes(payload: string, n: number): number {
  try {
    const answers: unknown = JSON.parse(payload)
    if (Array.isArray(answers)) return Buffer.byteLength(JSON.stringify(answers[n]))
  } catch {
    // Not JSON (a node's error text): the whole payload is the answer.
  }
  return Buffer.byteLength(payload)
}

/** Starts a proxy to `upstream` on a free 127.0.0.1 port. */
export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const proxy: RecordingProxy = {
    url: '',
    calls: [],
    forwarded: [],
    refused: [],
    delayMs: new Map(),
    down: false,
    refuse: () => undefined,
    rewrite: undefined,
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
      const requests = Array.isArray(parsed) ? parsed : [parsed]
      const at = performance.now()
      const calls = requests.map((call) => ({
        method: String(call.method),
        params: Array.isArray(call.params) ? call.params : [],
        at,
      }))
      proxy.calls.push(...calls)
      if (proxy.down) {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('down')
        return
      }
      const refusal = calls.map((call) => proxy.refuse(call)).find((answer) => answer !== undefined)
      if (refusal) {
        proxy.refused.push(...calls)
        const { type, text } = refusalPayload(refusal, requests[0] ?? {})
        response.writeHead(refusal.status, { 'content-type': type }).end(text)
        return
      }
      const delay = Math.max(0, ...calls.map((call) => proxy.delayMs.get(call.method) ?? 0))
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
      const answer = await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      const text = await answer.text()
      const payload = proxy.rewrite ? rewritten(proxy.rewrite, calls, parsed, text) : text
      proxy.forwarded.push(...calls.map((call, n) => ({ ...call, responseBytes: answerBytes(payload, n) })))
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(payload)
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

/** The block span [from, to] of an eth_getLogs call. */
export function logsRange(call: { params: unknown[] }): { from: number; to: number } {
  const filter = call.params[0] as { fromBlock: string; toBlock: string }
  return { from: Number(filter.fromBlock), to: Number(filter.toBlock) }
}
