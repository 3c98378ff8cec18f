/**
 * Sign-In with Ethereum (EIP-4361), its strict parser. Beside it in siwe/: the grammar's pieces (grammar.ts),
 * the fields (fields.ts), the sign-in policy of docs/security.md (policy.ts) and the one builder the web app
 * uses (builder.ts). Pure: no `node:` and no DOM imports (runs in the browser and on the server).
 *
 * Why a parser of our own: viem's `parseSiweMessage` is regex-based and lenient (trailing or injected lines,
 * non-ASCII statements, `2026-02-31` rolled over to 3 March by `Date`), and `@signinwithethereum/siwe-parser` pulls in
 * `apg-js` (a full ABNF runtime) plus a second `@noble/hashes` — too heavy for the browser bundle. The parser below
 * follows the EIP-4361 ABNF line by line, and `canonical` mode (the default) adds the round-trip gate of
 * docs/security.md on top: viem's own `createSiweMessage(parseSiweMessage(message)) === message`, with viem's fields
 * required to equal ours.
 */

import type { Address } from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import {
  formatSiweMessage,
  HEADER_SUFFIX,
  type SiweFields,
  type SiweParseResult,
  validateSiweFields,
} from './fields.ts'
import { parseRfc3339 } from './grammar.ts'

/** Longest SIWE message the API accepts (docs/security.md: message ≤ 2 KiB). */
export const SIWE_MESSAGE_MAX_LENGTH = 2048
const CHAIN_ID_RE = /^(?:0|[1-9][0-9]*)$/

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
