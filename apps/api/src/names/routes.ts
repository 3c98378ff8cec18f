// HTTP for names and avatars: GET /api/names?addresses=0x…,0x… answers from the table of resolved profiles;
// GET /api/names/resolve?name=ben.eth resolves one name to its address on the ENS RPC.
import {
  nameListQuerySchema,
  nameListSchema,
  nameResolveQuerySchema,
  resolvedNameSchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import { type Address, getAddress, type PublicClient } from 'viem'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named } from '../platform/http/params.ts'
import { resolveName } from './name-resolution.ts'
import type { NameProfiles } from './profiles.ts'

/** How long a browser or cache may keep an answer with nothing pending: names change rarely. */
const NAMES_MAX_AGE_S = 60

export async function nameRoutes(
  app: FastifyInstance,
  {
    profiles,
    rateLimitPerMinute,
    ensClient,
    resolveRateLimitPerMinute,
  }: {
    profiles?: NameProfiles
    rateLimitPerMinute: number
    /** The ENS client; undefined when names are off (no ENS_RPC_URL). */
    ensClient?: PublicClient
    resolveRateLimitPerMinute: number
  },
) {
  // Each request may queue up to 100 lookups on the operator's RPC: counted per client.
  const limit = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } }
  const api = app.withTypeProvider<ApiTypeProvider>()

  const namesSchema = {
    summary: 'Names and avatars of up to 100 addresses (ENS, looked up by the server)',
    tags: ['names'],
    querystring: named('names query', nameListQuerySchema),
    response: { 200: nameListSchema, ...errorAnswers },
  }
  api.get('/api/names', { config: limit, schema: namesSchema }, async (request, reply) => {
    const { addresses } = request.query
    const checksummed = addresses.map((address) => getAddress(address) as Address)
    const names = profiles
      ? await profiles.lookup(checksummed)
      : [...new Set(checksummed)].map((address) => ({ address, name: null, avatarUrl: null, pending: false }))
    // An answer still waiting for lookups is asked again soon, and must not be served from a cache meanwhile.
    const pending = names.some((answer) => answer.pending)
    reply.header('cache-control', pending ? 'no-store' : `public, max-age=${NAMES_MAX_AGE_S}`)
    return { names }
  })

  // Each request is an eth_call on the operator's RPC: counted per client, apart from the lists above.
  const resolveLimit = { rateLimit: { max: resolveRateLimitPerMinute, timeWindow: '1 minute' } }

  const resolveSchema = {
    summary: 'The address an ENS name’s record names',
    tags: ['names'],
    querystring: named('name query', nameResolveQuerySchema),
    response: { 200: resolvedNameSchema, ...errorAnswers },
  }
  api.get('/api/names/resolve', { config: resolveLimit, schema: resolveSchema }, async (request, reply) => {
    const { name } = request.query
    const resolved = await resolveName(ensClient, name)
    // A transaction is sent to the answer: never one from a cache.
    reply.header('cache-control', 'no-store')
    return resolved
  })
}
