import fc from 'fast-check'
import { bytesToHex, checksumAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { buildSignInMessage, signInStatement } from './builder.ts'
import { formatSiweMessage, type SiweFields } from './fields.ts'
import { parseSiweMessageStrict } from './parser.ts'
import { checkSiwePolicy } from './policy.ts'
import { DOMAIN, goodFields, MINUTE, NOW, policy, signer } from './sign-in-test-helpers.ts'

// Property tests

const addressArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => checksumAddress(bytesToHex(b)))
const nonceArb = fc.stringMatching(/^[A-Za-z0-9]{8,32}$/)
const portArb = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })
const ipv4Arb = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'))
/** Domains viem's createSiweMessage accepts (what our app can build). */
const appDomainArb = fc
  .tuple(fc.oneof(fc.domain(), ipv4Arb, fc.constant('localhost')), portArb)
  .map(([host, port]) => (port === undefined ? host : `${host}:${port}`))
  .filter((d) => {
    try {
      buildSignInMessage({
        address: '0x0000000000000000000000000000000000000000',
        chainId: 1,
        nonce: 'abcdefgh',
        domain: d,
        origin: 'https://x.example',
        statement: 'x',
      })
      return true
    } catch {
      return false
    }
  })
const dateArb = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
})
const appInputArb = fc.record({
  address: addressArb,
  chainId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  nonce: nonceArb,
  domain: appDomainArb,
  origin: fc.oneof(
    fc.webUrl().map((u) => new URL(u).origin),
    fc.constant('http://localhost:3000'),
  ),
  statement: fc.string({ unit: 'grapheme', maxLength: 40 }).map(signInStatement),
  issuedAt: dateArb,
})

/** RFC 3339 date-times in every written form (fractions, offsets), calendar-valid. */
const rfc3339Arb = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
    h: fc.nat(23),
    mi: fc.nat(59),
    s: fc.nat(59),
    frac: fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
    offset: fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.nat(23), fc.nat(59))
        .map(([sg, h, m]) => `${sg}${p2(h)}:${p2(m)}`),
    ),
  })
  .filter(
    ({ y, mo, d }) =>
      d <= new Date(Date.UTC(2000, mo, 0)).getUTCDate() && !(mo === 2 && d === 29 && !leap(y)),
  )
  .map(
    ({ y, mo, d, h, mi, s, frac, offset }) =>
      `${String(y).padStart(4, '0')}-${p2(mo)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(s)}${frac === undefined ? '' : `.${frac}`}${offset}`,
  )
function p2(n: number): string {
  return String(n).padStart(2, '0')
}
function leap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
}

/** Any EIP-4361 fields (spec mode), including forms our app never writes. */
const specFieldsArb: fc.Arbitrary<SiweFields> = fc
  .record(
    {
      scheme: fc.stringMatching(/^[a-z][a-z0-9+.-]{0,6}$/),
      domain: fc
        .tuple(
          fc.oneof(fc.domain(), ipv4Arb, fc.constant('[::1]'), fc.constant('[2001:db8::8a2e:370:7334]')),
          portArb,
        )
        .map(([host, port]) => (port === undefined ? host : `${host}:${port}`)),
      address: addressArb,
      statement: fc.stringMatching(/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]{1,60}$/),
      uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
      version: fc.constant('1' as const),
      chainId: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
      nonce: nonceArb,
      issuedAt: rfc3339Arb,
      expirationTime: rfc3339Arb,
      notBefore: rfc3339Arb,
      requestId: fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]{0,20}$/),
      resources: fc.array(fc.webUrl(), { maxLength: 3 }),
    },
    { requiredKeys: ['domain', 'address', 'uri', 'version', 'chainId', 'nonce', 'issuedAt'] },
  )
  .filter((f) => formatSiweMessage(f).length <= 2048)

type Mutation =
  | { kind: 'insert char'; at: number; char: string }
  | { kind: 'delete char'; at: number }
  | { kind: 'insert line'; at: number; line: string }
  | { kind: 'swap lines'; a: number; b: number }
  | { kind: 'domain case'; at: number }

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert char' as const),
    at: fc.nat(),
    char: fc.oneof(
      fc.constantFrom('\n', '\r', ' ', '\t', '\u00a0', '\u202e', '\u200b', 'a', '0', ':', '-'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
  }),
  fc.record({ kind: fc.constant('delete char' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert line' as const),
    at: fc.nat(),
    line: fc.oneof(
      fc.constantFrom(
        '',
        'Nonce: 12345678',
        'Version: 1',
        'Resources:',
        '- https://evil.example',
        'Chain ID: 1',
      ),
      fc.string(),
    ),
  }),
  fc.record({ kind: fc.constant('swap lines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('domain case' as const), at: fc.nat() }),
)

function mutate(message: string, domain: string, m: Mutation): string {
  const lines = message.split('\n')
  switch (m.kind) {
    case 'insert char': {
      const at = m.at % (message.length + 1)
      return message.slice(0, at) + m.char + message.slice(at)
    }
    case 'delete char': {
      const at = m.at % message.length
      return message.slice(0, at) + message.slice(at + 1)
    }
    case 'insert line': {
      lines.splice(m.at % (lines.length + 1), 0, m.line)
      return lines.join('\n')
    }
    case 'swap lines': {
      const a = m.a % lines.length
      const b = m.b % lines.length
      ;[lines[a], lines[b]] = [lines[b] as string, lines[a] as string]
      return lines.join('\n')
    }
    case 'domain case': {
      const letters = [...domain].flatMap((c, i) => (/[a-z]/i.test(c) ? [i] : []))
      if (letters.length === 0) return message
      const i = letters[m.at % letters.length] as number
      const c = domain[i] as string
      const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()
      return message.replace(domain, domain.slice(0, i) + flipped + domain.slice(i + 1))
    }
  }
}

describe('properties (fast-check)', () => {
  test('build → parse gives back exactly the inputs, and our policy accepts them', () => {
    fc.assert(
      fc.property(appInputArb, (input) => {
        const message = buildSignInMessage(input)
        const parsed = parseSiweMessageStrict(message)
        expect(parsed).toEqual({
          ok: true,
          fields: {
            domain: input.domain,
            address: input.address,
            statement: input.statement,
            uri: input.origin,
            version: '1',
            chainId: input.chainId,
            nonce: input.nonce,
            issuedAt: input.issuedAt.toISOString(),
          },
        })
        if (!parsed.ok) return
        const verdict = checkSiwePolicy(parsed.fields, {
          domain: input.domain,
          origin: input.origin,
          allowedChainIds: [input.chainId],
          statement: input.statement,
          now: input.issuedAt,
          nonce: input.nonce,
        })
        expect(verdict.ok || verdict.code === 'insecure_uri').toBe(true)
        expect(verdict.ok).toBe(
          input.origin.startsWith('https:') || /^http:\/\/(localhost|127\.0\.0\.1)(:|$)/.test(input.origin),
        )
      }),
      { numRuns: 300 },
    )
  })

  test('any EIP-4361 fields → format → parse (EIP-4361 mode) gives back identical fields', () => {
    fc.assert(
      fc.property(specFieldsArb, (fields) => {
        expect(parseSiweMessageStrict(formatSiweMessage(fields), { canonical: false })).toEqual({
          ok: true,
          fields,
        })
      }),
      { numRuns: 300 },
    )
  })

  test('a mutated message (char/line inserted or deleted, lines swapped, domain case changed) is rejected or parses to other fields, never throws', () => {
    fc.assert(
      fc.property(appInputArb, mutationArb, fc.boolean(), (input, mutation, canonical) => {
        const original = buildSignInMessage(input)
        const mutated = mutate(original, input.domain, mutation)
        fc.pre(mutated !== original)
        const before = parseSiweMessageStrict(original, { canonical })
        const after = parseSiweMessageStrict(mutated, { canonical })
        expect(before.ok).toBe(true)
        if (after.ok && before.ok) expect(after.fields).not.toEqual(before.fields)
        if (after.ok && mutation.kind === 'domain case') {
          const verdict = checkSiwePolicy(after.fields, {
            domain: input.domain,
            origin: input.origin,
            allowedChainIds: [input.chainId],
            statement: input.statement,
            now: input.issuedAt,
          })
          expect(verdict).toMatchObject({ ok: false, code: 'domain_mismatch' })
        }
      }),
      { numRuns: 1000 },
    )
  })

  test('arbitrary strings and line soups never make the parser throw', () => {
    const tagLine = fc.oneof(
      fc.constantFrom(
        'URI: https://a.b',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: 12345678',
        'Resources:',
        '- x:y',
        '',
      ),
      fc.constant(`${DOMAIN} wants you to sign in with your Ethereum account:`),
      fc.constant(signer.address),
      fc.constant(`Issued At: ${new Date(NOW).toISOString()}`),
      fc.string({ unit: 'binary', maxLength: 30 }),
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          fc.array(tagLine, { maxLength: 16 }).map((l) => l.join('\n')),
        ),
        fc.boolean(),
        (message, canonical) => {
          const result = parseSiweMessageStrict(message, { canonical })
          if (result.ok) expect(formatSiweMessage(result.fields)).toBe(message)
        },
      ),
      { numRuns: 1000 },
    )
  })

  test('the issuedAt window is exactly now − 10 min … now + 1 min', () => {
    fc.assert(
      fc.property(fc.integer({ min: -30 * MINUTE, max: 30 * MINUTE }), (offset) => {
        const fields = goodFields({ issuedAt: new Date(NOW + offset).toISOString() })
        const verdict = checkSiwePolicy(fields, policy())
        expect(verdict.ok).toBe(offset >= -10 * MINUTE && offset <= MINUTE)
      }),
    )
  })
})
