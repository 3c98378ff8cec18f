// Outgoing webhooks end to end (ADR 055): proposals signed by demo members and accepted by the API on a real
// chain (anvil) and database (PGlite, or PostgreSQL under scripts/with-postgres.sh), delivered by the leader's
// job to a real HTTP receiver on 127.0.0.1, their signatures checked with the `standardwebhooks` package.
// The retry schedule is driven by the job's clock, one pass at a time, so no test waits out a backoff.
import { randomBytes } from 'node:crypto'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { and, eq, like } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { demoDomain, member, nowSeconds, type ProposalFields, signProposal } from '../../testbed/signers.ts'
import { ORIGIN, postJson, startTestbed, stopTestbed, testApp, testSettings } from '../../testbed/test-app.ts'
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../testbed/webhook-receiver.ts'
import { webhookDeliveries, webhookEvents } from '../platform/db/schema.ts'
import type { TestDatabase } from '../platform/db/test-database.ts'
import type { WebhookEventType } from '../settings/webhooks.ts'
import { WebhookJob } from './webhook-job.ts'
import type { WebhookPayload } from './webhook-request.ts'

vi.setConfig({ testTimeout: 60_000 })
const ada = member(1)
const SECRET = `whsec_${randomBytes(32).toString('base64')}`

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let snapshot: number
let domain: ReturnType<typeof demoDomain>
/**
 * Where proposals are posted: the running app (the webhooks' own, which leads: on PostgreSQL the first app on
 * the database takes the leader lock, so no other app may be running), or one without webhooks.
 */
let poster: FastifyInstance | undefined
let receiver: WebhookReceiver
/** The apps a test starts, closed after it: two jobs at once on one database would share out the events. */
const running: FastifyInstance[] = []

beforeAll(async () => {
  ;({ anvil, deployment, database } = await startTestbed())
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  domain = demoDomain(deployment)
  receiver = await startWebhookReceiver()
}, 60_000)

afterEach(async () => {
  await closeApps()
  receiver.answer = () => 200
})

async function closeApps() {
  for (const app of running.splice(0)) await app.close()
  poster = undefined
}

/** An app without webhooks to post proposals with. */
async function plainApp() {
  poster = await testApp({ anvil, deployment, database }, { env: { SIGN_IN: 'off' } })
  running.push(poster)
}

afterAll(async () => {
  await receiver?.close()
  await stopTestbed({ anvil, database })
})

type Hook = { name: string; preset?: string; events: WebhookEventType[] }
const webhooksEnv = (...hooks: Hook[]) =>
  JSON.stringify(
    hooks.map((hook) => ({
      url: `${receiver.url}/${hook.name}`,
      ...((hook.preset ?? 'standard') === 'standard' ? { secret: SECRET } : {}),
      ...hook,
    })),
  )

async function webhookApp(
  hooks: Hook[],
  { now, env = {} }: { now?: () => Date; env?: Record<string, string> } = {},
) {
  const app = await testApp(
    { anvil, deployment, database },
    { env: { SIGN_IN: 'off', WEBHOOKS: webhooksEnv(...hooks), ...env }, ...(now ? { now } : {}) },
  )
  running.push(app)
  poster = app
  return app
}

async function createProposal(fields: Partial<ProposalFields> = {}): Promise<Hex> {
  const { message, signature, id } = await signProposal(ada, domain, { snapshot, ...fields })
  const response = await postJson(poster as FastifyInstance, '/api/proposals', { message, signature })
  expect(response.statusCode, response.body).toBe(201)
  return id
}

const payloadOf = (request: ReceivedWebhook) => JSON.parse(request.body) as WebhookPayload
/** The requests to webhook `name` about proposal `id`. */
const about = (received: ReceivedWebhook[], name: string, id: Hex, type?: WebhookEventType) =>
  received.filter(
    (request) =>
      request.path === `/hook/${name}` &&
      payloadOf(request).data.proposalId === id &&
      (type === undefined || payloadOf(request).type === type),
  )
const deliveriesOf = (name: string) =>
  database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhook, name))

test('a new proposal is sent to the webhook by the leader, signed per Standard Webhooks: the standardwebhooks package verifies it, and the payload names it, its title and its page', async () => {
  await webhookApp([{ name: 'signed', events: ['proposal.created'] }])
  const id = await createProposal({ title: 'Paint the <hall> & "doors"' })
  await receiver.until((received) => about(received, 'signed', id).length === 1)
  const [request] = about(receiver.received, 'signed', id) as [ReceivedWebhook]
  const verified = new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)
  expect(verified).toMatchObject({
    type: 'proposal.created',
    data: {
      proposalId: id,
      title: 'Paint the <hall> & "doors"',
      author: ada.address,
      url: `${ORIGIN}/proposals/${id}`,
    },
  })
  expect(request.headers['webhook-id']).toMatch(/^\d+:proposal\.created$/)
  expect(request.headers['content-type']).toBe('application/json')
  // Marked once its answer is in (just after the receiver has it).
  await expect
    .poll(async () =>
      (await deliveriesOf('signed')).filter((row) => row.eventId === request.headers['webhook-id']),
    )
    .toMatchObject([{ state: 'delivered', attempts: 1, lastStatus: 200, lastError: null }])
})

test('retries: a 500 is tried again after 10 s, then 20 s, and delivered; 6 failures give up (10, 20, 40, 80, 160 s apart); a 429 waits its retry_after; a 410 disables the webhook, whose later events are not sent', async () => {
  const hooks: Hook[] = ['flaky', 'down', 'limited', 'gone'].map((name) => ({
    name,
    events: ['proposal.created'],
  }))
  const { targets } = testSettings({ env: { WEBHOOKS: webhooksEnv(...hooks) } }).webhooks
  let clock = Date.now()
  const job = new WebhookJob({
    db: database.db,
    targets,
    origin: ORIGIN,
    closingSoonSeconds: 86_400,
    now: () => new Date(clock),
  })
  await plainApp()
  const sentBefore = (request: ReceivedWebhook, name: string) =>
    about(receiver.received, name, payloadOf(request).data.proposalId as Hex).length
  receiver.answer = (request) => {
    if (request.path.endsWith('/flaky')) return sentBefore(request, 'flaky') <= 2 ? 500 : 200
    if (request.path.endsWith('/down')) return 500
    if (request.path.endsWith('/gone')) return 410
    const limited = about(receiver.received, 'limited', payloadOf(request).data.proposalId as Hex).length
    return limited === 1
      ? { status: 429, json: { message: 'You are being rate limited.', retry_after: 2.5 } }
      : 204
  }
  const id = await createProposal({ title: 'Retry me' })
  const count = (name: string) => about(receiver.received, name, id).length
  const row = async (name: string) => {
    const rows = await database.db
      .select()
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.webhook, name), eq(webhookEvents.type, 'proposal.created')))
    const found = rows.find((r) => (r.webhook_events.payload as WebhookPayload).data.proposalId === id)
    return found?.webhook_deliveries
  }
  const start = clock
  const at = async (seconds: number) => {
    clock = start + seconds * 1000
    await job.pass()
  }
  await at(0)
  expect([count('flaky'), count('down'), count('limited'), count('gone')]).toEqual([1, 1, 1, 1])
  expect(await row('flaky')).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 })
  expect((await row('flaky'))?.nextAttemptAt.getTime()).toBe(start + 10_000)
  expect((await row('limited'))?.nextAttemptAt.getTime()).toBe(start + 2_500)
  expect(await row('gone')).toMatchObject({ state: 'failed', attempts: 1, lastStatus: 410 })

  await at(2.4)
  expect(count('limited')).toBe(1)
  await at(2.5)
  expect(count('limited')).toBe(2)
  expect(await row('limited')).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 204 })

  await at(9.999)
  expect([count('flaky'), count('down')]).toEqual([1, 1])
  await at(10)
  expect([count('flaky'), count('down')]).toEqual([2, 2])
  expect((await row('flaky'))?.nextAttemptAt.getTime()).toBe(start + 30_000)
  await at(30)
  expect(await row('flaky')).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200 })
  // Every attempt carried the same id, each signed at its own time.
  const flaky = about(receiver.received, 'flaky', id)
  expect(new Set(flaky.map((request) => request.headers['webhook-id'])).size).toBe(1)
  for (const request of flaky)
    new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)

  for (const [seconds, attempts] of [
    [70, 4],
    [150, 5],
    [309, 5],
    [310, 6],
  ] as const) {
    await at(seconds)
    expect(count('down'), `at ${seconds} s`).toBe(attempts)
  }
  expect(await row('down')).toMatchObject({ state: 'failed', attempts: 6, lastStatus: 500 })
  await at(10_000)
  expect(count('down')).toBe(6)

  // The disabled webhook: a later event is recorded as not sent, and nothing reaches its URL.
  const later = await createProposal({ title: 'After the 410' })
  await at(10_001)
  expect(about(receiver.received, 'gone', later)).toEqual([])
  expect(about(receiver.received, 'flaky', later)).toHaveLength(1)
  const goneRows = await deliveriesOf('gone')
  expect(goneRows.filter((r) => r.state === 'failed').map((r) => r.lastError)).toContain(
    'the webhook is disabled: its URL answered 410 Gone',
  )
})

test('a restart (a new app on the same database) sends what was pending and what was logged while it was down, and does not send again what was delivered', async () => {
  const hook: Hook = { name: 'restart', events: ['proposal.created'] }
  await webhookApp([hook])
  const delivered = await createProposal({ title: 'Delivered before the restart' })
  await receiver.until((received) => about(received, 'restart', delivered).length === 1)
  receiver.answer = () => 500
  const pending = await createProposal({ title: 'Pending at the restart' })
  await receiver.until((received) => about(received, 'restart', pending).length === 1)
  await closeApps()
  await plainApp()
  const whileDown = await createProposal({ title: 'Logged while no webhook job ran' })
  await closeApps()
  receiver.answer = () => 200
  // A minute on: the pending delivery's retry (10 s after its first attempt) is due at once.
  await webhookApp([hook], { now: () => new Date(Date.now() + 60_000) })
  await receiver.until(
    (received) =>
      about(received, 'restart', pending).length === 2 && about(received, 'restart', whileDown).length === 1,
  )
  expect(about(receiver.received, 'restart', delivered)).toHaveLength(1)
  await expect
    .poll(async () => (await deliveriesOf('restart')).map((r) => r.state))
    .toEqual(['delivered', 'delivered', 'delivered'])
  for (const request of about(receiver.received, 'restart', whileDown))
    new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)
})

test('clock events: "voting opened", "closes soon" (WEBHOOK_CLOSING_SOON_SECONDS before the end) and "closed" are each sent once per proposal, when the clock reaches them', async () => {
  let shift = 0
  await webhookApp(
    [{ name: 'clock', events: ['proposal.started', 'proposal.closing_soon', 'proposal.closed'] }],
    {
      now: () => new Date(Date.now() + shift),
      env: { WEBHOOK_CLOSING_SOON_SECONDS: '600' },
    },
  )
  const start = nowSeconds() + 30
  const id = await createProposal({ title: 'On the clock', start, end: start + 3600 })
  const typesSent = () => about(receiver.received, 'clock', id).map((request) => payloadOf(request).type)
  const jumpTo = (seconds: number) => {
    shift = seconds * 1000 - Date.now()
  }
  jumpTo(start + 5)
  await receiver.until(() => typesSent().length === 1)
  expect(typesSent()).toEqual(['proposal.started'])
  jumpTo(start + 3600 - 590)
  await receiver.until(() => typesSent().length === 2)
  jumpTo(start + 3605)
  await receiver.until(() => typesSent().length === 3)
  expect(typesSent()).toEqual(['proposal.started', 'proposal.closing_soon', 'proposal.closed'])
  expect(
    payloadOf(about(receiver.received, 'clock', id, 'proposal.closed')[0] as ReceivedWebhook),
  ).toMatchObject({
    timestamp: new Date((start + 3600) * 1000).toISOString(),
    data: { proposalId: id, title: 'On the clock', end: new Date((start + 3600) * 1000).toISOString() },
  })
  // Stored once each, whatever number of passes saw them due.
  const stored = await database.db
    .select()
    .from(webhookEvents)
    .where(like(webhookEvents.id, `${id}:%`))
  expect(stored.map((event) => event.id).sort()).toEqual(
    [`${id}:proposal.closed`, `${id}:proposal.closing_soon`, `${id}:proposal.started`].sort(),
  )
})
