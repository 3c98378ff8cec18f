// Webhooks across a leader change (ADR 055): two API processes on one PostgreSQL database, one webhook to a
// real receiver on 127.0.0.1 that answers slowly, so deliveries are in flight when the leader is SIGKILLed.
// The other instance takes the leader lock and sends what was left: every event arrives at least once, none
// is lost, and a repeat (sent by the dead leader, its answer never recorded) carries the same webhook-id.
// PostgreSQL only (vitest.config.ts runs *.postgres.test.ts when TEST_DATABASE_URL is set).
import { randomBytes } from 'node:crypto'
import { governanceDomain, LOCAL_CHAIN_ID, signGovernanceMessage } from '@guildhall/core'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { createPublicClient, type Hex, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  type ApiProcess,
  leaderAmong,
  startApiProcess,
  stopApiProcess,
  stopApiProcesses,
  tokenIndexRole,
} from '../../testbed/api-process.ts'
import { member, proposalMessage } from '../../testbed/signers.ts'
import { startVoteChain } from '../../testbed/vote-burst.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../testbed/webhook-receiver.ts'
import { type DemoChain, testEnv } from '../demo/local-chain.ts'
import { webhookDeliveries } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import type { WebhookPayload } from './webhook-request.ts'

const SECRET = `whsec_${randomBytes(32).toString('base64')}`
const BEFORE_KILL = 6
const AFTER_KILL = 6
/** A standby tries the lock every 2 s: a few seconds to take over, and a few more to send. */
const TAKEOVER_MS = 20_000

let chain: DemoChain
let postgres: TestDatabase
let receiver: WebhookReceiver

beforeAll(async () => {
  chain = await startVoteChain()
  postgres = await testDatabase()
  receiver = await startWebhookReceiver()
}, 60_000)

afterAll(async () => {
  await stopApiProcesses()
  await receiver?.close()
  await chain?.anvil.stop()
  await postgres?.close()
}, 30_000)

test(`behavior: two instances, one PostgreSQL, a webhook answering in 400 ms: the leader SIGKILLed with deliveries in flight → the other leads and every one of ${BEFORE_KILL + AFTER_KILL} proposals' events arrives at least once, signed, none lost, any repeat under its first webhook-id`, async () => {
  const webhooks = JSON.stringify([
    { name: 'cluster', url: receiver.url, secret: SECRET, events: ['proposal.created'] },
  ])
  const apis = await Promise.all(
    [0, 1].map(() =>
      startApiProcess({
        ...testEnv(chain.anvil.url, chain.deployment),
        SIGN_IN: 'off',
        DATABASE_URL: postgres.url,
        GOVERNANCE_RATE_LIMIT_PER_MINUTE: '100000',
        WEBHOOKS: webhooks,
      }),
    ),
  )
  const leader = await leaderAmong(apis, TAKEOVER_MS)
  const survivor = apis.find((api) => api !== leader) as ApiProcess
  receiver.delayMs = 400

  const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: chain.deployment.token })
  const snapshot = Number(await createPublicClient({ transport: http(chain.anvil.url) }).getBlockNumber()) - 1
  const ids: Hex[] = []
  const propose = async (n: number) => {
    const author = member(1)
    const { message, signature, id } = await signGovernanceMessage(author, domain, {
      type: 'Proposal',
      message: proposalMessage(author, { snapshot, title: `Cluster ${n}` }),
    })
    const response = await fetch(`${survivor.origin}/api/proposals`, {
      method: 'POST',
      headers: { origin: survivor.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature }),
    })
    expect(response.status).toBe(201)
    ids.push(id)
  }
  for (let n = 0; n < BEFORE_KILL; n++) await propose(n)
  // Killed once the first delivery has reached the receiver: the others are queued or in flight.
  await receiver.until((received) => received.length >= 1)
  const killedAt = Date.now()
  await stopApiProcess(leader, 'SIGKILL')
  for (let n = BEFORE_KILL; n < BEFORE_KILL + AFTER_KILL; n++) await propose(n)

  const proposalOf = (body: string) => (JSON.parse(body) as WebhookPayload).data.proposalId
  await receiver.until(
    (received) => ids.every((id) => received.some((request) => proposalOf(request.body) === id)),
    TAKEOVER_MS + 30_000,
  )
  const allArrivedMs = Date.now() - killedAt
  expect(await tokenIndexRole(survivor)).toBe('leader')

  const byId = new Map<string, string[]>()
  for (const request of receiver.received) {
    new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)
    const webhookId = String(request.headers['webhook-id'])
    byId.set(webhookId, [...(byId.get(webhookId) ?? []), proposalOf(request.body) as string])
  }
  // One webhook-id per proposal, however often it was sent.
  expect([...byId.values()].map((proposals) => new Set(proposals).size)).toEqual(
    [...byId.values()].map(() => 1),
  )
  expect(new Set([...byId.values()].map((proposals) => proposals[0]))).toEqual(new Set(ids))
  await expect
    .poll(async () =>
      (
        await postgres.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhook, 'cluster'))
      ).map((row) => row.state),
    )
    .toEqual(ids.map(() => 'delivered'))
  const repeats = receiver.received.length - byId.size
  console.info(
    `webhooks across a leader change: ${ids.length} events, ${receiver.received.length} requests (${repeats} repeats), all arrived ${allArrivedMs} ms after the kill`,
  )
}, 120_000)
