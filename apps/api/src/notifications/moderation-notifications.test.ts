// Notifications of moderation (ADR 054, 055): a moderator's signed action, accepted by the moderation API (a
// real key authorised by the moderator's wallet, on a real chain and database: PGlite, or PostgreSQL under
// scripts/with-postgres.sh), is a `moderation.action` webhook signed per Standard Webhooks (verified with
// `standardwebhooks`), naming the action, its target and reason, and sent once.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  ada,
  authoriseKey,
  cleo,
  commentMessage,
  cookies,
  createTopic,
  database,
  post,
  postComment,
  signWith,
  useDiscussionBed,
} from '../../testbed/beds/discussion.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { ORIGIN, testSettings } from '../../testbed/test-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../testbed/webhook-receiver.ts'
import { WebhookJob } from './webhook-job.ts'
import type { WebhookPayload } from './webhook-request.ts'

useDiscussionBed({ MODERATORS: cleo.address })
const SECRET = `whsec_${randomBytes(32).toString('base64')}`
let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(async () => {
  await receiver?.close()
})

test('behavior: a moderator’s hide is a signed moderation.action webhook naming the action, the comment, the reason and the moderator, sent once', async () => {
  const { targets } = testSettings({
    env: {
      WEBHOOKS: JSON.stringify([
        { name: 'mods', url: receiver.url, secret: SECRET, events: ['moderation.action'] },
      ]),
    },
  }).webhooks
  const job = new WebhookJob({
    db: database.db,
    targets,
    origin: ORIGIN,
    closingSoonSeconds: 86_400,
    now: () => new Date(),
  })
  const { key: adaKey } = await authoriseKey(ada)
  const topic = await createTopic(adaKey, ada)
  const comment = await postComment(
    adaKey,
    ada,
    commentMessage(ada.address, topic, { body: 'Buy cheap tokens!' }),
  )
  expect(comment.response.statusCode, comment.response.body).toBe(201)
  const { key: cleoKey } = await authoriseKey(cleo, { scopes: ['comment', 'moderate'] })
  const hide = await signWith(cleoKey, 'moderation', {
    moderator: cleo.address,
    target: comment.id,
    action: 'hide',
    reason: 'Spam: an advertisement',
    timestamp: nowSeconds(),
  })
  const hidden = await post(
    '/api/moderation',
    { message: hide.message, signature: hide.signature },
    cookies.get(cleo.address),
  )
  expect(hidden.statusCode, hidden.body).toBe(201)

  await job.pass()
  await receiver.until((received) => received.length >= 1)
  const [request] = receiver.received
  if (!request) throw new Error('no delivery')
  new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)
  const payload = JSON.parse(request.body) as WebhookPayload
  expect(payload).toMatchObject({
    type: 'moderation.action',
    data: {
      threadId: topic,
      moderator: cleo.address,
      action: 'hide',
      target: comment.id,
      reason: 'Spam: an advertisement',
      url: `${ORIGIN}/discussions/${topic}`,
    },
  })
  await job.pass()
  expect(receiver.received).toHaveLength(1)
})
