// Sends the due webhook deliveries (ADR 055), on the leader only: each attempt with a timeout; a 2xx answer is
// delivered; anything else is tried again after 10 s × 2ⁿ (or when a 429 says), up to 6 attempts; a 410 Gone
// disables the webhook. A delivery is marked only after its answer, so one sent by a leader that died before
// marking it is sent again by the next: at least once, and the unchanged `webhook-id` lets a receiver drop it.
import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '../platform/db/client.ts'
import { webhookDeliveries, webhookDisabled, webhookEvents } from '../platform/db/schema.ts'
import type { WebhookTarget } from '../settings/webhooks.ts'
import { type WebhookEvent, type WebhookPayload, webhookRequest } from './webhook-request.ts'

const WEBHOOK_MAX_ATTEMPTS = 6
const DEFAULT_RETRY_BASE_MS = 10_000
const DEFAULT_TIMEOUT_MS = 10_000
/** The longest wait a 429 may ask for before it counts as a plain failure's backoff. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000
/** Deliveries sent per pass, at once. */
const DELIVERY_BATCH = 16
/** The most of an answer read (a 429's retry_after, an error's first words). */
const ANSWER_MAX_BYTES = 4096

export type DelivererOptions = {
  db: Db
  now: () => Date
  /** The first retry's wait; doubles with each attempt (10 s). */
  retryBaseMs?: number
  /** An attempt's limit (10 s). */
  timeoutMs?: number
}

/** What one attempt came to. */
export type AttemptResult =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'gone'; status: number }
  | { outcome: 'failed'; status: number | null; error: string; retryAfterMs?: number }

/** Sends `event` to `target` once and says how it went; never throws. */
export async function attemptDelivery(
  target: WebhookTarget,
  event: WebhookEvent,
  now: Date,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<AttemptResult> {
  const { body, headers } = webhookRequest(target, event, now)
  let response: Response
  try {
    response = await fetch(target.url, {
      method: 'POST',
      headers,
      body,
      // A redirect is an answer, not a place to send the body again.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
    return {
      outcome: 'failed',
      status: null,
      error: timedOut ? `no answer within ${timeoutMs} ms` : `could not connect (${causeOf(error)})`,
    }
  }
  const answer = await readSome(response)
  if (response.status >= 200 && response.status < 300)
    return { outcome: 'delivered', status: response.status }
  if (response.status === 410) return { outcome: 'gone', status: 410 }
  const retryAfterMs = response.status === 429 ? retryAfter(response, answer) : undefined
  return {
    outcome: 'failed',
    status: response.status,
    error: `answered ${response.status}${answer ? `: ${answer.slice(0, 200)}` : ''}`,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  }
}

export class WebhookDeliverer {
  readonly #options: DelivererOptions
  readonly #targets: ReadonlyMap<string, WebhookTarget>

  constructor(options: DelivererOptions, targets: readonly WebhookTarget[]) {
    this.#options = options
    this.#targets = new Map(targets.map((target) => [target.name, target]))
  }

  /** One pass: sends up to 16 due deliveries at once and records each answer; true when more are due. */
  async deliverDue(): Promise<boolean> {
    const { db, now } = this.#options
    const due = await db
      .select({
        webhook: webhookDeliveries.webhook,
        eventId: webhookDeliveries.eventId,
        attempts: webhookDeliveries.attempts,
        payload: webhookEvents.payload,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.state, 'pending'), lte(webhookDeliveries.nextAttemptAt, now())))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(DELIVERY_BATCH)
    if (due.length === 0) return false
    const disabled = await this.#disabled(due.map((row) => row.webhook))
    await Promise.all(
      due.map(async (row) => {
        const target = this.#targets.get(row.webhook)
        const key = { webhook: row.webhook, eventId: row.eventId }
        if (!target) return this.#fail(key, row.attempts, null, 'the webhook is no longer in WEBHOOKS')
        if (disabled.has(row.webhook) && disabled.get(row.webhook) === urlHash(target.url))
          return this.#fail(key, row.attempts, null, 'the webhook is disabled: its URL answered 410 Gone')
        const event = { id: row.eventId, payload: row.payload as WebhookPayload }
        const result = await attemptDelivery(target, event, now(), this.#options.timeoutMs)
        await this.record(target, key, row.attempts + 1, result)
      }),
    )
    return due.length === DELIVERY_BATCH
  }

  /** Stores the answer to attempt number `attempts` of a delivery; a failure is tried again unless `retry` is false. */
  async record(
    target: WebhookTarget,
    key: { webhook: string; eventId: string },
    attempts: number,
    result: AttemptResult,
    { retry = true }: { retry?: boolean } = {},
  ): Promise<void> {
    const { db, now } = this.#options
    const at = now()
    if (result.outcome === 'delivered') {
      await this.#set(key, {
        state: 'delivered',
        attempts,
        lastStatus: result.status,
        lastError: null,
        deliveredAt: at,
      })
      return
    }
    if (result.outcome === 'gone') {
      await db
        .insert(webhookDisabled)
        .values({ webhook: target.name, urlHash: urlHash(target.url), status: result.status, at })
        .onConflictDoUpdate({
          target: webhookDisabled.webhook,
          set: { urlHash: sql`excluded.url_hash`, status: sql`excluded.status`, at: sql`excluded.at` },
        })
      await this.#set(key, {
        state: 'failed',
        attempts,
        lastStatus: result.status,
        lastError: 'answered 410 Gone: the webhook is disabled until its URL changes',
      })
      return
    }
    if (!retry || attempts >= WEBHOOK_MAX_ATTEMPTS) {
      await this.#set(key, { state: 'failed', attempts, lastStatus: result.status, lastError: result.error })
      return
    }
    const backoffMs = (this.#options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS) * 2 ** (attempts - 1)
    const waitMs =
      result.retryAfterMs !== undefined && result.retryAfterMs <= MAX_RETRY_AFTER_MS
        ? result.retryAfterMs
        : backoffMs
    await this.#set(key, {
      attempts,
      lastStatus: result.status,
      lastError: result.error,
      nextAttemptAt: new Date(at.getTime() + waitMs),
    })
  }

  async #fail(
    key: { webhook: string; eventId: string },
    attempts: number,
    status: number | null,
    error: string,
  ) {
    await this.#set(key, { state: 'failed', attempts, lastStatus: status, lastError: error })
  }

  async #set(key: { webhook: string; eventId: string }, set: Partial<typeof webhookDeliveries.$inferInsert>) {
    await this.#options.db
      .update(webhookDeliveries)
      .set(set)
      .where(and(eq(webhookDeliveries.webhook, key.webhook), eq(webhookDeliveries.eventId, key.eventId)))
  }

  async #disabled(names: string[]): Promise<Map<string, string>> {
    const rows = await this.#options.db
      .select()
      .from(webhookDisabled)
      .where(inArray(webhookDisabled.webhook, [...new Set(names)]))
    return new Map(rows.map((row) => [row.webhook, row.urlHash]))
  }
}

const urlHash = (url: string) => createHash('sha256').update(url).digest('hex')

/** Discord's 429 body gives `retry_after` in seconds; otherwise the Retry-After header (seconds). */
function retryAfter(response: Response, answer: string): number | undefined {
  let seconds: unknown
  try {
    seconds = (JSON.parse(answer) as { retry_after?: unknown }).retry_after
  } catch {
    seconds = undefined
  }
  if (typeof seconds !== 'number') seconds = Number(response.headers.get('retry-after') ?? Number.NaN)
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? Math.ceil(seconds * 1000)
    : undefined
}

async function readSome(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < ANSWER_MAX_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } catch {
    // An answer cut short still has its status.
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).toString('utf8', 0, Math.min(size, ANSWER_MAX_BYTES)).trim()
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  return cause instanceof Error ? cause.message : String(cause)
}
