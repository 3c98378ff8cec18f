// The server's sign-in policy (docs/security.md, "Sign-in policy") over strictly parsed fields.
import type { SiweFields } from './fields.ts'
import { parseRfc3339 } from './grammar.ts'

type SiwePolicyCode =
  | 'nonce_mismatch'
  | 'domain_mismatch'
  | 'scheme_mismatch'
  | 'uri_mismatch'
  | 'insecure_uri'
  | 'version_unsupported'
  | 'chain_not_allowed'
  | 'statement_mismatch'
  | 'resources_not_allowed'
  | 'request_id_not_allowed'
  | 'invalid_timestamp'
  | 'issued_at_too_old'
  | 'expired'
  | 'expiration_too_far'
  | 'issued_at_in_future'
  | 'not_yet_valid'

export type SiwePolicyResult =
  | { ok: true }
  | { ok: false; code: SiwePolicyCode; message: string; nonceStillUsable: boolean }

export interface SiwePolicy {
  /** The configured public host (`new URL(origin).host`); compared exactly. */
  domain: string
  /** The configured public origin; the message's URI must equal `new URL(origin).origin`. */
  origin: string
  allowedChainIds: readonly number[]
  /** The statement our app asks for (`signInStatement(daoName)`). */
  statement: string
  now: Date | number
  /** The nonce issued to this client; omitted when the caller checks it itself. */
  nonce?: string
  /** Oldest accepted Issued At, before now. Default 10 minutes. */
  maxAgeMs?: number
  /** Latest accepted Issued At, after now (clock skew). Default 1 minute. */
  maxFutureMs?: number
  /** Latest accepted Expiration Time, after now. Default 24 hours. */
  maxExpirationMs?: number
}

const SIWE_DEFAULT_MAX_AGE_MS = 10 * 60_000
const SIWE_DEFAULT_MAX_FUTURE_MS = 60_000
const SIWE_DEFAULT_MAX_EXPIRATION_MS = 24 * 60 * 60_000

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** https, or http on a loopback host (development). */
function isSecureSignInOrigin(origin: string): boolean {
  try {
    const url = new URL(origin)
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTNAMES.has(url.hostname))
  } catch {
    return false
  }
}

function protocolOf(origin: string): string | undefined {
  try {
    return new URL(origin).protocol
  } catch {
    return undefined
  }
}

/** An origin as the URL standard writes it (a trailing slash dropped); a value that is not a URL as given. */
export function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin).origin
  } catch {
    return origin
  }
}

/**
 * The server's sign-in policy (docs/security.md, "Sign-in policy"), applied to strictly parsed fields. The signature is
 * not checked here.
 *
 * `nonceStillUsable`: true where the failure is not the signer's — the message does not carry our nonce at all
 * (`nonce_mismatch`), the message is not valid *yet* and becomes valid by waiting (`issued_at_in_future`, i.e.
 * clock skew, and `not_yet_valid`), or our own configuration is at fault (`insecure_uri`). Everything else is
 * content the signer signed that can never pass (wrong domain, URI, chain, statement, stale or expired): the nonce
 * is burnt so that signed message can never be accepted later (e.g. after a configuration change).
 */
export function checkSiwePolicy(fields: SiweFields, policy: SiwePolicy): SiwePolicyResult {
  const fail = (code: SiwePolicyCode, message: string, nonceStillUsable = false): SiwePolicyResult => ({
    ok: false,
    code,
    message,
    nonceStillUsable,
  })
  const now = typeof policy.now === 'number' ? policy.now : policy.now.getTime()
  const maxAge = policy.maxAgeMs ?? SIWE_DEFAULT_MAX_AGE_MS
  const maxFuture = policy.maxFutureMs ?? SIWE_DEFAULT_MAX_FUTURE_MS
  const maxExpiration = policy.maxExpirationMs ?? SIWE_DEFAULT_MAX_EXPIRATION_MS
  const origin = normaliseOrigin(policy.origin)

  if (policy.nonce !== undefined && fields.nonce !== policy.nonce) {
    return fail('nonce_mismatch', 'The message does not carry the nonce issued to this client.', true)
  }
  if (fields.domain !== policy.domain) {
    return fail('domain_mismatch', `The message is for "${fields.domain}", not "${policy.domain}".`)
  }
  if (fields.scheme !== undefined && `${fields.scheme}:` !== protocolOf(origin)) {
    return fail('scheme_mismatch', `The message's scheme "${fields.scheme}" is not this site's.`)
  }
  if (fields.uri !== origin) return fail('uri_mismatch', `The message's URI is not ${origin}.`)
  if (!isSecureSignInOrigin(fields.uri)) {
    return fail('insecure_uri', 'Sign-in needs an https origin (http only on localhost).', true)
  }
  if (fields.version !== '1') return fail('version_unsupported', 'Only SIWE version 1 is supported.')
  if (!policy.allowedChainIds.includes(fields.chainId)) {
    return fail('chain_not_allowed', `Chain ${fields.chainId} is not one of this DAO's chains.`)
  }
  if (fields.statement !== policy.statement) {
    return fail('statement_mismatch', 'The message does not carry the statement this site asks for.')
  }
  if (fields.resources !== undefined)
    return fail('resources_not_allowed', 'The message must not list resources.')
  if (fields.requestId !== undefined)
    return fail('request_id_not_allowed', 'The message must not carry a request id.')

  const issuedAt = parseRfc3339(fields.issuedAt)
  const expiration = fields.expirationTime === undefined ? undefined : parseRfc3339(fields.expirationTime)
  const notBefore = fields.notBefore === undefined ? undefined : parseRfc3339(fields.notBefore)
  if (issuedAt === null || expiration === null || notBefore === null) {
    return fail('invalid_timestamp', 'A timestamp of the message is not a valid RFC 3339 date-time.')
  }
  if (now - issuedAt > maxAge) return fail('issued_at_too_old', 'The message was issued too long ago.')
  if (expiration !== undefined && now >= expiration) return fail('expired', 'The message has expired.')
  if (expiration !== undefined && expiration - now > maxExpiration) {
    return fail('expiration_too_far', 'The message expires too far in the future.')
  }
  if (issuedAt - now > maxFuture) {
    return fail('issued_at_in_future', 'The message is issued in the future; check the clock.', true)
  }
  if (notBefore !== undefined && now < notBefore) {
    return fail('not_yet_valid', 'The message is not valid yet.', true)
  }
  return { ok: true }
}
