// The variables of the limits an operator sets on what clients may do: requests per client (IP) and minute,
// which proxies may name the client, how old a new proposal's snapshot may be, and how long a request or an
// idle connection may take.
import { isIP } from 'node:net'
import { DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS } from '@guildhall/core'
import { z } from 'zod'
import { csv } from './csv.ts'

/** An IP address or CIDR range, or one of the named ranges Fastify's trustProxy knows. */
const isProxyRange = (range: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(range)) return true
  const [address = '', prefix, ...rest] = range.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^[0-9]+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

export const limitVariables = z.object({
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Proposals, and votes, one client (IP) may submit per minute; each costs a signature check (~4 ms).
   * Well above one member's pace: behind a carrier's NAT many phones share one address. */
  GOVERNANCE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Result bundles, and log pages, one client (IP) may fetch per minute. */
  EXPORT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Voting-power look-ups one client (IP) may make per minute; above the indexed block each asks the chain. */
  POWER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Name look-ups (GET /api/names, up to 100 addresses) one client (IP) may make per minute. */
  NAMES_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Names one client (IP) may resolve to addresses per minute (GET /api/names/resolve): each is an ENS RPC call. */
  NAME_RESOLVE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /**
   * Behind a load balancer: the proxies whose X-Forwarded-For names the client (rate limits, logs), as IP
   * addresses and CIDR ranges; `off`: the peer is the client.
   */
  TRUST_PROXY: z
    .string()
    .default('off')
    .transform((value, context) => {
      if (value.trim() === 'off') return false
      const ranges = csv(value)
      if (ranges.length > 0 && ranges.every(isProxyRange)) return ranges
      context.addIssue({
        code: 'custom',
        message: 'must be off, or IP addresses and CIDR ranges of the proxies, separated by commas',
      })
      return z.NEVER
    }),
  /** A new proposal's snapshot must be one of this many blocks before the chain's head (ADR 015). */
  SNAPSHOT_MAX_AGE_BLOCKS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS),
  /** Longest a request may take to arrive in full (headers and body); a slower one gets 408. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** Longest a request's headers may take to arrive; at most REQUEST_TIMEOUT_MS. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** How long an idle keep-alive connection stays open; behind a proxy, above the proxy's own. */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
})

/** The problem between the timeouts, if both are valid: Node refuses a headers timeout longer than the whole request's. */
export function timeoutProblems(env: Record<string, string | undefined>): string[] {
  const { REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS } = limitVariables.shape
  const requestTimeout = REQUEST_TIMEOUT_MS.safeParse(env.REQUEST_TIMEOUT_MS).data
  const headersTimeout = HEADERS_TIMEOUT_MS.safeParse(env.HEADERS_TIMEOUT_MS).data
  return requestTimeout !== undefined && headersTimeout !== undefined && headersTimeout > requestTimeout
    ? ['- HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS']
    : []
}
