// HTTP for threads and topics (ADR 053): validate strictly, call the service, map its answer. Every write
// is a signed-in member's (the session cookie), signed by their discussion key or, for a key, their wallet.

import { Readable } from 'node:stream'
import {
  commentMessageSchema,
  commentResponseSchema,
  commentVersionsSchema,
  DISCUSSION_LIMITS,
  discussionKeyListSchema,
  discussionKeyMessageSchema,
  discussionKeyResponseSchema,
  discussionPageQuerySchema,
  keyRevocationMessageSchema,
  reactionMessageSchema,
  reactionResponseSchema,
  signedDiscussionSchema,
  threadJsonSchema,
  threadPageSchema,
  threadSeenRequestSchema,
  topicJsonSchema,
  topicListQuerySchema,
  topicListSchema,
  topicMessageSchema,
  topicResponseSchema,
  withdrawalMessageSchema,
} from '@guildhall/core'
import { threadBundleSchema } from '@guildhall/core/recount'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named, proposalIdParams } from '../platform/http/params.ts'
import { bundledThread, threadBundleJson } from './bundle.ts'
import { commentById, commentVersionList, postComment, withdrawComment } from './comments.ts'
import type { DiscussionDeps } from './deps.ts'
import { authoriseKey, listKeys, revokeKey } from './keys.ts'
import { react } from './reactions.ts'
import { requireSignedIn } from './signed.ts'
import { threadItems } from './thread-items.ts'
import { markSeen, threadJson } from './threads.ts'
import { createTopic, listTopics, topicById } from './topics.ts'

/**
 * The largest body: a comment of DISCUSSION_LIMITS.bodyMaxChars (up to 4 bytes each, or \uXXXX escapes) and
 * its mentions; the schema then names the limit a longer text passed, rather than a bare 413.
 */
const MESSAGE_BODY_LIMIT = 8 * DISCUSSION_LIMITS.bodyMaxChars + 16 * 1024

/** A thread's, topic's or comment's id: a digest. */
const idParams = (what: string) =>
  named(
    what,
    z.strictObject({
      id: proposalIdParams.shape.id.meta({ description: `The ${what}: 0x + 64 hex digits.` }),
    }),
  )
const threadId = idParams('thread id')
const noQuery = named('query', z.strictObject({}))
const noContent = { 204: z.undefined().meta({ description: 'Done: no body.' }), ...errorAnswers }

export async function discussionRoutes(
  app: FastifyInstance,
  {
    deps,
    rateLimitPerMinute,
    exportRateLimitPerMinute,
  }: {
    deps: DiscussionDeps
    /** Discussion writes each client may make per minute, each route counted apart. */
    rateLimitPerMinute: number
    /** Thread bundles each client may fetch per minute (as result bundles, EXPORT_RATE_LIMIT_PER_MINUTE). */
    exportRateLimitPerMinute: number
  },
) {
  const writeLimit = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } }
  const exportLimit = { rateLimit: { max: exportRateLimitPerMinute, timeWindow: '1 minute' } }
  const write = { bodyLimit: MESSAGE_BODY_LIMIT, config: writeLimit }
  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['discussion']
  const signedIn = deps.signedIn

  // Answers that depend on who asks (mayPost, "mine", last visit, a member's keys) are nobody else's.
  app.addHook('onSend', async (request, reply) => {
    if (request.headers.cookie) reply.header('cache-control', 'no-store')
  })

  api.post(
    '/api/discussion/keys',
    {
      ...write,
      schema: {
        summary: 'Authorise a discussion key, signed by the member’s wallet (EOA or contract)',
        tags,
        body: named('key authorisation', signedDiscussionSchema(discussionKeyMessageSchema)),
        response: { 201: discussionKeyResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ key: await authoriseKey(deps, await signedIn(request), request.body) }),
  )

  api.get(
    '/api/discussion/keys',
    {
      schema: {
        summary: 'The signed-in member’s discussion keys, newest first',
        tags,
        querystring: noQuery,
        response: { 200: discussionKeyListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      return { items: await listKeys(deps, requireSignedIn(await signedIn(request))) }
    },
  )

  api.post(
    '/api/discussion/keys/revoke',
    {
      ...write,
      schema: {
        summary: 'Revoke a discussion key, signed by the member’s wallet or the key itself',
        tags,
        body: named('key revocation', signedDiscussionSchema(keyRevocationMessageSchema)),
        response: { 200: discussionKeyResponseSchema, ...errorAnswers },
      },
    },
    async (request) => ({ key: await revokeKey(deps, await signedIn(request), request.body) }),
  )

  api.get(
    '/api/discussion/topics',
    {
      schema: {
        summary: 'Topics, latest activity first, a page at a time',
        tags,
        querystring: named('topics query', topicListQuerySchema),
        response: { 200: topicListSchema, ...errorAnswers },
      },
    },
    async (request) => listTopics(deps, request.query),
  )

  api.post(
    '/api/discussion/topics',
    {
      ...write,
      schema: {
        summary: 'Start a topic, signed by a discussion key',
        tags,
        body: named('topic', signedDiscussionSchema(topicMessageSchema)),
        response: { 201: topicResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ topic: await createTopic(deps, await signedIn(request), request.body) }),
  )

  api.get(
    '/api/discussion/topics/:id',
    {
      schema: {
        summary: 'A topic',
        tags,
        params: idParams('topic id'),
        response: { 200: topicJsonSchema, ...errorAnswers },
      },
    },
    async (request) => topicById(deps, request.params.id, await signedIn(request)),
  )

  api.get(
    '/api/threads/:id',
    {
      schema: {
        summary: 'A thread: its proposal or topic, lock, count, your last visit and whether you may post',
        tags,
        params: threadId,
        response: { 200: threadJsonSchema, ...errorAnswers },
      },
    },
    async (request) => threadJson(deps, request.params.id, await signedIn(request)),
  )

  api.get(
    '/api/threads/:id/items',
    {
      schema: {
        summary: 'A thread’s comments and vote cards in tree order, a page at a time',
        tags,
        params: threadId,
        querystring: named('thread items query', discussionPageQuerySchema),
        response: { 200: threadPageSchema, ...errorAnswers },
      },
    },
    async (request) => threadItems(deps, request.params.id, request.query, await signedIn(request)),
  )

  api.post(
    '/api/threads/:id/seen',
    {
      config: writeLimit,
      schema: {
        summary: 'Mark a thread seen up to a log entry (signed-in member)',
        tags,
        params: threadId,
        body: named('seen', threadSeenRequestSchema),
        response: noContent,
      },
    },
    async (request, reply) => {
      const member = requireSignedIn(await signedIn(request))
      await markSeen(deps, request.params.id, member, request.body.seq)
      return reply.status(204).send()
    },
  )

  api.get(
    '/api/threads/:id/bundle',
    {
      config: exportLimit,
      schema: {
        summary: 'A thread’s bundle: its signed messages, keys and log entries, for the recount (streamed)',
        tags,
        params: threadId,
        response: {
          200: { content: { 'application/json': { schema: threadBundleSchema } } },
          ...errorAnswers,
        },
      },
    },
    async (request, reply) => {
      const thread = await bundledThread(deps, request.params.id)
      // Byte mode: the next page is read only once what the stream holds (64 KiB) has gone out.
      const body = Readable.from(threadBundleJson(deps, thread), {
        objectMode: false,
        highWaterMark: 64 * 1024,
      })
      // A stream, which no serializer sees: the recount checks what it reads (schema above).
      return reply.type('application/json; charset=utf-8').send(body as never)
    },
  )

  api.post(
    '/api/comments',
    {
      ...write,
      schema: {
        summary: 'A comment, or an edit of your comment’s latest version, signed by a discussion key',
        tags,
        body: named('comment', signedDiscussionSchema(commentMessageSchema)),
        response: { 201: commentResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const { comment } = await postComment(deps, await signedIn(request), request.body)
      return reply.status(201).send({ comment })
    },
  )

  api.get(
    '/api/comments/:id',
    {
      schema: {
        summary: 'A comment as it reads now',
        tags,
        params: idParams('comment id'),
        response: { 200: commentResponseSchema, ...errorAnswers },
      },
    },
    async (request) => ({ comment: await commentById(deps, request.params.id, await signedIn(request)) }),
  )

  api.get(
    '/api/comments/:id/versions',
    {
      schema: {
        summary: 'Every version of a comment, oldest first',
        tags,
        params: idParams('comment id'),
        response: { 200: commentVersionsSchema, ...errorAnswers },
      },
    },
    async (request) => commentVersionList(deps, request.params.id),
  )

  api.post(
    '/api/comments/withdraw',
    {
      ...write,
      schema: {
        summary: 'Withdraw your comment: its text hidden, its entries kept',
        tags,
        body: named('withdrawal', signedDiscussionSchema(withdrawalMessageSchema)),
        response: { 200: commentResponseSchema, ...errorAnswers },
      },
    },
    async (request) => ({ comment: await withdrawComment(deps, await signedIn(request), request.body) }),
  )

  api.post(
    '/api/reactions',
    {
      ...write,
      schema: {
        summary: 'React to a comment or topic, or take the reaction back, signed by a discussion key',
        tags,
        body: named('reaction', signedDiscussionSchema(reactionMessageSchema)),
        response: { 200: reactionResponseSchema, ...errorAnswers },
      },
    },
    async (request) => react(deps, await signedIn(request), request.body),
  )
}
