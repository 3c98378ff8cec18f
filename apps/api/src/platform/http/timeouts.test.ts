// What a client may hold open on the real listening server, over raw TCP on 127.0.0.1: a request whose body
// trickles in or stops half-way, headers that never finish, an idle keep-alive connection. Small timeouts
// from the settings keep it to seconds; every wait is bounded, so a server without timeouts fails rather
// than hangs.
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testSettings } from '../../../testbed/test-app.ts'
import { buildApp } from '../../app.ts'

const REQUEST_TIMEOUT_MS = 1_500
const HEADERS_TIMEOUT_MS = 400
const KEEP_ALIVE_TIMEOUT_MS = 400
/**
 * Node keeps a keep-alive connection one second past the timeout it advertises (Keep-Alive: timeout=…), so
 * a client never reuses one the server is just closing.
 */
const NODE_KEEP_ALIVE_BUFFER_MS = 1_000
/** How long past a timeout the server may take to close (Node checks on an interval; a busy machine). */
const SLACK_MS = 1_000
/** A connection still open this long after it went quiet is one the server would keep forever. */
const GIVE_UP_MS = REQUEST_TIMEOUT_MS + 4 * SLACK_MS

let app: FastifyInstance
let port: number
let origin: string

beforeAll(async () => {
  // A chain on loopback (the kit's default) gets the /rpc/<id> route, which takes a JSON body (the node is
  // never reached).
  const settings = testSettings({
    origin: null,
    env: {
      PORT: '0',
      SIGN_IN: 'off',
      LOG_LEVEL: 'silent',
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    },
  })
  origin = settings.publicConfig.appUrl
  app = await buildApp({ settings })
  await app.listen({ port: 0, host: '127.0.0.1' })
  port = (app.server.address() as { port: number }).port
})

afterAll(async () => {
  await app?.close()
})

interface Outcome {
  /** Milliseconds from the connection's start until the server closed it; null if it was still open. */
  closedAfterMs: number | null
  /** Everything the server sent. */
  received: string
}

/** Opens a raw connection, lets `talk` write to it, and reports when (if at all) the server closed it. */
function rawConnection(talk: (socket: Socket, closed: () => boolean) => Promise<void>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    const started = performance.now()
    let received = ''
    let closed = false
    const giveUp = setTimeout(() => {
      socket.destroy()
      resolve({ closedAfterMs: null, received })
    }, GIVE_UP_MS)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    // A reset is the server closing too.
    socket.on('error', () => {})
    socket.on('close', () => {
      if (closed) return
      closed = true
      clearTimeout(giveUp)
      resolve({ closedAfterMs: performance.now() - started, received })
    })
    socket.on('connect', () => {
      talk(socket, () => closed).catch(reject)
    })
  })
}

const BODY_LENGTH = 100
const postHeaders = () =>
  `POST /rpc/31337 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${BODY_LENGTH}\r\n\r\n`

/** The server either answered 408 or closed without a word; nothing else (the body never completed). */
const expectTimedOut = (received: string) => {
  if (received !== '') expect(received).toMatch(/^HTTP\/1\.1 408 /)
}

describe('connection and request timeouts', () => {
  test('a body trickling in one byte every 200 ms is cut off at the request timeout', async () => {
    const outcome = await rawConnection(async (socket, closed) => {
      socket.write(postHeaders())
      // Never quiet for long, so only the bound on the whole request can end it. At most the whole body.
      for (let sent = 0; sent < BODY_LENGTH - 1 && !closed(); sent += 1) {
        socket.write(' ')
        await sleep(200)
      }
    })
    expect(outcome.closedAfterMs).not.toBeNull()
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS)
    expectTimedOut(outcome.received)
  })

  test('a body that stops half-way is cut off at the request timeout', async () => {
    const outcome = await rawConnection(async (socket) => {
      socket.write(`${postHeaders()}{"jsonrpc":"2.0",`)
    })
    expect(outcome.closedAfterMs).not.toBeNull()
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS)
    expectTimedOut(outcome.received)
  })

  test('headers that never finish are cut off at the headers timeout, well before the request timeout', async () => {
    const outcome = await rawConnection(async (socket, closed) => {
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
      // One header line every 100 ms, never the blank line that ends them. Bounded.
      for (let line = 0; line < 100 && !closed(); line += 1) {
        socket.write(`X-Slow-${line}: 1\r\n`)
        await sleep(100)
      }
    })
    expect(outcome.closedAfterMs).not.toBeNull()
    expect(outcome.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS)
    expectTimedOut(outcome.received)
  })

  test('an idle keep-alive connection is closed after the keep-alive timeout, once its answer is sent', async () => {
    let answeredAt = 0
    const outcome = await rawConnection(async (socket) => {
      const started = performance.now()
      socket.once('data', () => {
        answeredAt = performance.now() - started
      })
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`)
    })
    expect(outcome.received).toMatch(/^HTTP\/1\.1 200 /)
    expect(outcome.received).toMatch(/\r\nKeep-Alive: timeout=0\r\n/i)
    expect(outcome.closedAfterMs).not.toBeNull()
    const idleMs = (outcome.closedAfterMs ?? 0) - answeredAt
    expect(idleMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 50)
    expect(idleMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + NODE_KEEP_ALIVE_BUFFER_MS + SLACK_MS)
  })

  test('a request whose body arrives in time is handled (here: the node it proxies to is down, 503)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }).padEnd(BODY_LENGTH, ' ')
    const outcome = await rawConnection(async (socket) => {
      socket.write(postHeaders().replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n') + body)
    })
    expect(outcome.received).toMatch(/^HTTP\/1\.1 503 /)
    expect(outcome.received).toContain('chain_unavailable')
  })
})
