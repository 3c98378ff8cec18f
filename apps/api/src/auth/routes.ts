// HTTP for sign-in and sessions (ADR 007): validate, call the service, map its answer.
import { type SessionResponse, type SessionsResponse, verifyRequestSchema } from '@guildhall/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../platform/http/errors.ts'
import { parse, sessionIdParam } from '../platform/http/params.ts'
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
  const cookieName = (name: string) => (secure ? `__Host-guildhall_${name}` : `guildhall_${name}`)
  const SESSION_COOKIE = cookieName('session')
  const PREAUTH_COOKIE = cookieName('preauth')
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

  app.post('/api/auth/nonce', { config: rateLimit }, async (request, reply) => {
    const preauth = request.cookies[PREAUTH_COOKIE] ?? newToken()
    const nonce = await issueNonce(deps, preauth)
    reply.setCookie(PREAUTH_COOKIE, preauth, { ...cookieOptions, maxAge: NONCE_TTL_MS / 1000 })
    return { nonce }
  })

  app.post('/api/auth/verify', { config: rateLimit, bodyLimit: 8 * 1024 }, async (request, reply) => {
    const body = parse(verifyRequestSchema, request.body, 'sign-in request')
    const { token, session } = await verifySignIn(deps, {
      ...body,
      preauthToken: request.cookies[PREAUTH_COOKIE],
      userAgent: request.headers['user-agent'],
    })
    // A new token at every sign-in (no fixation); the old session, if any, ends here.
    await revokeToken(deps, request.cookies[SESSION_COOKIE])
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: sessionExpiresAt(session) })
    reply.clearCookie(PREAUTH_COOKIE, cookieOptions)
    return { session: publicSession(session) } satisfies SessionResponse
  })

  app.get('/api/auth/session', async (request) => {
    const session = await currentSession(request)
    return { session: session ? publicSession(session) : null } satisfies SessionResponse
  })

  app.post('/api/auth/logout', async (request, reply) => {
    await revokeToken(deps, request.cookies[SESSION_COOKIE])
    reply.clearCookie(SESSION_COOKIE, cookieOptions)
    return reply.status(204).send()
  })

  app.get('/api/auth/sessions', async (request) => {
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
  })

  app.delete<{ Params: { id: string } }>('/api/auth/sessions/:id', async (request, reply) => {
    const session = await requireSession(request)
    const id = sessionIdParam(request.params.id)
    const revoked = await revokeSessions(deps, session.address, id)
    if (revoked === 0) throw ApiError.notFound('No such session of yours.')
    return reply.status(204).send()
  })

  app.delete('/api/auth/sessions', async (request, reply) => {
    const session = await requireSession(request)
    await revokeSessions(deps, session.address)
    reply.clearCookie(SESSION_COOKIE, cookieOptions)
    return reply.status(204).send()
  })
}
