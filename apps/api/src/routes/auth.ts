// HTTP for sign-in and sessions (ADR 007): validate, call the service, map errors to statuses.
import { formatIssues } from '@guildhall/core'
import { type SessionResponse, type SessionsResponse, verifyRequestSchema } from '@guildhall/core/auth'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Session } from '../db/schema.ts'
import {
  findSession,
  issueNonce,
  listSessions,
  NONCE_TTL_MS,
  newToken,
  revokeSessions,
  revokeToken,
  type SignInDeps,
  SignInError,
  sessionExpiresAt,
  verifySignIn,
} from '../services/sign-in.ts'

export interface AuthRouteOptions {
  deps: SignInDeps
  /** https origins get Secure cookies with the __Host- prefix. */
  secure: boolean
  /** Sign-in requests per IP and minute, for nonce and verify each. */
  rateLimitPerMinute: number
}

/** A session id as the database writes it; anything else would fail inside the query (a 500). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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

  /** The signed-in session, or a 401 answer. */
  async function requireSession(request: FastifyRequest, reply: FastifyReply): Promise<Session | undefined> {
    const session = await currentSession(request)
    if (!session) {
      reply.status(401).send({ error: 'unauthenticated', message: 'Sign in to see this.' })
      return undefined
    }
    return session
  }

  app.post('/api/auth/nonce', { config: rateLimit }, async (request, reply) => {
    const preauth = request.cookies[PREAUTH_COOKIE] ?? newToken()
    const nonce = await issueNonce(deps, preauth)
    reply.setCookie(PREAUTH_COOKIE, preauth, { ...cookieOptions, maxAge: NONCE_TTL_MS / 1000 })
    return { nonce }
  })

  app.post('/api/auth/verify', { config: rateLimit, bodyLimit: 8 * 1024 }, async (request, reply) => {
    const body = verifyRequestSchema.safeParse(request.body)
    if (!body.success) {
      return reply
        .status(400)
        .send({ error: 'bad_request', message: `Invalid sign-in request:\n${formatIssues(body.error)}` })
    }
    try {
      const { token, session } = await verifySignIn(deps, {
        ...body.data,
        preauthToken: request.cookies[PREAUTH_COOKIE],
        userAgent: request.headers['user-agent'],
      })
      // A new token at every sign-in (no fixation); the old session, if any, ends here.
      await revokeToken(deps, request.cookies[SESSION_COOKIE])
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires: sessionExpiresAt(session) })
      reply.clearCookie(PREAUTH_COOKIE, cookieOptions)
      return { session: publicSession(session) } satisfies SessionResponse
    } catch (error) {
      if (!(error instanceof SignInError)) throw error
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds))
      return reply.status(error.status).send({ error: error.code, message: error.message })
    }
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

  app.get('/api/auth/sessions', async (request, reply) => {
    const session = await requireSession(request, reply)
    if (!session) return reply
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
    const session = await requireSession(request, reply)
    if (!session) return reply
    if (!UUID.test(request.params.id)) {
      return reply.status(400).send({ error: 'bad_request', message: 'A session id is a UUID.' })
    }
    const revoked = await revokeSessions(deps, session.address, request.params.id)
    if (revoked === 0)
      return reply.status(404).send({ error: 'not_found', message: 'No such session of yours.' })
    return reply.status(204).send()
  })

  app.delete('/api/auth/sessions', async (request, reply) => {
    const session = await requireSession(request, reply)
    if (!session) return reply
    await revokeSessions(deps, session.address)
    reply.clearCookie(SESSION_COOKIE, cookieOptions)
    return reply.status(204).send()
  })
}
