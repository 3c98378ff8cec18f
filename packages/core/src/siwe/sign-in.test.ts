import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { buildSignInMessage } from './builder.ts'
import { formatSiweMessage, type SiweFields } from './fields.ts'
import { parseRfc3339 } from './grammar.ts'
import { parseSiweMessageStrict } from './parser.ts'
import { checkSiwePolicy } from './policy.ts'
import {
  DOMAIN,
  goodFields,
  MINUTE,
  NONCE,
  NOW,
  ORIGIN,
  type Outcome,
  policy,
  STATEMENT,
  signedSignIn,
  signer,
  signIn,
} from './sign-in-test-helpers.ts'

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
