import fc from 'fast-check'
import { type Address, bytesToHex, checksumAddress, type Hex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import negative from '../test-fixtures/siwe/parsing_negative.json' with { type: 'json' }
import negativeObjects from '../test-fixtures/siwe/parsing_negative_objects.json' with { type: 'json' }
import positive from '../test-fixtures/siwe/parsing_positive.json' with { type: 'json' }
import verificationNegative from '../test-fixtures/siwe/verification_negative.json' with { type: 'json' }
import verificationPositive from '../test-fixtures/siwe/verification_positive.json' with { type: 'json' }
import { verifyRequestSchema } from './api/auth.ts'
import {
  buildSignInMessage,
  checkSiwePolicy,
  formatSiweMessage,
  isRfc3986Uri,
  parseRfc3339,
  parseSiweMessageStrict,
  type SiweFields,
  type SiweParseOptions,
  type SiwePolicy,
  signInStatement,
  validateSiweFields,
} from './siwe.ts'

// ------------------------------------------------------------------------------------------------------------
// Shared set-up: our deployment and one signer (anvil account 1).

const DOMAIN = 'dao.example'
const ORIGIN = 'https://dao.example'
const STATEMENT = signInStatement('Guildhall DAO')
const NOW = Date.parse('2026-03-01T12:00:00.000Z')
const NONCE = 'q8RmV2kP0xYz7LwA'
const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const MINUTE = 60_000

const policy = (overrides: Partial<SiwePolicy> = {}): SiwePolicy => ({
  domain: DOMAIN,
  origin: ORIGIN,
  allowedChainIds: [31337, 31338],
  statement: STATEMENT,
  now: NOW,
  nonce: NONCE,
  ...overrides,
})

/** Fields of the message our web app builds, before any tampering. */
const goodFields = (overrides: Partial<SiweFields> = {}): SiweFields => ({
  domain: DOMAIN,
  address: signer.address,
  statement: STATEMENT,
  uri: ORIGIN,
  version: '1',
  chainId: 31337,
  nonce: NONCE,
  issuedAt: new Date(NOW).toISOString(),
  ...overrides,
})

type Outcome =
  | { stage: 'request'; reason: string }
  | { stage: 'parse'; reason: string }
  | { stage: 'policy'; code: string; nonceStillUsable: boolean }
  | { stage: 'signature' }
  | { stage: 'accepted'; fields: SiweFields }

/** The API's order: request schema → strict parse (400) → policy (401) → signature (401). */
async function signIn(
  message: string,
  signature: string,
  policyOptions: SiwePolicy,
  parseOptions: SiweParseOptions = {},
): Promise<Outcome> {
  const body = verifyRequestSchema.safeParse({ message, signature })
  if (!body.success) return { stage: 'request', reason: body.error.message }
  const parsed = parseSiweMessageStrict(message, parseOptions)
  if (!parsed.ok) return { stage: 'parse', reason: parsed.reason }
  const checked = checkSiwePolicy(parsed.fields, policyOptions)
  if (!checked.ok) return { stage: 'policy', code: checked.code, nonceStillUsable: checked.nonceStillUsable }
  const valid = await verifyMessage({
    address: parsed.fields.address,
    message,
    signature: body.data.signature,
  }).catch(() => false)
  return valid ? { stage: 'accepted', fields: parsed.fields } : { stage: 'signature' }
}

/** Signs `message` with our signer and runs it through the API's stages with our policy. */
async function signedSignIn(message: string, overrides: Partial<SiwePolicy> = {}): Promise<Outcome> {
  return signIn(message, await signer.signMessage({ message }), policy(overrides))
}

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

// ------------------------------------------------------------------------------------------------------------

type VerificationVector = SiweFields & {
  signature: string
  time?: string
  domainBinding?: string
  matchNonce?: string
}

/**
 * Upstream verification semantics: domain/nonce/time as the vector says. The vectors' `time` lies decades from
 * their Issued At, so our freshness windows are opened for them (and tested separately below).
 */
function vectorPolicy(v: VerificationVector): SiwePolicy {
  return {
    domain: v.domainBinding ?? v.domain,
    origin: v.uri,
    allowedChainIds: [v.chainId],
    statement: v.statement ?? '',
    now: v.time ? Date.parse(v.time) : Date.parse(v.issuedAt),
    ...(v.matchNonce ? { nonce: v.matchNonce } : {}),
    maxAgeMs: Number.POSITIVE_INFINITY,
    maxFutureMs: Number.POSITIVE_INFINITY,
    maxExpirationMs: Number.POSITIVE_INFINITY,
  }
}

function vectorMessage(v: VerificationVector): string {
  const { signature: _s, time: _t, domainBinding: _d, matchNonce: _n, ...fields } = v
  return formatSiweMessage(fields)
}

describe('verification_positive.json: strict parse → policy → viem verifyMessage', () => {
  for (const [name, vector] of Object.entries(verificationPositive as Record<string, VerificationVector>)) {
    test(`"${name}" is accepted at every stage`, async () => {
      const outcome = await signIn(vectorMessage(vector), vector.signature, vectorPolicy(vector), {
        canonical: false,
      })
      expect(outcome.stage).toBe('accepted')
    })
  }

  test('our own freshness window (issued within the last 10 minutes) refuses the upstream positives at their own time', () => {
    const codes = Object.values(verificationPositive as Record<string, VerificationVector>).map((v) => {
      const parsed = parseSiweMessageStrict(vectorMessage(v), { canonical: false })
      if (!parsed.ok) throw new Error(parsed.reason)
      const { maxAgeMs: _a, maxFutureMs: _f, maxExpirationMs: _e, ...windows } = vectorPolicy(v)
      const result = checkSiwePolicy(parsed.fields, {
        ...windows,
        now: v.time ? Date.parse(v.time) : Date.now(),
      })
      return result.ok ? 'ok' : result.code
    })
    // "expired message" (time 2020, expiring 2021, issued 2022): a year to expiry is over the 24 h cap, which is
    // checked before the issued-in-the-future rule (checks that burn the nonce come first).
    expect(codes).toEqual([
      'issued_at_too_old',
      'issued_at_too_old',
      'expiration_too_far',
      'issued_at_too_old',
    ])
  })
})

describe('verification_negative.json: each fails at its stage', () => {
  const expected: Record<string, Partial<Outcome>> = {
    'expired message': { stage: 'policy', code: 'expired', nonceStillUsable: false },
    'domain binding': { stage: 'policy', code: 'domain_mismatch', nonceStillUsable: false },
    'custom time': { stage: 'policy', code: 'expired', nonceStillUsable: false },
    'custom nonce': { stage: 'policy', code: 'nonce_mismatch', nonceStillUsable: true },
    // 131 hex digits: not whole bytes, refused by the request schema before parsing.
    'malformed signature': { stage: 'request' },
    'wrong signature': { stage: 'signature' },
    'not yet valid': { stage: 'policy', code: 'not_yet_valid', nonceStillUsable: true },
    'invalid issuedAt': { stage: 'parse', reason: 'issued-at is not a valid RFC 3339 date-time' },
    'invalid notBefore': { stage: 'parse', reason: 'not-before is not a valid RFC 3339 date-time' },
    'invalid expirationTime': { stage: 'parse', reason: 'expiration time is not a valid RFC 3339 date-time' },
  }
  for (const [name, vector] of Object.entries(verificationNegative as Record<string, VerificationVector>)) {
    test(`"${name}" fails at the ${expected[name]?.stage} stage`, async () => {
      expect(expected[name]).toBeDefined()
      const outcome = await signIn(vectorMessage(vector), vector.signature, vectorPolicy(vector), {
        canonical: false,
      })
      expect(outcome).toMatchObject(expected[name] as object)
    })
  }

  test('"malformed signature" would also fail the signature stage if it got that far', async () => {
    const v = (verificationNegative as Record<string, VerificationVector>)[
      'malformed signature'
    ] as VerificationVector
    const valid = await verifyMessage({
      address: v.address,
      message: vectorMessage(v),
      signature: v.signature as Hex,
    }).catch(() => false)
    expect(valid).toBe(false)
  })
})

// ------------------------------------------------------------------------------------------------------------

describe('adversarial sign-in cases', () => {
  const messageWith = (overrides: Partial<SiweFields>) => formatSiweMessage(goodFields(overrides))

  test('the message our app builds, signed by the wallet, is accepted with the signer bound', async () => {
    const message = buildSignInMessage({
      address: signer.address,
      chainId: 31337,
      nonce: NONCE,
      domain: DOMAIN,
      origin: ORIGIN,
      statement: STATEMENT,
      issuedAt: new Date(NOW),
    })
    expect(message).toBe(formatSiweMessage(goodFields()))
    const outcome = await signedSignIn(message)
    expect(outcome).toEqual({ stage: 'accepted', fields: goodFields() })
  })

  test('the same message signed by another key fails at the signature stage', async () => {
    const other = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
    const message = messageWith({})
    const outcome = await signIn(message, await other.signMessage({ message }), policy())
    expect(outcome).toEqual({ stage: 'signature' })
  })

  test('a wrong domain is refused by policy (domain_mismatch) and burns the nonce', async () => {
    expect(await signedSignIn(messageWith({ domain: 'evil.example' }))).toEqual({
      stage: 'policy',
      code: 'domain_mismatch',
      nonceStillUsable: false,
    })
  })

  for (const domain of [
    'DAO.EXAMPLE',
    'Dao.example',
    'dao.example:443',
    'dao.example.evil.com',
    'evil.com:443',
  ]) {
    test(`domain variant "${domain}" is refused by policy (exact, case-sensitive comparison)`, async () => {
      expect(await signedSignIn(messageWith({ domain }))).toEqual({
        stage: 'policy',
        code: 'domain_mismatch',
        nonceStillUsable: false,
      })
    })
  }

  test('domain variant "user@dao.example" is refused by the parser (userinfo)', async () => {
    expect(await signedSignIn(messageWith({ domain: 'user@dao.example' }))).toEqual({
      stage: 'parse',
      reason: 'domain must not contain userinfo ("user@")',
    })
  })

  test('wrong scheme: an http URI against our https origin is refused (uri_mismatch)', async () => {
    expect(await signedSignIn(messageWith({ uri: 'http://dao.example' }))).toMatchObject({
      stage: 'policy',
      code: 'uri_mismatch',
      nonceStillUsable: false,
    })
  })

  test('wrong scheme: an "http://" scheme before the domain is refused (scheme_mismatch)', async () => {
    expect(await signedSignIn(messageWith({ scheme: 'http' }))).toMatchObject({
      stage: 'policy',
      code: 'scheme_mismatch',
      nonceStillUsable: false,
    })
  })

  test('the matching "https://" scheme before the domain is allowed', async () => {
    expect((await signedSignIn(messageWith({ scheme: 'https' }))).stage).toBe('accepted')
  })

  for (const uri of ['https://evil.example', 'https://dao.example/login', 'https://dao.example:8443']) {
    test(`wrong URI "${uri}" is refused (uri_mismatch)`, async () => {
      expect(await signedSignIn(messageWith({ uri }))).toMatchObject({
        stage: 'policy',
        code: 'uri_mismatch',
      })
    })
  }

  test('a configured origin with a trailing slash still means the origin', async () => {
    expect((await signedSignIn(messageWith({}), { origin: 'https://dao.example/' })).stage).toBe('accepted')
  })

  test('http is accepted only on localhost / 127.0.0.1 (development)', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:4173']) {
      const domain = new URL(origin).host
      const outcome = await signedSignIn(messageWith({ domain, uri: origin }), { domain, origin })
      expect(outcome.stage).toBe('accepted')
    }
    const insecure = await signedSignIn(messageWith({ uri: 'http://dao.example' }), {
      origin: 'http://dao.example',
    })
    // Our configuration is at fault, not the signer: the nonce stays usable.
    expect(insecure).toEqual({ stage: 'policy', code: 'insecure_uri', nonceStillUsable: true })
  })

  test('a disallowed chain is refused (chain_not_allowed)', async () => {
    expect(await signedSignIn(messageWith({ chainId: 1 }))).toEqual({
      stage: 'policy',
      code: 'chain_not_allowed',
      nonceStillUsable: false,
    })
  })

  test('"Version: 2" is refused by the parser, and by the policy if fields say so', async () => {
    const message = messageWith({}).replace('Version: 1', 'Version: 2')
    expect(await signedSignIn(message)).toEqual({ stage: 'parse', reason: 'version must be "1"' })
    const fields = { ...goodFields(), version: '2' } as unknown as SiweFields
    expect(checkSiwePolicy(fields, policy())).toMatchObject({ ok: false, code: 'version_unsupported' })
  })

  test('an issuedAt more than 1 minute in the future is refused (issued_at_in_future), nonce still usable', async () => {
    expect(await signedSignIn(messageWith({ issuedAt: new Date(NOW + MINUTE + 1).toISOString() }))).toEqual({
      stage: 'policy',
      code: 'issued_at_in_future',
      nonceStillUsable: true,
    })
    expect((await signedSignIn(messageWith({ issuedAt: new Date(NOW + MINUTE).toISOString() }))).stage).toBe(
      'accepted',
    )
  })

  test('an issuedAt more than 10 minutes old is refused (issued_at_too_old), nonce burnt', async () => {
    expect(
      await signedSignIn(messageWith({ issuedAt: new Date(NOW - 10 * MINUTE - 1).toISOString() })),
    ).toEqual({
      stage: 'policy',
      code: 'issued_at_too_old',
      nonceStillUsable: false,
    })
    expect(
      (await signedSignIn(messageWith({ issuedAt: new Date(NOW - 10 * MINUTE).toISOString() }))).stage,
    ).toBe('accepted')
  })

  test('an issuedAt of 2026-02-31 is refused by the parser (no such day), though Date would roll it to 3 March', async () => {
    expect(new Date('2026-02-31T12:00:00.000Z').toISOString()).toBe('2026-03-03T12:00:00.000Z')
    expect(await signedSignIn(messageWith({ issuedAt: '2026-02-31T12:00:00.000Z' }))).toEqual({
      stage: 'parse',
      reason: 'issued-at is not a valid RFC 3339 date-time',
    })
    expect(parseRfc3339('2028-02-29T00:00:00Z')).not.toBeNull()
    expect(parseRfc3339('2100-02-29T00:00:00Z')).toBeNull()
    expect(parseRfc3339('2026-04-31T00:00:00Z')).toBeNull()
    expect(parseRfc3339('2026-03-01T24:00:00Z')).toBeNull()
    expect(parseRfc3339('2026-03-01T23:59:60Z')).toBeNull()
    expect(parseRfc3339('2026-03-01t12:00:00z')).toBeNull()
  })

  test('an expired message is refused (expired), nonce burnt; Expiration Time equal to now counts as expired', async () => {
    expect(await signedSignIn(messageWith({ expirationTime: new Date(NOW - 1).toISOString() }))).toEqual({
      stage: 'policy',
      code: 'expired',
      nonceStillUsable: false,
    })
    expect(await signedSignIn(messageWith({ expirationTime: new Date(NOW).toISOString() }))).toMatchObject({
      code: 'expired',
    })
    expect((await signedSignIn(messageWith({ expirationTime: new Date(NOW + 1).toISOString() }))).stage).toBe(
      'accepted',
    )
  })

  test('an Expiration Time beyond the cap is refused (expiration_too_far)', async () => {
    const far = messageWith({ expirationTime: new Date(NOW + 24 * 60 * MINUTE + 1).toISOString() })
    expect(await signedSignIn(far)).toEqual({
      stage: 'policy',
      code: 'expiration_too_far',
      nonceStillUsable: false,
    })
    expect(await signedSignIn(far, { maxExpirationMs: 2 * 24 * 60 * MINUTE })).toMatchObject({
      stage: 'accepted',
    })
    expect(await signedSignIn(far, { maxExpirationMs: 5 * MINUTE })).toMatchObject({
      code: 'expiration_too_far',
    })
  })

  test('a not-yet-valid message is refused (not_yet_valid), nonce still usable; valid from Not Before on', async () => {
    const message = messageWith({ notBefore: new Date(NOW + 1).toISOString() })
    expect(await signedSignIn(message)).toEqual({
      stage: 'policy',
      code: 'not_yet_valid',
      nonceStillUsable: true,
    })
    expect((await signedSignIn(message, { now: NOW + 1 })).stage).toBe('accepted')
  })

  test('another nonce than the one issued to this client is refused (nonce_mismatch), our nonce still usable', async () => {
    expect(await signedSignIn(messageWith({ nonce: 'Zz9Zz9Zz9Zz9' }))).toEqual({
      stage: 'policy',
      code: 'nonce_mismatch',
      nonceStillUsable: true,
    })
  })

  test('another statement, a missing statement, resources or a request id are refused', async () => {
    expect(await signedSignIn(messageWith({ statement: 'Sign in to Evil DAO.' }))).toMatchObject({
      code: 'statement_mismatch',
    })
    const { statement: _s, ...noStatement } = goodFields()
    expect(await signedSignIn(formatSiweMessage(noStatement))).toMatchObject({ code: 'statement_mismatch' })
    expect(await signedSignIn(messageWith({ resources: ['https://dao.example/admin'] }))).toMatchObject({
      code: 'resources_not_allowed',
    })
    expect(await signedSignIn(messageWith({ resources: [] }))).toMatchObject({
      code: 'resources_not_allowed',
    })
    expect(await signedSignIn(messageWith({ requestId: 'abc' }))).toMatchObject({
      code: 'request_id_not_allowed',
    })
  })

  for (const [label, suffix] of [
    ['a trailing LF', '\n'],
    ['a trailing empty line pair', '\n\n'],
    ['a trailing unknown line', '\nRole: admin'],
    ['a trailing resource line without "Resources:"', '\n- https://dao.example/admin'],
    ['a trailing line after the resources', '\nResources:\n- https://dao.example/admin\nRole: admin'],
  ] as const) {
    test(`trailing lines are refused by the parser: ${label}`, async () => {
      expect(await signedSignIn(messageWith({}) + suffix)).toMatchObject({ stage: 'parse' })
    })
  }

  test('an injected line between fields is refused by the parser', async () => {
    const message = messageWith({}).replace('\nVersion: 1', '\nAdmin: true\nVersion: 1')
    expect(await signedSignIn(message)).toMatchObject({
      stage: 'parse',
      reason: expect.stringContaining('unexpected'),
    })
  })

  test('CRLF line endings are refused by the parser', async () => {
    const message = messageWith({}).replaceAll('\n', '\r\n')
    expect(await signedSignIn(message)).toMatchObject({
      stage: 'parse',
      reason: expect.stringContaining('LF only'),
    })
    // A lone CR at the end too.
    expect(await signedSignIn(`${messageWith({})}\r`)).toMatchObject({ stage: 'parse' })
  })

  for (const [label, statement] of [
    ['an accented letter', 'Sign in to Café DAO.'],
    ['a right-to-left override', 'Sign in to \u202eOAD liveE.'],
    ['a zero-width space', 'Sign in to Guildhall\u200b DAO.'],
    ['a tab', 'Sign in to\tGuildhall DAO.'],
  ] as const) {
    test(`a non-ASCII or control character in the statement is refused by the parser: ${label}`, async () => {
      expect(await signedSignIn(messageWith({ statement }))).toMatchObject({
        stage: 'parse',
        reason: expect.stringContaining('is not printable ASCII'),
      })
    })
  }

  for (const [label, tag, line] of [
    ['Nonce', '\nIssued At:', `\nNonce: ${NONCE}`],
    ['URI', '\nVersion:', `\nURI: ${ORIGIN}`],
    ['Chain ID', '\nNonce:', '\nChain ID: 31337'],
  ] as const) {
    test(`a duplicated "${label}" field is refused by the parser`, async () => {
      const message = messageWith({}).replace(tag, `${line}${tag}`)
      expect(await signedSignIn(message)).toEqual({ stage: 'parse', reason: `duplicated field "${label}"` })
    })
  }

  test('duplicated optional fields (Expiration Time, Not Before) are refused by the parser', async () => {
    const exp = `\nExpiration Time: ${new Date(NOW + MINUTE).toISOString()}`
    expect(await signedSignIn(messageWith({}) + exp + exp)).toEqual({
      stage: 'parse',
      reason: 'duplicated field "Expiration Time"',
    })
    const nb = `\nNot Before: ${new Date(NOW).toISOString()}`
    expect(await signedSignIn(messageWith({}) + nb + nb)).toEqual({
      stage: 'parse',
      reason: 'duplicated field "Not Before"',
    })
  })

  test('a message over 2048 characters is refused by the request schema and by the parser', async () => {
    const long = messageWith({ statement: 'a'.repeat(2100) })
    expect(await signedSignIn(long)).toMatchObject({ stage: 'request' })
    expect(parseSiweMessageStrict(long)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('longer'),
    })
  })

  test('malformed signatures fail before or at the signature stage, never by throwing', async () => {
    const message = messageWith({})
    const good = await signer.signMessage({ message })
    const cases: [string, Outcome['stage']][] = [
      ['0x', 'signature'], // empty bytes pass the schema (a Safe's approved message), fail ECDSA
      ['0xzz', 'request'],
      [good.slice(2), 'request'],
      [good.slice(0, 2 + 128), 'signature'], // 64 bytes
      [`${good}00`, 'signature'], // 66 bytes
      [`${good.slice(0, -2)}1d`, 'signature'], // v = 29
      [`0x${'ab'.repeat(4097)}`, 'request'], // over 4096 bytes
    ]
    for (const [signature, stage] of cases) {
      expect((await signIn(message, signature, policy())).stage, signature.slice(0, 20)).toBe(stage)
    }
  })
})

describe('signInStatement and buildSignInMessage', () => {
  test('the statement is "Sign in to <DAO name>." reduced to the SIWE statement alphabet', () => {
    expect(signInStatement('Guildhall DAO')).toBe('Sign in to Guildhall DAO.')
    expect(signInStatement('Café "Crème" DAO')).toBe('Sign in to Cafe Creme DAO.')
    expect(signInStatement('日本')).toBe('Sign in.')
  })

  test('buildSignInMessage refuses a statement the grammar does not allow and an empty one', () => {
    const input = {
      address: signer.address,
      chainId: 31337,
      nonce: NONCE,
      domain: DOMAIN,
      origin: ORIGIN,
      statement: STATEMENT,
      issuedAt: new Date(NOW),
    }
    expect(() => buildSignInMessage({ ...input, statement: 'Sign in to Café.' })).toThrow(/printable ASCII/)
    expect(() => buildSignInMessage({ ...input, statement: '' })).toThrow()
    expect(() => buildSignInMessage({ ...input, nonce: undefined as unknown as string })).toThrow()
  })

  test('a lower-case address is written EIP-55 checksummed', () => {
    const message = buildSignInMessage({
      address: signer.address.toLowerCase() as Address,
      chainId: 31337,
      nonce: NONCE,
      domain: DOMAIN,
      origin: ORIGIN,
      statement: STATEMENT,
      issuedAt: new Date(NOW),
    })
    expect(message.split('\n')[1]).toBe(signer.address)
  })

  test('isRfc3986Uri follows RFC 3986', () => {
    for (const ok of [
      'https://a.b/c?d#e',
      'urn:isbn:0451450523',
      'https://[::1]:8080/',
      'ipfs://Qm1',
      'a:',
    ]) {
      expect(isRfc3986Uri(ok), ok).toBe(true)
    }
    for (const bad of [
      ':x',
      'https://a b',
      'https://a/%zz',
      'https://[::g]/',
      '1http://a',
      'https://a/#x#y',
    ]) {
      expect(isRfc3986Uri(bad), bad).toBe(false)
    }
  })
})

// ------------------------------------------------------------------------------------------------------------
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
