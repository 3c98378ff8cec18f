// A webhook receiver on 127.0.0.1 for the webhook tests: a real HTTP server that records every request and
// answers each with the status `answer` gives (200 unless a test says otherwise).
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { WebhookJob } from '../src/notifications/webhook-job.ts'
import type { Db } from '../src/platform/db/client.ts'
import { ORIGIN, testSettings } from './test-app.ts'

export type ReceivedWebhook = { path: string; headers: IncomingHttpHeaders; body: string; at: number }

export type WebhookReceiver = {
  url: string
  received: ReceivedWebhook[]
  /** How the next request is answered: a status, or a status and a JSON body (a 429's retry_after). */
  answer: (request: ReceivedWebhook) => number | { status: number; json: unknown }
  /** How long each answer takes (recorded on arrival, answered after): a sender may die waiting. */
  delayMs: number
  /** Resolves once `predicate` holds for the requests received so far (checked on each request). */
  until: (predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number) => Promise<void>
  close: () => Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const waiters = new Set<() => void>()
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => 200,
    delayMs: 0,
    until: (predicate, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(receiver.received)) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(
              `the receiver's condition did not hold within ${timeoutMs} ms (${receiver.received.length} received)`,
            ),
          )
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const received = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      }
      receiver.received.push(received)
      const answer = receiver.answer(received)
      const { status, json } = typeof answer === 'number' ? { status: answer, json: undefined } : answer
      for (const waiter of [...waiters]) waiter()
      const respond = () =>
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(json === undefined ? '' : JSON.stringify(json))
      if (receiver.delayMs > 0) setTimeout(respond, receiver.delayMs)
      else respond()
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return receiver
}

/**
 * A receiver for the file's tests (started before them, closed after) and a fresh Standard Webhooks secret;
 * `receiver` is set once the tests run.
 */
export function useWebhookReceiver(): { receiver: WebhookReceiver; secret: string } {
  const bed = {
    receiver: undefined as unknown as WebhookReceiver,
    secret: `whsec_${randomBytes(32).toString('base64')}`,
  }
  beforeAll(async () => {
    bed.receiver = await startWebhookReceiver()
  })
  afterAll(async () => {
    await bed.receiver?.close()
  })
  return bed
}

/**
 * The leader's webhook job on `db` for one target (`name` at `url`, signed with `secret`, for `events`), as the
 * settings parse it, run a pass at a time by the test; `now` is the clock the events are dated by.
 */
export function webhookJobFor(
  db: Db,
  target: { name: string; url: string; secret: string; events: string[] },
  now: () => Date = () => new Date(),
): WebhookJob {
  const { targets } = testSettings({ env: { WEBHOOKS: JSON.stringify([target]) } }).webhooks
  return new WebhookJob({ db, targets, origin: ORIGIN, closingSoonSeconds: 86_400, now })
}
