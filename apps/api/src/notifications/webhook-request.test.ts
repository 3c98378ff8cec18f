// What a delivery sends (webhook-request.ts, ADR 055): the standard preset signed so that an independent
// Standard Webhooks implementation (the `standardwebhooks` package) verifies it, and the Discord and Slack
// presets, in which no title can mention everyone.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { expect, test } from 'vitest'
import { parseEnv } from '../settings/env.ts'
import { base } from '../settings/env-test-helpers.ts'
import type { WebhookTarget } from '../settings/webhooks.ts'
import {
  DISCORD_CONTENT_MAX,
  discordMessage,
  slackMessage,
  type WebhookEvent,
  webhookRequest,
} from './webhook-request.ts'

const SECRET = `whsec_${randomBytes(32).toString('base64')}`

function target(fields: Record<string, unknown>): WebhookTarget {
  const hook = { name: 'hook', url: 'https://hooks.example.org/x', events: ['proposal.created'], ...fields }
  const [parsed] = parseEnv({ ...base, WEBHOOKS: JSON.stringify([hook]) }).webhooks.targets
  return parsed as WebhookTarget
}

const event = (title: string): WebhookEvent => ({
  id: '12:proposal.created',
  payload: {
    type: 'proposal.created',
    timestamp: '2026-11-27T12:00:00.000Z',
    data: {
      proposalId: `0x${'ab'.repeat(32)}`,
      title,
      url: `https://dao.example.org/proposals/0x${'ab'.repeat(32)}`,
    },
  },
})

test('standard preset: webhook-id, webhook-timestamp and webhook-signature (v1, HMAC-SHA256 of id.timestamp.body) verify with the standardwebhooks package; another secret, a changed body or an old timestamp do not', () => {
  const now = new Date()
  const { body, headers } = webhookRequest(target({ secret: SECRET }), event('Repair the roof'), now)
  expect(headers['webhook-id']).toBe('12:proposal.created')
  expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)))
  expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
  expect(new Webhook(SECRET).verify(body, headers)).toEqual(event('Repair the roof').payload)
  const other = `whsec_${randomBytes(32).toString('base64')}`
  expect(() => new Webhook(other).verify(body, headers)).toThrow('No matching signature found')
  expect(() => new Webhook(SECRET).verify(body.replace('Repair', 'Burn'), headers)).toThrow(
    'No matching signature found',
  )
  const old = webhookRequest(target({ secret: SECRET }), event('x'), new Date(now.getTime() - 10 * 60_000))
  expect(() => new Webhook(SECRET).verify(old.body, old.headers)).toThrow('Message timestamp too old')
  // The signature is the package's own for the same id, time and body.
  expect(headers['webhook-signature']).toBe(new Webhook(SECRET).sign('12:proposal.created', now, body))
})

test('Discord preset: no mention is parsed (allowed_mentions.parse empty), @everyone, @here and role mentions in a title are broken with a zero-width space, content stays within 2000 characters; no signature headers (the URL is the secret)', () => {
  const hostile = '@everyone @here <@&123456> <@789> vote now'
  const { body, headers } = webhookRequest(
    target({ preset: 'discord', url: 'https://discord.com/api/webhooks/1/t' }),
    event(hostile),
    new Date(),
  )
  const message = JSON.parse(body) as { content: string; allowed_mentions: { parse: unknown[] } }
  expect(message.allowed_mentions).toEqual({ parse: [] })
  expect(message.content).not.toMatch(/@(everyone|here)|<@&?\d/)
  expect(message.content).toBe(
    '**New proposal**: @\u200beveryone @\u200bhere <@\u200b&123456> <@\u200b789> vote now\nhttps://dao.example.org/proposals/0x' +
      'ab'.repeat(32),
  )
  expect(headers['webhook-signature']).toBeUndefined()
  const long = discordMessage(event('@everyone '.repeat(400)).payload)
  expect(long.content.length).toBeLessThanOrEqual(DISCORD_CONTENT_MAX)
  expect(long.content.endsWith(`…\n${event('').payload.data.url}`)).toBe(true)
  expect(long.content).not.toMatch(/@everyone/)
})

test('Slack preset: {text} with &, < and > escaped, so a title cannot write <!channel>, <!here> or a link of its own', () => {
  expect(slackMessage(event('<!channel> & <https://evil.example|click> >').payload)).toEqual({
    text: `*New proposal*: <https://dao.example.org/proposals/0x${'ab'.repeat(32)}|&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt; &gt;>`,
  })
})
