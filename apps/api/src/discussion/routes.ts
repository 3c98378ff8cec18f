// HTTP for threads and topics (ADR 053): validate strictly, call the service, map its answer.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named, proposalIdParams } from '../platform/http/params.ts'
import type { DiscussionDeps } from './deps.ts'

// Stand-ins until the service lands: the routes and their places are the contract, the shapes follow.
const anyBody = z.looseObject({})
const idParams = named('id', proposalIdParams)
const notYet = async () => {
  throw new ApiError(501, 'not_implemented', 'Not implemented yet.')
}

export async function discussionRoutes(
  app: FastifyInstance,
  { rateLimitPerMinute }: { deps: DiscussionDeps; rateLimitPerMinute: number },
) {
  const writeLimit = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } }
  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['discussion']
  const answers = { 200: anyBody, 201: anyBody, ...errorAnswers }
  const post = (url: string, summary: string, params?: typeof idParams) =>
    api.post(
      url,
      {
        config: writeLimit,
        schema: {
          summary,
          tags,
          ...(params ? { params } : {}),
          body: named('request', anyBody),
          response: answers,
        },
      },
      notYet,
    )
  const get = (url: string, summary: string, params?: typeof idParams) =>
    api.get(url, { schema: { summary, tags, ...(params ? { params } : {}), response: answers } }, notYet)

  post('/api/discussion/keys', 'Authorise a discussion key (signed by the member’s wallet)')
  get('/api/discussion/keys', 'The signed-in member’s discussion keys, newest first')
  post('/api/discussion/keys/revoke', 'Revoke a discussion key (signed by the member or the key)')
  get('/api/discussion/topics', 'Topics, latest activity first, a page at a time')
  post('/api/discussion/topics', 'Start a topic (signed by a discussion key)')
  get('/api/discussion/topics/:id', 'A topic', idParams)
  get('/api/threads/:id', 'A thread: its proposal or topic, lock, counts and whether you may post', idParams)
  get(
    '/api/threads/:id/items',
    'A thread’s comments and vote cards in tree order, a page at a time',
    idParams,
  )
  post('/api/comments', 'A comment or an edit of one (signed by a discussion key)')
  get('/api/comments/:id/versions', 'Every version of a comment', idParams)
  post('/api/comments/withdraw', 'Withdraw your comment: its text hidden, its entry kept')
  post('/api/reactions', 'React to a comment or topic, or take the reaction back')
  post('/api/threads/:id/seen', 'Mark a thread seen up to a log entry (signed-in member)', idParams)
  get(
    '/api/threads/:id/bundle',
    'A thread’s bundle: every signed message and log entry, for the recount',
    idParams,
  )
}
