// The leader's webhook job (ADR 055): each pass derives the new events (webhook-events.ts) and sends the due
// deliveries (webhook-deliverer.ts). It runs only when WEBHOOKS names some.
import { eq, max } from 'drizzle-orm'
import type { Db } from '../platform/db/client.ts'
import { governanceLog, webhookCursor } from '../platform/db/schema.ts'
import { BackgroundLoop } from '../platform/jobs/background-loop.ts'
import type { WebhookTarget } from '../settings/webhooks.ts'
import { WebhookDeliverer } from './webhook-deliverer.ts'
import { deriveEvents } from './webhook-events.ts'

const DEFAULT_POLL_MS = 1_000
const MAX_BACKOFF_MS = 60_000

export type WebhookJobOptions = {
  db: Db
  targets: readonly WebhookTarget[]
  origin: string
  closingSoonSeconds: number
  now: () => Date
  pollMs?: number
  retryBaseMs?: number
  timeoutMs?: number
  logger?: { warn(details: object, message: string): void }
}

export class WebhookJob {
  readonly #options: WebhookJobOptions
  readonly #deliverer: WebhookDeliverer
  readonly #loop: BackgroundLoop

  constructor(options: WebhookJobOptions) {
    this.#options = options
    this.#deliverer = new WebhookDeliverer(
      {
        db: options.db,
        now: options.now,
        ...(options.retryBaseMs === undefined ? {} : { retryBaseMs: options.retryBaseMs }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
      options.targets,
    )
    const pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.#loop = new BackgroundLoop({
      pass: () => this.pass(),
      pollMs,
      backoffMs: (failures) => Math.min(MAX_BACKOFF_MS, pollMs * 2 ** (failures - 1)),
      // The message names no URL: a Discord or Slack URL is itself a secret.
      onFailure: (error, retryInMs) => options.logger?.warn({ err: error, retryInMs }, 'webhook pass failed'),
    })
  }

  start(): void {
    this.#loop.start()
  }

  async stop(): Promise<void> {
    await this.#loop.stop()
  }

  /** One pass: new events stored and queued, due deliveries sent; 'busy' when more is waiting. */
  async pass(): Promise<'busy' | 'idle'> {
    const derived = await deriveEvents(this.#options, this.#options.targets)
    const moreDue = await this.#deliverer.deliverDue()
    return derived.more || moreDue ? 'busy' : 'idle'
  }
}

/** Moves the cursor to the log's end and the clock to `now`: what happened before is not sent. */
export async function keepCursorAtPresent(db: Db, now: Date): Promise<void> {
  const [last] = await db.select({ seq: max(governanceLog.seq) }).from(governanceLog)
  await db
    .update(webhookCursor)
    .set({ logSeq: last?.seq ?? 0, clockSince: now })
    .where(eq(webhookCursor.id, 1))
}
