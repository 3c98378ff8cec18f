// HTTP for moderation (ADR 054): moderators' signed actions, members' flags and the public moderation log.
import {
  commentResponseSchema,
  discussionPageQuerySchema,
  flagMessageSchema,
  moderationActionListSchema,
  moderationActionResponseSchema,
  moderationMessageSchema,
  signedDiscussionSchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named } from '../platform/http/params.ts'
import type { DiscussionDeps } from './deps.ts'
import { flagComment, listModeration, moderate } from './moderation.ts'

export async function moderationRoutes(
  app: FastifyInstance,
  { deps, rateLimitPerMinute }: { deps: DiscussionDeps; rateLimitPerMinute: number },
) {
  const writeLimit = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } }
  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['moderation']

  api.post(
    '/api/moderation',
    {
      config: writeLimit,
      schema: {
        summary:
          'A moderator hides or unhides a comment, or locks or unlocks a thread (signed by a discussion key)',
        tags,
        body: named('moderation', signedDiscussionSchema(moderationMessageSchema)),
        response: { 201: moderationActionResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) => reply.status(201).send({ action: await moderate(deps, request, request.body) }),
  )

  api.post(
    '/api/flags',
    {
      config: writeLimit,
      schema: {
        summary: 'Flag a comment (signed by a discussion key); enough flags from members with power hide it',
        tags,
        body: named('flag', signedDiscussionSchema(flagMessageSchema)),
        response: { 201: commentResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ comment: await flagComment(deps, request, request.body) }),
  )

  api.get(
    '/api/moderation',
    {
      schema: {
        summary: 'Every moderation action, newest first, a page at a time (public)',
        tags,
        querystring: named('moderation list query', discussionPageQuerySchema),
        response: { 200: moderationActionListSchema, ...errorAnswers },
      },
    },
    async (request) => listModeration(deps, request.query),
  )
}
