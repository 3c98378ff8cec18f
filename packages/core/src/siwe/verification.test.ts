import { type Hex, verifyMessage } from 'viem'
import { describe, expect, test } from 'vitest'
import verificationNegative from '../../test-fixtures/siwe/verification_negative.json' with { type: 'json' }
import verificationPositive from '../../test-fixtures/siwe/verification_positive.json' with { type: 'json' }
import { formatSiweMessage, type SiweFields } from './fields.ts'
import { parseSiweMessageStrict } from './parser.ts'
import { checkSiwePolicy, type SiwePolicy } from './policy.ts'
import { type Outcome, signIn } from './sign-in-test-helpers.ts'

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
