/**
 * Sign-In with Ethereum (EIP-4361): a strict parser, the sign-in policy of docs/security.md, and the one
 * builder the web app uses. Pure: no `node:` and no DOM imports (runs in the browser and on the server).
 *
 * Why a parser of our own: viem's `parseSiweMessage` is regex-based and lenient (trailing or injected lines,
 * non-ASCII statements, `2026-02-31` rolled over to 3 March by `Date`), and `@signinwithethereum/siwe-parser` pulls in
 * `apg-js` (a full ABNF runtime) plus a second `@noble/hashes` — too heavy for the browser bundle. The parser below
 * follows the EIP-4361 ABNF line by line, and `canonical` mode (the default) adds the round-trip gate of
 * docs/security.md on top: viem's own `createSiweMessage(parseSiweMessage(message)) === message`, with viem's fields
 * required to equal ours.
 */
import { type Address, checksumAddress, isAddress } from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'

/** Longest SIWE message the API accepts (docs/security.md: message ≤ 2 KiB). */
export const SIWE_MESSAGE_MAX_LENGTH = 2048

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

// ---------------------------------------------------------------------------------------------------------------
// Grammar pieces (RFC 3986, RFC 3339, EIP-4361)

const HEADER_SUFFIX = ' wants you to sign in with your Ethereum account:'
const UNRESERVED = 'A-Za-z0-9\\-._~'
const SUB_DELIMS = "!$&'()*+,;="
const PCT = '%[0-9A-Fa-f]{2}'
const SCHEME_RE = /^[A-Za-z][A-Za-z0-9+.-]*$/
const REG_NAME_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*$`)
const USERINFO_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*$`)
const PATH_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@/]|${PCT})*$`)
const QUERY_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@/?]|${PCT})*$`)
const PCHARS_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})*$`)
const IPVFUTURE_RE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`)
/** `statement = 1*( reserved / unreserved / " " )` — printable ASCII minus `%"<>\^`{|}`, no LF. */
const STATEMENT_RE = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]+$/
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/
const CHAIN_ID_RE = /^(?:0|[1-9][0-9]*)$/
const NONCE_RE = /^[A-Za-z0-9]{8,}$/
const RFC3339_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/

function isIPv4(value: string): boolean {
  const parts = value.split('.')
  return parts.length === 4 && parts.every((p) => /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(p))
}

function isIPv6(value: string): boolean {
  let v = value
  const lastColon = v.lastIndexOf(':')
  if (lastColon === -1) return false
  const tail = v.slice(lastColon + 1)
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false
    v = `${v.slice(0, lastColon + 1)}0:0` // an embedded IPv4 takes the place of two groups
  }
  const group = /^[0-9A-Fa-f]{1,4}$/
  const halves = v.split('::')
  if (halves.length > 2) return false
  if (halves.length === 1) {
    const groups = v.split(':')
    return groups.length === 8 && groups.every((g) => group.test(g))
  }
  const [left = '', right = ''] = halves
  const l = left === '' ? [] : left.split(':')
  const r = right === '' ? [] : right.split(':')
  return l.length + r.length <= 7 && [...l, ...r].every((g) => group.test(g))
}

function isIpLiteral(value: string): boolean {
  if (!value.startsWith('[') || !value.endsWith(']')) return false
  const inner = value.slice(1, -1)
  return isIPv6(inner) || IPVFUTURE_RE.test(inner)
}

/** Splits `host[:port]`; the host may be an IP literal in brackets. */
function splitHostPort(value: string): { host: string; port: string | undefined } | null {
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    if (end === -1) return null
    const rest = value.slice(end + 1)
    if (rest !== '' && !rest.startsWith(':')) return null
    return { host: value.slice(0, end + 1), port: rest === '' ? undefined : rest.slice(1) }
  }
  const colon = value.indexOf(':')
  if (colon === -1) return { host: value, port: undefined }
  return { host: value.slice(0, colon), port: value.slice(colon + 1) }
}

/** RFC 3986 `host` = IP-literal / IPv4address / reg-name (IPv4 is a subset of reg-name syntax). */
function isHost(host: string): boolean {
  return host.startsWith('[') ? isIpLiteral(host) : REG_NAME_RE.test(host)
}

/** Reason the value is not a SIWE domain (RFC 3986 authority, non-empty host, no userinfo), or null. */
function domainProblem(domain: string): string | null {
  if (domain === '') return 'domain is empty'
  if (domain.includes('@')) return 'domain must not contain userinfo ("user@")'
  const hp = splitHostPort(domain)
  if (!hp || hp.host === '' || !isHost(hp.host)) return 'domain is not an RFC 3986 authority'
  if (hp.port !== undefined && !(/^\d{1,5}$/.test(hp.port) && Number(hp.port) <= 65535)) {
    return 'domain has an invalid port'
  }
  return null
}

/** RFC 3986 `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`. */
export function isRfc3986Uri(value: string): boolean {
  const m = /^([^:/?#]+):([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value)
  if (!m) return false
  const [, scheme = '', hier = '', query, fragment] = m
  if (!SCHEME_RE.test(scheme)) return false
  if (query !== undefined && !QUERY_RE.test(query)) return false
  if (fragment !== undefined && !QUERY_RE.test(fragment)) return false
  let path = hier
  if (hier.startsWith('//')) {
    const rest = hier.slice(2)
    const slash = rest.indexOf('/')
    const authority = slash === -1 ? rest : rest.slice(0, slash)
    path = slash === -1 ? '' : rest.slice(slash)
    const at = authority.lastIndexOf('@')
    if (at !== -1 && !USERINFO_RE.test(authority.slice(0, at))) return false
    const hp = splitHostPort(at === -1 ? authority : authority.slice(at + 1))
    if (!hp || !isHost(hp.host)) return false
    if (hp.port !== undefined && !/^\d*$/.test(hp.port)) return false
  }
  return PATH_RE.test(path)
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/**
 * Milliseconds since the epoch of an RFC 3339 `date-time`, or null when it is not one or names a day that does not
 * exist (`2026-02-31`). Narrower than RFC 3339 on purpose: `T` and `Z` upper case only, and no leap second `:60`
 * (JavaScript time cannot represent it).
 */
export function parseRfc3339(value: string): number | null {
  const m = RFC3339_RE.exec(value)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null
  if (hour > 23 || minute > 59 || second > 59) return null
  let offsetMinutes = 0
  if (m[8] !== undefined) {
    const oh = Number(m[9])
    const om = Number(m[10])
    if (oh > 23 || om > 59) return null
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (oh * 60 + om)
  }
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3))
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, ms)
  return date.getTime() - offsetMinutes * 60_000
}

// ---------------------------------------------------------------------------------------------------------------
// Field validation (shared by the parser and the builder)

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
  if (checksumAddress(address as Address) !== address) return fail('address is not EIP-55 checksummed')
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

// ---------------------------------------------------------------------------------------------------------------
// Parser

const REQUIRED_TAGS = ['URI: ', 'Version: ', 'Chain ID: ', 'Nonce: ', 'Issued At: '] as const
const OPTIONAL_TAGS = ['Expiration Time: ', 'Not Before: ', 'Request ID: ', 'Resources:'] as const
const ALL_TAGS: readonly string[] = [...REQUIRED_TAGS, ...OPTIONAL_TAGS]

function tagOf(line: string): string | undefined {
  return ALL_TAGS.find((t) => line.startsWith(t))
}

/** Explains why `line` is not the field tagged `expected` at this position. */
function misplaced(line: string, expected: string, seen: ReadonlySet<string>): string {
  const tag = tagOf(line)
  const name = (t: string) => t.replace(/:\s?$/, '')
  if (tag && seen.has(tag)) return `duplicated field "${name(tag)}"`
  if (tag) return `field "${name(tag)}" is out of order (expected "${name(expected)}")`
  return `unexpected line ${JSON.stringify(line.slice(0, 40))} (expected "${name(expected)}")`
}

function parseStructure(message: string): SiweParseResult {
  if (message.length > SIWE_MESSAGE_MAX_LENGTH) {
    return { ok: false, reason: `message is longer than ${SIWE_MESSAGE_MAX_LENGTH} characters` }
  }
  const cr = message.indexOf('\r')
  if (cr !== -1) return { ok: false, reason: `line endings must be LF only (CR at offset ${cr})` }
  const bad = /[^\x20-\x7e\n]/.exec(message)
  if (bad) {
    const code = bad[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')
    return { ok: false, reason: `character U+${code} at offset ${bad.index} is not printable ASCII` }
  }
  const lines = message.split('\n')
  let i = 0
  const next = () => lines[i++]
  const f: Record<string, unknown> = {}

  const header = next() ?? ''
  if (!header.endsWith(HEADER_SUFFIX)) return { ok: false, reason: 'first line is not the SIWE header' }
  let origin = header.slice(0, -HEADER_SUFFIX.length)
  const schemeSep = origin.indexOf('://')
  if (schemeSep !== -1) {
    f.scheme = origin.slice(0, schemeSep)
    origin = origin.slice(schemeSep + 3)
  }
  f.domain = origin
  f.address = next() ?? ''
  if (next() !== '') return { ok: false, reason: 'address must be followed by an empty line' }
  const maybeStatement = next()
  if (maybeStatement === undefined) return { ok: false, reason: 'message ends after the address' }
  if (maybeStatement !== '') {
    f.statement = maybeStatement
    const blank = next()
    if (blank !== '') {
      return {
        ok: false,
        reason:
          blank === undefined
            ? 'message ends after the statement'
            : 'statement must be one line followed by an empty line',
      }
    }
  }
  const seen = new Set<string>()
  const keys = ['uri', 'version', 'chainId', 'nonce', 'issuedAt'] as const
  for (const [k, tag] of REQUIRED_TAGS.entries()) {
    const line = next()
    if (line === undefined) return { ok: false, reason: `field "${tag.slice(0, -2)}" is missing` }
    if (!line.startsWith(tag)) return { ok: false, reason: misplaced(line, tag, seen) }
    seen.add(tag)
    f[keys[k] as string] = line.slice(tag.length)
  }
  const chainId = f.chainId as string
  if (!CHAIN_ID_RE.test(chainId))
    return { ok: false, reason: 'chain id must be decimal digits without leading zeros' }
  f.chainId = Number(chainId)

  const optionalKeys = ['expirationTime', 'notBefore', 'requestId'] as const
  let nextOptional = 0
  while (i < lines.length) {
    const line = lines[i++] as string
    const tag = tagOf(line)
    const index = tag === undefined ? -1 : OPTIONAL_TAGS.indexOf(tag as (typeof OPTIONAL_TAGS)[number])
    if (tag === undefined || index < nextOptional) {
      if (line === '') return { ok: false, reason: 'empty or trailing line after the fields' }
      return { ok: false, reason: misplaced(line, OPTIONAL_TAGS[nextOptional] ?? 'end of message', seen) }
    }
    seen.add(tag)
    nextOptional = index + 1
    if (tag === 'Resources:') {
      if (line !== 'Resources:') return { ok: false, reason: 'unexpected text after "Resources:"' }
      const resources: string[] = []
      while (i < lines.length) {
        const item = lines[i] as string
        if (!item.startsWith('- ')) break
        resources.push(item.slice(2))
        i++
      }
      f.resources = resources
      continue
    }
    f[optionalKeys[index] as string] = line.slice(tag.length)
  }
  const checked = validateSiweFields(f)
  if (!checked.ok) return checked
  if (formatSiweMessage(checked.fields) !== message) {
    return { ok: false, reason: 'message does not re-serialise to itself' } // defensive: cannot happen
  }
  return checked
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]))

/** The round-trip gate: viem must read the same fields and write the message back byte for byte. */
function canonicalProblem(message: string, fields: SiweFields): string | null {
  try {
    const viem = parseSiweMessage(message)
    const time = (d: Date | undefined) => d?.getTime()
    const ms = (s: string | undefined) => (s === undefined ? undefined : (parseRfc3339(s) ?? undefined))
    const agrees =
      viem.scheme === fields.scheme &&
      viem.domain === fields.domain &&
      viem.address === fields.address &&
      viem.statement === fields.statement &&
      viem.uri === fields.uri &&
      viem.version === fields.version &&
      viem.chainId === fields.chainId &&
      viem.nonce === fields.nonce &&
      time(viem.issuedAt) === ms(fields.issuedAt) &&
      time(viem.expirationTime) === ms(fields.expirationTime) &&
      time(viem.notBefore) === ms(fields.notBefore) &&
      viem.requestId === fields.requestId &&
      sameList(viem.resources, fields.resources)
    if (!agrees) return "viem's parser reads different fields"
    const rebuilt = createSiweMessage({
      ...viem,
      address: viem.address as Address,
      chainId: viem.chainId as number,
      domain: viem.domain as string,
      nonce: viem.nonce as string,
      uri: viem.uri as string,
      version: '1',
    })
    return rebuilt === message ? null : 'not in canonical form (createSiweMessage(parseSiweMessage(m)) !== m)'
  } catch {
    return 'not in canonical form (createSiweMessage refuses its fields)'
  }
}

export interface SiweParseOptions {
  /**
   * Also require the canonical form our app builds: the round-trip gate of docs/security.md (timestamps as
   * `Date.toISOString()`, a domain viem accepts). Default true — the API wants this. False = EIP-4361 only.
   */
  canonical?: boolean
}

/**
 * Parses an EIP-4361 message strictly: printable ASCII and LF only (no CR, no trailing or injected lines), every
 * field once and in ABNF order, calendar-valid RFC 3339 timestamps, domain = RFC 3986 authority without userinfo,
 * EIP-55 address, version `1`, decimal chain id, alphanumeric nonce of 8+, URIs per RFC 3986, a one-line ASCII
 * statement. Never throws.
 */
export function parseSiweMessageStrict(message: string, options: SiweParseOptions = {}): SiweParseResult {
  if (typeof message !== 'string') return { ok: false, reason: 'message must be a string' }
  const parsed = parseStructure(message)
  if (!parsed.ok || options.canonical === false) return parsed
  const problem = canonicalProblem(message, parsed.fields)
  return problem ? { ok: false, reason: problem } : parsed
}

// ---------------------------------------------------------------------------------------------------------------
// Policy

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

function normaliseOrigin(origin: string): string {
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

// ---------------------------------------------------------------------------------------------------------------
// Builder

/**
 * The statement for a DAO: `Sign in to <name>.`, with the name reduced to what the SIWE grammar allows (accents
 * dropped, other characters outside RFC 3986 reserved/unreserved replaced by spaces). Web and API both call this,
 * so the statements are equal.
 */
export function signInStatement(daoName: string): string {
  const name = daoName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
  return name === '' ? 'Sign in.' : `Sign in to ${name}.`
}

export interface SignInMessageInput {
  address: Address
  chainId: number
  nonce: string
  /** The public host, e.g. `dao.example` or `localhost:3000`. */
  domain: string
  /** The public origin; becomes the URI. */
  origin: string
  statement: string
  issuedAt?: Date
}

/**
 * Builds the app's sign-in message with viem's `createSiweMessage` (version 1, no resources) — the only way the
 * app builds one, so the server's canonical parse holds. Throws if the inputs cannot make a valid message.
 */
export function buildSignInMessage(input: SignInMessageInput): string {
  // Lower case carries no checksum; mixed case must be the right one (viem's getAddress would silently fix it).
  if (typeof input.address !== 'string' || !isAddress(input.address, { strict: true })) {
    throw new Error('Cannot build a valid sign-in message: the address is not a valid (EIP-55) address')
  }
  const message = createSiweMessage({
    address: input.address,
    chainId: input.chainId,
    domain: input.domain,
    nonce: input.nonce,
    uri: normaliseOrigin(input.origin),
    version: '1',
    statement: input.statement,
    issuedAt: input.issuedAt ?? new Date(),
  })
  const parsed = parseSiweMessageStrict(message)
  if (!parsed.ok) throw new Error(`Cannot build a valid sign-in message: ${parsed.reason}`)
  const f = parsed.fields
  // createSiweMessage coerces (an undefined nonce becomes the valid nonce "undefined"): insist on our inputs.
  if (
    f.domain !== input.domain ||
    f.chainId !== input.chainId ||
    f.nonce !== input.nonce ||
    f.statement !== input.statement ||
    f.address.toLowerCase() !== String(input.address).toLowerCase()
  ) {
    throw new Error('Cannot build a valid sign-in message: the inputs do not survive as given')
  }
  return message
}
