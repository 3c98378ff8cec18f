// Turns what happened into webhook events (ADR 055), each stored once under an id derived from what it is
// about, and queued as a delivery to every webhook that asked for its type:
// - the governance log, read from a cursor (`<seq>:<type>`): a new proposal, a new comment, a moderator's action,
//   a Safe owner's signature;
// - the clock (`<proposal id>:<type>`): a vote opened, closes within WEBHOOK_CLOSING_SOON_SECONDS, closed;
// - the chain (`<safeTxHash>:execution.executed`): a queued Safe transaction the Safe executed.
// The leader derives them; the cursor moves in the transaction that stores the events, and an event that is
// already stored is not stored again, so a restart, a new leader or two leaders at once lose none and send
// none twice from here (a delivery itself is at least once: webhook-deliverer.ts).
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import type { Db, Tx } from '../platform/db/client.ts'
import {
  comments,
  discussionMessages,
  governanceLog,
  proposals,
  safeExecutions,
  safeSignatures,
  threads,
  topics,
  webhookCursor,
  webhookDeliveries,
  webhookEvents,
} from '../platform/db/schema.ts'
import type { WebhookEventType, WebhookTarget } from '../settings/webhooks.ts'
import type { WebhookEvent } from './webhook-request.ts'

/** Log entries read per pass. */
const LOG_BATCH = 500
/** Clock events of one kind derived per pass. */
const CLOCK_BATCH = 100
/**
 * How far back events are derived: a log entry written, or a vote that opened or closed, longer ago when first
 * seen is history (webhooks set after a long time without them send no backlog; the window also bounds the
 * clock's scan, which would otherwise cover every proposal since webhooks began).
 */
const LOOKBACK_SECONDS = 7 * 24 * 60 * 60

export type EventSources = {
  db: Db
  /** The origin pages are linked at (PUBLIC_ORIGIN). */
  origin: string
  closingSoonSeconds: number
  now: () => Date
}

/** One pass: every new event stored and queued; returns how many were stored (0: nothing new). */
export async function deriveEvents(
  sources: EventSources,
  targets: readonly WebhookTarget[],
): Promise<{ stored: number; more: boolean }> {
  return sources.db.transaction(async (tx) => {
    // One deriver at a time: the row lock makes a second leader (a lingering old one) wait, then see the moved cursor.
    const [cursor] = await tx.select().from(webhookCursor).where(eq(webhookCursor.id, 1)).for('update')
    if (!cursor) throw new Error('webhook_cursor has no row: the migration inserts it')
    const now = sources.now()
    const fromLog = await logEvents(
      tx,
      sources,
      cursor.logSeq,
      new Date(now.getTime() - LOOKBACK_SECONDS * 1000),
    )
    const lower = Math.max(
      Math.floor(cursor.clockSince.getTime() / 1000),
      Math.floor(now.getTime() / 1000) - LOOKBACK_SECONDS,
    )
    const fromClock = await clockEvents(tx, sources, lower, Math.floor(now.getTime() / 1000))
    const fromChain = await executedEvents(tx, sources, cursor.clockSince)
    const events = [...fromLog.events, ...fromClock, ...fromChain]
    const stored = await storeEvents(tx, events, targets, now)
    if (fromLog.lastSeq > cursor.logSeq)
      await tx.update(webhookCursor).set({ logSeq: fromLog.lastSeq }).where(eq(webhookCursor.id, 1))
    return { stored, more: fromLog.more || fromClock.length >= CLOCK_BATCH }
  })
}

/** Stores `events` not stored before and queues each new one for the targets that asked for its type. */
export async function storeEvents(
  tx: Tx | Db,
  events: WebhookEvent[],
  targets: readonly WebhookTarget[],
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0
  const inserted = await tx
    .insert(webhookEvents)
    .values(events.map((event) => ({ id: event.id, type: event.payload.type, payload: event.payload })))
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id, type: webhookEvents.type })
  const deliveries = inserted.flatMap((event) =>
    targets
      .filter((target) => target.events.includes(event.type as WebhookEventType))
      .map((target) => ({
        webhook: target.name,
        eventId: event.id,
        state: 'pending' as const,
        nextAttemptAt: now,
      })),
  )
  if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries).onConflictDoNothing()
  return inserted.length
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
const titleOf = sql<string>`${proposals.message}->>'title'`

/** Events of the log entries after `afterSeq`; entries of other kinds (votes, statements, …) have none. */
async function logEvents(
  tx: Tx,
  { origin }: EventSources,
  afterSeq: number,
  since: Date,
): Promise<{ events: WebhookEvent[]; lastSeq: number; more: boolean }> {
  const entries = await tx
    .select({
      seq: governanceLog.seq,
      kind: governanceLog.kind,
      messageId: governanceLog.messageId,
      createdAt: governanceLog.createdAt,
    })
    .from(governanceLog)
    .where(gt(governanceLog.seq, afterSeq))
    .orderBy(asc(governanceLog.seq))
    .limit(LOG_BATCH)
  const events: WebhookEvent[] = []
  const seqsOf = (kind: string) => entries.filter((entry) => entry.kind === kind && entry.createdAt >= since)
  const created = seqsOf('proposal')
  if (created.length > 0) {
    const rows = await tx
      .select({
        id: proposals.id,
        title: titleOf,
        author: proposals.author,
        start: proposals.start,
        end: proposals.end,
      })
      .from(proposals)
      .where(
        inArray(
          proposals.id,
          created.map((entry) => entry.messageId),
        ),
      )
    const byId = new Map(rows.map((row) => [row.id, row]))
    for (const entry of created) {
      const proposal = byId.get(entry.messageId)
      if (!proposal) continue
      events.push({
        id: `${entry.seq}:proposal.created`,
        payload: {
          type: 'proposal.created',
          timestamp: entry.createdAt.toISOString(),
          data: {
            proposalId: proposal.id,
            title: proposal.title,
            author: proposal.author,
            start: iso(proposal.start),
            end: iso(proposal.end),
            logSeq: entry.seq,
            url: proposalUrl(origin, proposal.id),
          },
        },
      })
    }
  }
  const signed = seqsOf('safe-signature')
  if (signed.length > 0) {
    const rows = await tx
      .select({
        logSeq: safeSignatures.logSeq,
        safeTxHash: safeSignatures.safeTxHash,
        owner: safeSignatures.owner,
        proposalId: safeExecutions.proposalId,
        title: titleOf,
      })
      .from(safeSignatures)
      .innerJoin(safeExecutions, eq(safeExecutions.safeTxHash, safeSignatures.safeTxHash))
      .innerJoin(proposals, eq(proposals.id, safeExecutions.proposalId))
      .where(
        inArray(
          safeSignatures.logSeq,
          signed.map((entry) => entry.seq),
        ),
      )
    const bySeq = new Map(rows.map((row) => [row.logSeq, row]))
    for (const entry of signed) {
      const signature = bySeq.get(entry.seq)
      if (!signature) continue
      events.push({
        id: `${entry.seq}:execution.signed`,
        payload: {
          type: 'execution.signed',
          timestamp: entry.createdAt.toISOString(),
          data: {
            proposalId: signature.proposalId,
            safeTxHash: signature.safeTxHash,
            owner: signature.owner,
            title: signature.title,
            logSeq: entry.seq,
            url: proposalUrl(origin, signature.proposalId),
          },
        },
      })
    }
  }
  events.push(...(await discussionEvents(tx, origin, [...seqsOf('comment'), ...seqsOf('moderation')])))
  const last = entries.at(-1)
  return { events, lastSeq: last?.seq ?? afterSeq, more: entries.length === LOG_BATCH }
}

/**
 * A new comment (not an edit: a comment's id is its first version's) and a moderator's action, each with its
 * thread: a proposal's (its page) or a topic's (`/discussions/<id>`). No comment text: it may be hidden or taken
 * down after it is sent, and a receiver can read it on the page.
 */
async function discussionEvents(
  tx: Tx,
  origin: string,
  entries: { seq: number; kind: string; createdAt: Date }[],
): Promise<WebhookEvent[]> {
  if (entries.length === 0) return []
  const rows = await tx
    .select({
      logSeq: discussionMessages.logSeq,
      id: discussionMessages.id,
      author: discussionMessages.author,
      threadId: discussionMessages.threadId,
      message: discussionMessages.message,
      topicId: threads.topicId,
      topicTitle: topics.title,
      proposalId: proposals.id,
      proposalTitle: titleOf,
      isNewComment: sql<boolean>`exists (select 1 from ${comments} where ${comments.id} = ${discussionMessages.id})`,
    })
    .from(discussionMessages)
    .leftJoin(threads, eq(threads.id, discussionMessages.threadId))
    .leftJoin(topics, eq(topics.id, threads.topicId))
    // A proposal's thread id is the proposal's id.
    .leftJoin(proposals, eq(proposals.id, discussionMessages.threadId))
    .where(
      inArray(
        discussionMessages.logSeq,
        entries.map((entry) => entry.seq),
      ),
    )
  const bySeq = new Map(rows.map((row) => [row.logSeq, row]))
  const events: WebhookEvent[] = []
  for (const entry of entries) {
    const row = bySeq.get(entry.seq)
    if (!row?.threadId) continue
    const thread = row.proposalId
      ? { proposalId: row.proposalId, title: row.proposalTitle, url: proposalUrl(origin, row.proposalId) }
      : {
          topicId: row.topicId ?? row.threadId,
          title: row.topicTitle ?? '',
          url: `${origin}/discussions/${row.threadId}`,
        }
    const base = { threadId: row.threadId, ...thread, logSeq: entry.seq }
    if (entry.kind === 'comment' && row.isNewComment) {
      events.push({
        id: `${entry.seq}:comment.created`,
        payload: {
          type: 'comment.created',
          timestamp: entry.createdAt.toISOString(),
          data: { ...base, commentId: row.id, author: row.author },
        },
      })
    }
    if (entry.kind === 'moderation') {
      const { action, target, reason } = row.message as { action?: string; target?: string; reason?: string }
      events.push({
        id: `${entry.seq}:moderation.action`,
        payload: {
          type: 'moderation.action',
          timestamp: entry.createdAt.toISOString(),
          data: { ...base, moderator: row.author, action, target, reason },
        },
      })
    }
  }
  return events
}

/** Votes that opened, close within the "closing soon" time, or closed in (lower, now] (unix seconds). */
async function clockEvents(
  tx: Tx,
  { origin, closingSoonSeconds }: EventSources,
  lower: number,
  now: number,
): Promise<WebhookEvent[]> {
  const notYet = (type: WebhookEventType) =>
    sql`not exists (select 1 from ${webhookEvents} where ${webhookEvents.id} = ${proposals.id} || ${`:${type}`})`
  const moments: {
    type: WebhookEventType
    at: (p: { start: number; end: number }) => number
    where: ReturnType<typeof and>
  }[] = [
    {
      type: 'proposal.started',
      at: (p) => p.start,
      where: and(gt(proposals.start, lower), lte(proposals.start, now), notYet('proposal.started')),
    },
    {
      type: 'proposal.closing_soon',
      at: (p) => p.end - closingSoonSeconds,
      // Not for a vote that has not opened yet (shorter than the "closing soon" time) nor one already closed.
      where: and(
        gt(proposals.end, lower + closingSoonSeconds),
        lte(proposals.end, now + closingSoonSeconds),
        lte(proposals.start, now),
        gt(proposals.end, now),
        notYet('proposal.closing_soon'),
      ),
    },
    {
      type: 'proposal.closed',
      at: (p) => p.end,
      where: and(gt(proposals.end, lower), lte(proposals.end, now), notYet('proposal.closed')),
    },
  ]
  const events: WebhookEvent[] = []
  for (const moment of moments) {
    const rows = await tx
      .select({ id: proposals.id, title: titleOf, start: proposals.start, end: proposals.end })
      .from(proposals)
      .where(moment.where)
      .orderBy(asc(proposals.id))
      .limit(CLOCK_BATCH)
    for (const row of rows) {
      events.push({
        id: `${row.id}:${moment.type}`,
        payload: {
          type: moment.type,
          timestamp: iso(Math.max(Math.min(moment.at(row), now), row.start)),
          data: {
            proposalId: row.id,
            title: row.title,
            start: iso(row.start),
            end: iso(row.end),
            url: proposalUrl(origin, row.id),
          },
        },
      })
    }
  }
  return events
}

/** Safe transactions queued since webhooks began that the Safe has executed, not yet told. */
async function executedEvents(tx: Tx, { origin, now }: EventSources, since: Date): Promise<WebhookEvent[]> {
  const rows = await tx
    .select({
      safeTxHash: safeExecutions.safeTxHash,
      proposalId: safeExecutions.proposalId,
      transaction: safeExecutions.outcomeTransaction,
      at: safeExecutions.outcomeTimestamp,
      title: titleOf,
    })
    .from(safeExecutions)
    .innerJoin(proposals, eq(proposals.id, safeExecutions.proposalId))
    .where(
      and(
        eq(safeExecutions.state, 'executed'),
        gt(safeExecutions.queuedAt, since),
        sql`not exists (select 1 from ${webhookEvents} where ${webhookEvents.id} = ${safeExecutions.safeTxHash} || ':execution.executed')`,
      ),
    )
    .limit(CLOCK_BATCH)
  return rows.map((row) => ({
    id: `${row.safeTxHash}:execution.executed`,
    payload: {
      type: 'execution.executed',
      timestamp: row.at === null ? now().toISOString() : iso(row.at),
      data: {
        proposalId: row.proposalId,
        safeTxHash: row.safeTxHash,
        transaction: row.transaction,
        title: row.title,
        url: proposalUrl(origin, row.proposalId),
      },
    },
  }))
}

export const proposalUrl = (origin: string, id: string) => `${origin}/proposals/${id}`

/** The test event the operator sends with `npm run webhooks -- test <name>`. */
export function testEvent(origin: string, now: Date): WebhookEvent {
  return {
    id: `test:${now.getTime()}`,
    payload: {
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: { title: 'Webhook test: if you read this, the webhook works', url: `${origin}/` },
    },
  }
}
