/**
 * The fields of an EIP-4361 message: their type, their check against the grammar (shared by the parser
 * and the builder) and their writing as a message.
 */
import type { Address } from 'viem'
import { isChecksummedAddress } from '../primitives.ts'
import { domainProblem, isRfc3986Uri, PCHARS_RE, parseRfc3339, SCHEME_RE } from './grammar.ts'

/** EIP-4361 message fields, exactly as written in the message (timestamps stay strings: lossless). */
export interface SiweFields {
  /** Optional `scheme://` before the domain. */
  scheme?: string
  /** RFC 3986 authority without userinfo: `host` or `host:port`. */
  domain: string
  /** EIP-55 checksummed. */
  address: Address
  statement?: string
  uri: string
  version: '1'
  chainId: number
  nonce: string
  /** RFC 3339 date-time. */
  issuedAt: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: string[]
}

export type SiweParseResult = { ok: true; fields: SiweFields } | { ok: false; reason: string }

export const HEADER_SUFFIX = ' wants you to sign in with your Ethereum account:'
/** `statement = 1*( reserved / unreserved / " " )` — printable ASCII minus `%"<>\^`{|}`, no LF. */
const STATEMENT_RE = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]+$/
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/
const NONCE_RE = /^[A-Za-z0-9]{8,}$/

const FIELD_KEYS = new Set([
  'scheme',
  'domain',
  'address',
  'statement',
  'uri',
  'version',
  'chainId',
  'nonce',
  'issuedAt',
  'expirationTime',
  'notBefore',
  'requestId',
  'resources',
])

/**
 * Checks a fields object against the EIP-4361 grammar (the same rules the parser applies to a message). Absent
 * optional fields must be absent, not null. Unknown keys are refused.
 */
export function validateSiweFields(value: unknown): SiweParseResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'fields must be an object' }
  }
  const f = value as Record<string, unknown>
  for (const key of Object.keys(f)) {
    if (!FIELD_KEYS.has(key)) return { ok: false, reason: `unknown field "${key}"` }
    if (f[key] === undefined) return { ok: false, reason: `field "${key}" is undefined` }
  }
  const fail = (reason: string): SiweParseResult => ({ ok: false, reason })
  const str = (key: string) => (typeof f[key] === 'string' ? (f[key] as string) : undefined)

  if ('scheme' in f && !(str('scheme') !== undefined && SCHEME_RE.test(str('scheme') as string))) {
    return fail('scheme is not an RFC 3986 scheme')
  }
  const domain = str('domain')
  if (domain === undefined) return fail('domain is missing')
  const domainIssue = domainProblem(domain)
  if (domainIssue) return fail(domainIssue)
  const address = str('address')
  if (address === undefined) return fail('address is missing')
  if (!ADDRESS_RE.test(address)) return fail('address is not 0x followed by 40 hex digits')
  if (!isChecksummedAddress(address)) return fail('address is not EIP-55 checksummed')
  if ('statement' in f) {
    const statement = str('statement')
    if (statement === undefined || !STATEMENT_RE.test(statement)) {
      return fail(
        'statement must be 1 or more printable ASCII characters from RFC 3986 reserved/unreserved or space',
      )
    }
  }
  const uri = str('uri')
  if (uri === undefined) return fail('uri is missing')
  if (!isRfc3986Uri(uri)) return fail('uri is not an RFC 3986 URI')
  if (!('version' in f)) return fail('version is missing')
  if (f.version !== '1') return fail('version must be "1"')
  if (!('chainId' in f)) return fail('chain id is missing')
  if (typeof f.chainId !== 'number' || !Number.isSafeInteger(f.chainId) || f.chainId < 0) {
    return fail('chain id must be a non-negative safe integer')
  }
  const nonce = str('nonce')
  if (nonce === undefined) return fail('nonce is missing')
  if (!NONCE_RE.test(nonce)) return fail('nonce must be at least 8 ASCII letters or digits')
  const issuedAt = str('issuedAt')
  if (issuedAt === undefined) return fail('issued-at is missing')
  if (parseRfc3339(issuedAt) === null) return fail('issued-at is not a valid RFC 3339 date-time')
  for (const [key, label] of [
    ['expirationTime', 'expiration time'],
    ['notBefore', 'not-before'],
  ] as const) {
    if (key in f) {
      const v = str(key)
      if (v === undefined || parseRfc3339(v) === null)
        return fail(`${label} is not a valid RFC 3339 date-time`)
    }
  }
  if ('requestId' in f) {
    const requestId = str('requestId')
    if (requestId === undefined || !PCHARS_RE.test(requestId))
      return fail('request id must be RFC 3986 pchars')
  }
  if ('resources' in f) {
    const resources = f.resources
    if (!Array.isArray(resources)) return fail('resources must be a list')
    for (const [i, r] of resources.entries()) {
      if (typeof r !== 'string' || !isRfc3986Uri(r)) return fail(`resource ${i + 1} is not an RFC 3986 URI`)
    }
  }
  return { ok: true, fields: f as unknown as SiweFields }
}

/**
 * Writes fields as an EIP-4361 message, byte for byte the inverse of `parseSiweMessageStrict` (timestamps as
 * given). Does not validate. To build the app's sign-in message use `buildSignInMessage`.
 */
export function formatSiweMessage(fields: SiweFields): string {
  const lines = [
    `${fields.scheme === undefined ? '' : `${fields.scheme}://`}${fields.domain}${HEADER_SUFFIX}`,
    fields.address,
    '',
  ]
  if (fields.statement !== undefined) lines.push(fields.statement)
  lines.push(
    '',
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
  )
  if (fields.expirationTime !== undefined) lines.push(`Expiration Time: ${fields.expirationTime}`)
  if (fields.notBefore !== undefined) lines.push(`Not Before: ${fields.notBefore}`)
  if (fields.requestId !== undefined) lines.push(`Request ID: ${fields.requestId}`)
  if (fields.resources !== undefined) {
    lines.push('Resources:')
    for (const r of fields.resources) lines.push(`- ${r}`)
  }
  return lines.join('\n')
}
