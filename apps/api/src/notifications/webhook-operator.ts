// The operator's side of webhooks (`npm run webhooks`, ADR 055): the delivery log, and a test event sent to one
// webhook now and recorded in that log like any other.

import { formatIssues } from '@guildhall/core'
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../platform/db/client.ts'
import { type WebhookDeliveryState, webhookDeliveries, webhookEvents } from '../platform/db/schema.ts'
import { type WebhookTarget, webhookSettings, webhookVariables } from '../settings/webhooks.ts'
import { type AttemptResult, attemptDelivery, WebhookDeliverer } from './webhook-deliverer.ts'
import { storeEvents, testEvent } from './webhook-events.ts'

/** The webhooks WEBHOOKS in `env` names, checked as the server checks them at start. */
export function webhookTargetsOf(
  env: Record<string, string | undefined>,
): WebhookTarget[] | { problems: string } {
  const parsed = webhookVariables.safeParse(env)
  return parsed.success ? webhookSettings(parsed.data).targets : { problems: formatIssues(parsed.error) }
}

type DeliveryLogRow = {
  createdAt: Date
  webhook: string
  eventId: string
  type: string
  state: WebhookDeliveryState
  attempts: number
  lastStatus: number | null
  lastError: string | null
  nextAttemptAt: Date
  deliveredAt: Date | null
}

/** The latest `limit` deliveries, newest first; only the failed ones with `failed`. */
export async function webhookDeliveryLog(
  db: Db,
  { failed = false, limit = 50 }: { failed?: boolean; limit?: number } = {},
): Promise<DeliveryLogRow[]> {
  return db
    .select({
      createdAt: webhookDeliveries.createdAt,
      webhook: webhookDeliveries.webhook,
      eventId: webhookDeliveries.eventId,
      type: webhookEvents.type,
      state: webhookDeliveries.state,
      attempts: webhookDeliveries.attempts,
      lastStatus: webhookDeliveries.lastStatus,
      lastError: webhookDeliveries.lastError,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(failed ? eq(webhookDeliveries.state, 'failed') : undefined)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventId))
    .limit(limit)
}

/**
 * Sends a `webhook.test` event to `target` once, now, and records it in the delivery log: delivered, or
 * failed with the answer (not retried: the operator is watching and can send another).
 */
export async function sendTestWebhook(
  db: Db,
  target: WebhookTarget,
  { origin, now = () => new Date() }: { origin: string; now?: () => Date },
): Promise<{ eventId: string; result: AttemptResult }> {
  const event = testEvent(origin, now())
  await storeEvents(db, [event], [], now())
  const key = { webhook: target.name, eventId: event.id }
  await db.insert(webhookDeliveries).values({ ...key, state: 'pending', nextAttemptAt: now() })
  const result = await attemptDelivery(target, event, now())
  await new WebhookDeliverer({ db, now }, [target]).record(target, key, 1, result, { retry: false })
  return { eventId: event.id, result }
}
