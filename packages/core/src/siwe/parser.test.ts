import type { Address } from 'viem'
import { describe, expect, test } from 'vitest'
import negative from '../../test-fixtures/siwe/parsing_negative.json' with { type: 'json' }
import negativeObjects from '../../test-fixtures/siwe/parsing_negative_objects.json' with { type: 'json' }
import positive from '../../test-fixtures/siwe/parsing_positive.json' with { type: 'json' }
import { buildSignInMessage } from './builder.ts'
import { validateSiweFields } from './fields.ts'
import { parseSiweMessageStrict } from './parser.ts'
import { NOW } from './sign-in-test-helpers.ts'

/** A vector's `fields` as our parser returns them (`scheme: null` means absent). */
function expectedFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null))
}

// ------------------------------------------------------------------------------------------------------------

describe('parsing_positive.json (spruceid/siwe vectors)', () => {
  /** Positive vectors our rules refuse on purpose: the brief's "domain = authority without userinfo". */
  const refusedByPolicy: Record<string, string> = {
    'domain is RFC 3986 authority with userinfo': 'domain must not contain userinfo ("user@")',
    'domain is RFC 3986 authority with userinfo and port': 'domain must not contain userinfo ("user@")',
  }
  /**
   * Positive vectors that are valid EIP-4361 but not what our app builds, so the canonical round-trip gate
   * (`createSiweMessage(parseSiweMessage(m)) === m`, the default mode) refuses them:
   * - viem writes timestamps with `toISOString()` (UTC, milliseconds): `...:24Z` and `...-02:00` do not come back;
   * - viem's parser cannot read an IP-literal domain (`[::cafe]`) and its `createSiweMessage` refuses one.
   */
  const notCanonical: Record<string, string> = {
    'timestamp without microseconds': 'not in canonical form',
    'timezone not utc': 'not in canonical form',
    'domain contains optional scheme': 'not in canonical form',
    'scheme is not parsed from elsehwere in message': 'not in canonical form',
    'domain ipv6': "viem's parser reads different fields",
  }

  for (const [name, vector] of Object.entries(positive)) {
    const refused = refusedByPolicy[name]
    if (refused) {
      test(`refuses "${name}" in both modes: ${refused}`, () => {
        expect(parseSiweMessageStrict(vector.message, { canonical: false })).toEqual({
          ok: false,
          reason: refused,
        })
        expect(parseSiweMessageStrict(vector.message)).toEqual({ ok: false, reason: refused })
      })
      continue
    }
    test(`accepts "${name}" with exactly the vector's fields (EIP-4361 mode)`, () => {
      expect(parseSiweMessageStrict(vector.message, { canonical: false })).toEqual({
        ok: true,
        fields: expectedFields(vector.fields),
      })
    })
    const reason = notCanonical[name]
    test(
      reason
        ? `canonical mode refuses "${name}": ${reason}`
        : `canonical mode accepts "${name}" (it round-trips through viem)`,
      () => {
        const result = parseSiweMessageStrict(vector.message)
        if (reason) {
          expect(result.ok).toBe(false)
          expect(!result.ok && result.reason).toContain(reason)
        } else {
          expect(result).toEqual({ ok: true, fields: expectedFields(vector.fields) })
        }
      },
    )
  }
})

describe('parsing_negative.json (spruceid/siwe vectors)', () => {
  for (const [name, message] of Object.entries(negative)) {
    test(`rejects "${name}" in both modes`, () => {
      expect(parseSiweMessageStrict(message, { canonical: false }).ok).toBe(false)
      expect(parseSiweMessageStrict(message).ok).toBe(false)
    })
  }
})

/** Writes a vector object as a message, leaving out the lines of missing fields (what upstream intends). */
function renderObject(o: Record<string, unknown>): string {
  const lines = [
    `${o.domain ?? ''} wants you to sign in with your Ethereum account:`,
    `${o.address ?? ''}`,
    '',
  ]
  if (o.statement !== undefined) lines.push(String(o.statement))
  lines.push('')
  const tags: [string, string][] = [
    ['uri', 'URI: '],
    ['version', 'Version: '],
    ['chainId', 'Chain ID: '],
    ['nonce', 'Nonce: '],
    ['issuedAt', 'Issued At: '],
    ['expirationTime', 'Expiration Time: '],
    ['notBefore', 'Not Before: '],
    ['requestId', 'Request ID: '],
  ]
  for (const [key, tag] of tags) if (o[key] !== undefined) lines.push(`${tag}${o[key]}`)
  if (Array.isArray(o.resources)) lines.push('Resources:', ...o.resources.map((r) => `- ${r}`))
  return lines.join('\n')
}

describe('parsing_negative_objects.json (spruceid/siwe vectors: field objects that must not make a message)', () => {
  for (const [name, object] of Object.entries(negativeObjects)) {
    test(`"${name}": the fields are refused, the message written from them is refused, and the builder throws where it takes that field`, () => {
      const o = object as Record<string, unknown>
      expect(validateSiweFields(o).ok).toBe(false)
      expect(parseSiweMessageStrict(renderObject(o), { canonical: false }).ok).toBe(false)
      // The builder takes domain, address, uri (as origin), chain id and nonce; version, timestamps and
      // resources are not inputs of it (it always writes version 1, issuedAt from a Date, no resources).
      const builderInputs = ['domain', 'address', 'uri', 'chainId', 'nonce']
      const reference: Record<string, unknown> = {
        ...negativeObjects['missing domain'],
        domain: 'service.org',
      }
      if (builderInputs.some((k) => o[k] !== reference[k])) {
        expect(() =>
          buildSignInMessage({
            address: o.address as Address,
            chainId: o.chainId as number,
            nonce: o.nonce as string,
            domain: o.domain as string,
            origin: o.uri as string,
            statement: o.statement as string,
            issuedAt: new Date(NOW),
          }),
        ).toThrow()
      }
    })
  }
})
