// The webhooks' settings (webhooks.ts, ADR 055): WEBHOOKS is checked at start with a message naming the
// webhook and field, and a secret never appears in a message or in the settings' printable form.
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

const SECRET = `whsec_${randomBytes(32).toString('base64')}`
const hook = (fields: Record<string, unknown>) => ({
  name: 'ops',
  url: 'https://hooks.example.org/guildhall',
  secret: SECRET,
  events: ['proposal.created'],
  ...fields,
})
const withHooks = (hooks: unknown) => ({ ...base, WEBHOOKS: JSON.stringify(hooks) })

test('WEBHOOKS: unset is none; a standard webhook signs with its secret, Discord and Slack take none; WEBHOOK_CLOSING_SOON_SECONDS defaults to a day', () => {
  expect(parseEnv(base).webhooks).toEqual({ targets: [], closingSoonSeconds: 86_400 })
  const { webhooks } = parseEnv({
    ...withHooks([
      hook({}),
      {
        name: 'discord',
        url: 'https://discord.com/api/webhooks/1/abc',
        preset: 'discord',
        events: ['proposal.started'],
      },
      {
        name: 'slack',
        url: 'https://hooks.slack.com/services/T/B/x',
        preset: 'slack',
        events: ['proposal.closed'],
      },
    ]),
    WEBHOOK_CLOSING_SOON_SECONDS: '3600',
  })
  expect(webhooks.closingSoonSeconds).toBe(3600)
  expect(webhooks.targets.map(({ name, preset, events }) => ({ name, preset, events }))).toEqual([
    { name: 'ops', preset: 'standard', events: ['proposal.created'] },
    { name: 'discord', preset: 'discord', events: ['proposal.started'] },
    { name: 'slack', preset: 'slack', events: ['proposal.closed'] },
  ])
  expect(typeof webhooks.targets[0]?.sign).toBe('function')
  expect(webhooks.targets[1]?.sign).toBeUndefined()
  // The secret is in no printable form of the settings.
  expect(JSON.stringify(webhooks)).not.toContain(SECRET.slice(6, 20))
})

test('WEBHOOKS: invalid JSON, a bad URL, preset, secret, event or a name given twice are refused naming the webhook and field, never quoting the secret', () => {
  const cases: [unknown, RegExp][] = [
    [[hook({ url: 'ftp://example.org' })], /WEBHOOKS\.0\.url: must be an http\(s\) URL/],
    [[hook({ url: 'https://user:pw@example.org' })], /WEBHOOKS\.0\.url: must not carry a user or password/],
    [[hook({ preset: 'teams' })], /WEBHOOKS\.0\.preset: must be one of standard, discord, slack/],
    [[hook({ secret: undefined })], /WEBHOOKS\.0\.secret: is required for the standard preset/],
    [
      [hook({ secret: 'whsec_c2hvcnQ=' })],
      /WEBHOOKS\.0\.secret: must be whsec_ followed by the base64 of 24 to 64/,
    ],
    [[hook({ preset: 'discord' })], /WEBHOOKS\.0\.secret: is for the standard preset only/],
    [[hook({ events: ['vote.cast'] })], /WEBHOOKS\.0\.events\.0: must be one of proposal\.created/],
    [[hook({ events: [] })], /WEBHOOKS\.0\.events: must name at least one event/],
    [[hook({}), hook({})], /WEBHOOKS\.1\.name: names ops twice/],
    [[hook({ name: 'Ops Team' })], /WEBHOOKS\.0\.name: must be 1 to 40 lowercase/],
    [[hook({ colour: 'red' })], /WEBHOOKS\.0: Unrecognized key: "colour"/],
    [{ name: 'ops' }, /WEBHOOKS: Invalid input: expected array/],
  ]
  for (const [hooks, message] of cases) {
    const error = envError(withHooks(hooks))
    expect(error.message, JSON.stringify(hooks)).toMatch(message)
    expect(error.message).not.toContain(SECRET.slice(6))
  }
  const broken = envError({ ...base, WEBHOOKS: `[{"name":"ops","secret":"${SECRET}",}]` })
  expect(broken.message).toMatch(
    /WEBHOOKS: must be a JSON array of webhooks; it is not valid JSON \(at character \d+\)/,
  )
  expect(broken.message).not.toContain(SECRET.slice(6))
  expect(envError({ ...base, WEBHOOK_CLOSING_SOON_SECONDS: '59' }).message).toMatch(
    /WEBHOOK_CLOSING_SOON_SECONDS/,
  )
})
