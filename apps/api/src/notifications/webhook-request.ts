// What one delivery sends (ADR 055): the standard preset's JSON signed per the Standard Webhooks specification,
// or a Discord or Slack message built from it, in which nothing a member wrote (a title) can mention everyone.
import type { WebhookEventType, WebhookTarget } from '../settings/webhooks.ts'

/** The standard preset's body: what happened, when, and its ids, title and page. */
export type WebhookPayload = {
  type: WebhookEventType
  /** ISO 8601, when the event happened. */
  timestamp: string
  data: { title?: string; url: string } & Record<string, unknown>
}

export type WebhookEvent = { id: string; payload: WebhookPayload }

/** Discord refuses a message whose content is longer. */
export const DISCORD_CONTENT_MAX = 2000

const LABELS: Record<WebhookEventType, string> = {
  'proposal.created': 'New proposal',
  'proposal.started': 'Voting opened',
  'proposal.closing_soon': 'Voting closes soon',
  'proposal.closed': 'Voting closed',
  'comment.created': 'New comment',
  'moderation.action': 'Moderation',
  'execution.signed': 'Execution signed',
  'execution.executed': 'Executed',
  'webhook.test': 'Test from Guildhall',
}

/** The request for `event` to `target`, signed at `now` (each attempt signs anew: receivers check the time). */
export function webhookRequest(
  target: WebhookTarget,
  event: WebhookEvent,
  now: Date,
): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    // The same on every attempt, so a receiver can drop a repeat (delivery is at least once).
    'webhook-id': event.id,
  }
  if (target.preset === 'discord') return { body: JSON.stringify(discordMessage(event.payload)), headers }
  if (target.preset === 'slack') return { body: JSON.stringify(slackMessage(event.payload)), headers }
  const body = JSON.stringify(event.payload)
  const timestamp = String(Math.floor(now.getTime() / 1000))
  const sign = target.sign as NonNullable<WebhookTarget['sign']>
  return {
    body,
    headers: {
      ...headers,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${sign(`${event.id}.${timestamp}.${body}`)}`,
    },
  }
}

/**
 * Discord: no mention of any kind is parsed (`allowed_mentions.parse` empty), and an `@` in a title is
 * followed by a zero-width space as well, so `@everyone` reads as text even where a client renders it.
 */
export function discordMessage(payload: WebhookPayload): {
  content: string
  allowed_mentions: { parse: [] }
} {
  const title = payload.data.title === undefined ? '' : `: ${payload.data.title.replaceAll('@', '@\u200b')}`
  const link = `\n${payload.data.url}`
  const head = `**${LABELS[payload.type]}**${title}`
  const room = DISCORD_CONTENT_MAX - link.length
  const content = `${head.length > room ? `${head.slice(0, room - 1)}…` : head}${link}`
  return { content, allowed_mentions: { parse: [] } }
}

/** Slack: `&`, `<` and `>` escaped as Slack asks, so a title cannot write `<!channel>` or a link of its own. */
export function slackMessage(payload: WebhookPayload): { text: string } {
  const escaped = (text: string) =>
    text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
  const link = `<${payload.data.url}|${payload.data.title === undefined ? 'Open' : escaped(payload.data.title)}>`
  return { text: `*${LABELS[payload.type]}*: ${link}` }
}
