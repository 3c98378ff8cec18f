// The sign-in area: Sign-In with Ethereum, sessions, and the checks a signed-in request passes.
import { rpcTransport, signInStatement } from '@guildhall/core'
import type { FastifyRequest } from 'fastify'
import { type Address, createPublicClient, type PublicClient } from 'viem'
import type { Area, AreaContext } from '../platform/area.ts'
import { authRoutes, sessionCookieName } from './routes.ts'
import { findSession, type SignInDeps } from './sign-in.ts'

const CONTRACT_CHECK_TIMEOUT_MS = 5_000

/** Present when the DAO turns sign-in on; sign-in keeps its sessions in the database, so it needs one. */
export function authArea({
  settings,
  database,
  now,
  signatures,
}: AreaContext):
  | (Area & { signedIn: (request: FastifyRequest) => Promise<Address | undefined> })
  | undefined {
  if (!settings.publicConfig.signIn) return undefined
  if (!database) throw new Error('Sign-in is on, so buildApp needs a database')
  const origin = settings.publicConfig.appUrl
  // Short timeout: only contract-account sign-ins wait on the chain, and they get a 503 rather than hang.
  const clients = new Map(
    settings.chains.map((chain) => [
      chain.id,
      createPublicClient({
        transport: rpcTransport(chain.upstreamRpcUrl, { timeout: CONTRACT_CHECK_TIMEOUT_MS, retryCount: 1 }),
      }),
    ]),
  )
  const deps: SignInDeps = {
    db: database.db,
    now,
    policy: {
      domain: new URL(origin).host,
      origin,
      allowedChainIds: settings.chains.map((chain) => chain.id),
      statement: signInStatement(settings.publicConfig.dao.name),
    },
    clientFor: (chainId) => clients.get(chainId) as PublicClient | undefined,
    recover: signatures.recover,
  }
  const secure = origin.startsWith('https://')
  return {
    /** The address a request's session cookie is signed in as (areas whose writes need a session). */
    signedIn: async (request) =>
      (await findSession(deps, request.cookies[sessionCookieName(secure)]))?.address as Address | undefined,
    plugin: (app) =>
      authRoutes(app, {
        deps,
        secure,
        rateLimitPerMinute: settings.authRateLimitPerMinute,
      }),
  }
}
