// HTTP for sign-in and sessions (ADR 007): validate, call the service, map its answer.
import {
  nonceResponseSchema,
  type SessionResponse,
  type SessionsResponse,
  sessionResponseSchema,
  sessionsResponseSchema,
  verifyRequestSchema,
} from '@guildhall/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named, sessionIdParam, sessionIdPathSchema } from '../platform/http/params.ts'
import {
  findSession,
  issueNonce,
  listSessions,
  NONCE_TTL_MS,
  newToken,
  revokeSessions,
  revokeToken,
  type Session,
  type SignInDeps,
  sessionExpiresAt,
  verifySignIn,
} from './sign-in.ts'

export interface AuthRouteOptions {
  deps: SignInDeps
  /** https origins get Secure cookies with the __Host- prefix. */
  secure: boolean
  /** Sign-in requests per IP and minute, for nonce and verify each. */
  rateLimitPerMinute: number
}

/** https origins' cookies get the __Host- prefix (Secure, no Domain, path /). */
const cookieName = (secure: boolean, name: string) =>
  secure ? `__Host-guildhall_${name}` : `guildhall_${name}`
/** The cookie holding a session's token. */
export const sessionCookieName = (secure: boolean) => cookieName(secure, 'session')

/** The session response of a live session. */
const publicSession = (session: Session): SessionResponse['session'] => ({
  address: session.address as `0x${string}`,
  chainId: session.chainId,
  expiresAt: sessionExpiresAt(session).toISOString(),
})

export async function authRoutes(
  app: FastifyInstance,
  { deps, secure, rateLimitPerMinute }: AuthRouteOptions,
) {
  const SESSION_COOKIE = sessionCookieName(secure)
  const PREAUTH_COOKIE = cookieName(secure, 'preauth')
  const cookieOptions = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const
  const rateLimit = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } }

  // Every answer here is about one visitor (a session, its list, a nonce bound to its cookie), errors
  // included: no cache, shared or the browser's, may keep it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  const currentSession = (request: FastifyRequest) => findSession(deps, request.cookies[SESSION_COOKIE])

  /** The signed-in session, or a 401. */
  async function requireSession(request: FastifyRequest): Promise<Session> {
    const session = await currentSession(request)
    if (!session) throw ApiError.unauthenticated('Sign in to see this.')
    return session
  }

  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['sign-in']
  /** An answer with no body. */
  const noContent = { 204: z.undefined().meta({ description: 'Done: no body.' }), ...errorAnswers }

  api.post(
    '/api/auth/nonce',
    {
      config: rateLimit,
      schema: {
        summary: 'A nonce for the Sign-In with Ethereum message, bound to a pre-auth cookie',
        tags,
        response: { 200: nonceResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const preauth = request.cookies[PREAUTH_COOKIE] ?? newToken()
      const nonce = await issueNonce(deps, preauth)
      reply.setCookie(PREAUTH_COOKIE, preauth, { ...cookieOptions, maxAge: NONCE_TTL_MS / 1000 })
      return { nonce }
    },
  )

  api.post(
    '/api/auth/verify',
    {
      config: rateLimit,
      bodyLimit: 8 * 1024,
      schema: {
        summary: 'Sign in: the signed SIWE message; sets the session cookie',
        tags,
        body: named('sign-in request', verifyRequestSchema),
        response: { 200: sessionResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const { token, session } = await verifySignIn(deps, {
        ...request.body,
        preauthToken: request.cookies[PREAUTH_COOKIE],
        userAgent: request.headers['user-agent'],
      })
      // A new token at every sign-in (no fixation); the old session, if any, ends here.
      await revokeToken(deps, request.cookies[SESSION_COOKIE])
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: sessionExpiresAt(session) })
      reply.clearCookie(PREAUTH_COOKIE, cookieOptions)
      return { session: publicSession(session) } satisfies SessionResponse
    },
  )

  api.get(
    '/api/auth/session',
    {
      schema: {
        summary: 'The signed-in session of this cookie, or null',
        tags,
        response: { 200: sessionResponseSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const session = await currentSession(request)
      return { session: session ? publicSession(session) : null } satisfies SessionResponse
    },
  )

  api.post(
    '/api/auth/logout',
    { schema: { summary: 'Sign out: ends this session', tags, response: noContent } },
    async (request, reply) => {
      await revokeToken(deps, request.cookies[SESSION_COOKIE])
      reply.clearCookie(SESSION_COOKIE, cookieOptions)
      return reply.status(204).send()
    },
  )

  api.get(
    '/api/auth/sessions',
    {
      schema: {
        summary: 'The signed-in address’s sessions, on every device',
        tags,
        response: { 200: sessionsResponseSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const session = await requireSession(request)
      const list = await listSessions(deps, session.address)
      return {
        sessions: list.map((s) => ({
          id: s.id,
          chainId: s.chainId,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          expiresAt: sessionExpiresAt(s).toISOString(),
          current: s.id === session.id,
          userAgent: s.userAgent,
        })),
      } satisfies SessionsResponse
    },
  )

  api.delete(
    '/api/auth/sessions/:id',
    {
      schema: {
        summary: 'End one of the signed-in address’s sessions',
        tags,
        // The id is read after the session (401 first), by sessionIdParam.
        params: named('session', z.strictObject({ id: sessionIdPathSchema })),
        response: noContent,
      },
    },
    async (request, reply) => {
      const session = await requireSession(request)
      const id = sessionIdParam(request.params.id)
      const revoked = await revokeSessions(deps, session.address, id)
      if (revoked === 0) throw ApiError.notFound('No such session of yours.')
      return reply.status(204).send()
    },
  )

  api.delete(
    '/api/auth/sessions',
    { schema: { summary: 'End every session of the signed-in address', tags, response: noContent } },
    async (request, reply) => {
      const session = await requireSession(request)
      await revokeSessions(deps, session.address)
      reply.clearCookie(SESSION_COOKIE, cookieOptions)
      return reply.status(204).send()
    },
  )
}
