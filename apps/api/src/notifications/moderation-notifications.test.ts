// Notifications of moderation (ADR 054, 055): a moderator's signed action, accepted by the moderation API (a
// real key authorised by the moderator's wallet, on a real chain and database: PGlite, or PostgreSQL under
// scripts/with-postgres.sh), is a `moderation.action` webhook signed per Standard Webhooks (verified with
// `standardwebhooks`), naming the action, its target and reason, and sent once.
import { Webhook } from 'standardwebhooks'
import { expect, test } from 'vitest'
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
import { ORIGIN } from '../../testbed/test-app.ts'
import { useWebhookReceiver, webhookJobFor } from '../../testbed/webhook-receiver.ts'
import type { WebhookPayload } from './webhook-request.ts'

useDiscussionBed({ MODERATORS: cleo.address })
const hooks = useWebhookReceiver()

test('behavior: a moderator’s hide is a signed moderation.action webhook naming the action, the comment, the reason and the moderator, sent once', async () => {
  const job = webhookJobFor(database.db, {
    name: 'mods',
    url: hooks.receiver.url,
    secret: hooks.secret,
    events: ['moderation.action'],
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
  await hooks.receiver.until((received) => received.length >= 1)
  const [request] = hooks.receiver.received
  if (!request) throw new Error('no delivery')
  new Webhook(hooks.secret).verify(request.body, request.headers as Record<string, string>)
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
  expect(hooks.receiver.received).toHaveLength(1)
})
