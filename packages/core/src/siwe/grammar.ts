// The RFC 3986 (URI, authority, host) and RFC 3339 (date-time) pieces of the EIP-4361 grammar: what
// the fields' check (fields.ts) and the policy (policy.ts) apply to a domain, a URI or a timestamp.

const UNRESERVED = 'A-Za-z0-9\\-._~'
const SUB_DELIMS = "!$&'()*+,;="
const PCT = '%[0-9A-Fa-f]{2}'
export const SCHEME_RE = /^[A-Za-z][A-Za-z0-9+.-]*$/
const REG_NAME_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*$`)
const USERINFO_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*$`)
const PATH_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@/]|${PCT})*$`)
const QUERY_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@/?]|${PCT})*$`)
export const PCHARS_RE = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})*$`)
const IPVFUTURE_RE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`)
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
export function domainProblem(domain: string): string | null {
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
