// The variables of outgoing webhooks (ADR 055): the operator's targets, each with a preset (Standard Webhooks
// signed with its secret, or a Discord or Slack incoming webhook, whose URL is its own secret) and the events it
// wants, and how long before a vote closes "closing soon" is sent. Only the operator names targets: members
// cannot register a URL, so the server never calls an address a visitor chose.
import { createHmac } from 'node:crypto'
import { z } from 'zod'

/** Every event a webhook may ask for; `webhook.test` is sent by `npm run webhooks -- test <name>` only. */
const WEBHOOK_EVENT_TYPES = [
  'proposal.created',
  'proposal.started',
  'proposal.closing_soon',
  'proposal.closed',
  'comment.created',
  'moderation.action',
  'execution.signed',
  'execution.executed',
  'webhook.test',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

const WEBHOOK_PRESETS = ['standard', 'discord', 'slack'] as const
type WebhookPreset = (typeof WEBHOOK_PRESETS)[number]

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
const SECRET_PATTERN = /^whsec_([A-Za-z0-9+/]+={0,2})$/
const SECRET_MESSAGE = 'must be whsec_ followed by the base64 of 24 to 64 random bytes'

const secretSchema = z.string().transform((value, context) => {
  const base64 = SECRET_PATTERN.exec(value)?.[1]
  const key = base64 === undefined ? undefined : Buffer.from(base64, 'base64')
  // Never the value in the message: the settings' problems are printed and logged.
  if (!key || key.length < 24 || key.length > 64 || key.toString('base64') !== base64) {
    context.addIssue({ code: 'custom', message: SECRET_MESSAGE })
    return z.NEVER
  }
  return key
})

const webhookSchema = z
  .strictObject({
    name: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9_-]{0,39}$/,
        'must be 1 to 40 lowercase letters, digits, - or _ (the CLI names it)',
      ),
    url: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
      .refine((url) => !new URL(url).username && !new URL(url).password, 'must not carry a user or password'),
    preset: z.enum(WEBHOOK_PRESETS, `must be one of ${WEBHOOK_PRESETS.join(', ')}`).default('standard'),
    secret: secretSchema.optional(),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`))
      .min(1, 'must name at least one event'),
  })
  .superRefine((webhook, context) => {
    if (webhook.preset === 'standard' && !webhook.secret)
      context.addIssue({
        code: 'custom',
        path: ['secret'],
        message: `is required for the standard preset (${SECRET_MESSAGE})`,
      })
    if (webhook.preset !== 'standard' && webhook.secret)
      context.addIssue({
        code: 'custom',
        path: ['secret'],
        message: `is for the standard preset only: a ${webhook.preset} webhook's URL is its secret`,
      })
  })

const webhooksSchema = z.array(webhookSchema).superRefine((webhooks, context) => {
  const seen = new Set<string>()
  webhooks.forEach((webhook, index) => {
    if (seen.has(webhook.name))
      context.addIssue({ code: 'custom', path: [index, 'name'], message: `names ${webhook.name} twice` })
    seen.add(webhook.name)
  })
})

const DAY_SECONDS = 24 * 60 * 60

export const webhookVariables = z.object({
  /** A JSON array of `{ name, url, preset?, secret?, events }`; empty or unset: no webhooks. */
  WEBHOOKS: z
    .string()
    .default('')
    .transform((value, context): unknown => {
      if (value.trim() === '') return []
      try {
        return JSON.parse(value)
      } catch (error) {
        // JSON.parse's own message quotes the text around the error, which may be a secret.
        const position = /position (\d+)/.exec(String(error))?.[1]
        context.addIssue({
          code: 'custom',
          message: `must be a JSON array of webhooks; it is not valid JSON${position ? ` (at character ${position})` : ''}`,
        })
        return z.NEVER
      }
    })
    .pipe(webhooksSchema),
  /** How long before a vote closes the `proposal.closing_soon` event is sent. */
  WEBHOOK_CLOSING_SOON_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * DAY_SECONDS)
    .default(DAY_SECONDS),
})

export interface WebhookTarget {
  name: string
  url: string
  preset: WebhookPreset
  /**
   * Base64 HMAC-SHA256 of `content` under the secret (standard preset only). A function, so the secret is in
   * no object a log line or an answer could print.
   */
  sign: ((content: string) => string) | undefined
  events: WebhookEventType[]
}

export interface WebhookSettings {
  targets: WebhookTarget[]
  closingSoonSeconds: number
}

/** The webhooks of a valid environment. */
export function webhookSettings(e: z.output<typeof webhookVariables>): WebhookSettings {
  return {
    targets: e.WEBHOOKS.map(({ name, url, preset, secret, events }) => ({
      name,
      url,
      preset,
      sign: secret && ((content: string) => createHmac('sha256', secret).update(content).digest('base64')),
      events: [...new Set(events)],
    })),
    closingSoonSeconds: e.WEBHOOK_CLOSING_SOON_SECONDS,
  }
}
