// The bench's HTTP load: requests over node:http with a keep-alive agent the caller owns, each timed at
// the client from sending until the whole answer is read, and a pool that keeps N of them in flight.
import { Agent, request } from 'node:http'

const REQUEST_TIMEOUT_MS = 30_000

/** The bench's requests name themselves; a body is JSON. */
export const JSON_HEADERS = { 'user-agent': 'guildhall-bench', 'content-type': 'application/json' }

export type Reply = { status: number; body: string; setCookie: string[]; ms: number }

export function post(
  agent: Agent,
  url: URL,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<Reply> {
  const started = performance.now()
  return new Promise((done, fail) => {
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', fail)
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            setCookie: res.headers['set-cookie'] ?? [],
            ms: performance.now() - started,
          }),
        )
      },
    )
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)))
    req.on('error', fail)
    req.end(body)
  })
}

export type Timed = { status: number; bytes: number; ms: number }

/** A GET of `path`; with `onChunk` the body is only counted (a bundle of 80 MB), else kept. */
export function get(
  agent: Agent,
  url: URL,
  path: string,
  onChunk?: () => void,
): Promise<Timed & { body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(new URL(path, url), { agent, headers: JSON_HEADERS }, (res) => {
      const chunks: Buffer[] = []
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        if (!onChunk) chunks.push(chunk)
        else onChunk()
      })
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          ms: performance.now() - started,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Runs work(0…count-1) with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0
  const worker = async () => {
    for (let index = next++; index < count; index = next++) await work(index)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

/**
 * Keep-alive agents, a fresh one for each phase of a measurement: a connection left idle past the server's
 * keep-alive timeout (5 s) could be reused just as the server closes it (ECONNRESET), which would be the
 * bench's fault.
 */
export function phaseAgents(maxSockets: number) {
  let agent = new Agent({ keepAlive: true, maxSockets })
  return {
    get current() {
      return agent
    },
    next() {
      agent.destroy()
      agent = new Agent({ keepAlive: true, maxSockets })
      return agent
    },
    close() {
      agent.destroy()
    },
  }
}
