// The sign-in policy over HTTP (in-process): cross-site requests and floods, and the adversarial sign-in
// cases of docs/security.md ("Adversarial cases: sign-in"). Against a real anvil, real Safes and the test
// database (PGlite, or PostgreSQL with TEST_DATABASE_URL); the setup is the kit's auth bed.
import { buildSignInMessage, LOCAL_CHAIN_ID, signInStatement } from '@guildhall/core'
import type { Hex } from 'viem'
import { numberToHex, parseSignature, serializeSignature } from 'viem'
import { describe, expect, test } from 'vitest'
import parsingNegative from '../../../../packages/core/test-fixtures/siwe/parsing_negative.json' with {
  type: 'json',
}
import {
  ada,
  anvil,
  app,
  ben,
  cookieOf,
  DAO_NAME,
  database,
  envFor,
  freshAccount,
  inMinutes,
  messageFor,
  newNonce,
  nonceRow,
  sessionRows,
  signedEdit,
  signIn,
  useAuthBed,
  verify,
  withLineAfterIssuedAt,
} from '../../testbed/beds/auth.ts'
import { member } from '../../testbed/signers.ts'
import { ORIGIN } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { authNonces } from '../platform/db/schema.ts'

useAuthBed()

describe('cross-site and abuse', () => {
  test('behavior: a cross-site verify → 403; a text body → 415', async () => {
    const { nonce, preauth } = await newNonce()
    const message = messageFor(ada.address, nonce)
    const signature = await ada.signMessage({ message })
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json', cookie: preauth },
      payload: JSON.stringify({ message, signature }),
    })
    expect(crossSite.statusCode).toBe(403)
    const text = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      headers: { origin: ORIGIN, 'content-type': 'text/plain', cookie: preauth },
      payload: JSON.stringify({ message, signature }),
    })
    expect(text.statusCode).toBe(415)
  })

  test('behavior: a nonce flood from one IP → 429', async () => {
    const flood = await buildApp({ settings: { ...envFor(anvil.url), authRateLimitPerMinute: 5 }, database })
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (
          await flood.inject({
            method: 'POST',
            url: '/api/auth/nonce',
            headers: { origin: ORIGIN },
            // A client no other test is: on PostgreSQL the counts of every app on the database are one.
            remoteAddress: '203.0.113.2',
          })
        ).statusCode,
      )
    }
    await flood.close()
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
    expect(statuses.slice(5)).toEqual([429, 429, 429])
  })
})

describe('the sign-in policy over HTTP (adversarial sign-in cases)', () => {
  test.each([
    // Our parser knows only version 1, so a Version: 2 message is refused as malformed before any policy.
    ['Version: 2', (m: string) => m.replace('Version: 1', 'Version: 2'), 'malformed_message', true],
    [
      'an impossible date (2026-02-31)',
      (m: string) => m.replace(/^Issued At: .*$/m, 'Issued At: 2026-02-31T12:00:00Z'),
      'malformed_message',
      true,
    ],
    ['a user@ in the domain', (m: string) => `user@${m}`, 'malformed_message', true],
    ['another scheme', (m: string) => `https://${m}`, 'scheme_mismatch', false],
    ['an expired message', withLineAfterIssuedAt(`Expiration Time: ${inMinutes(-1)}`), 'expired', false],
    [
      'an expiration too far ahead',
      withLineAfterIssuedAt(`Expiration Time: ${inMinutes(60 * 24 * 365)}`),
      'expiration_too_far',
      false,
    ],
    ['a message not valid yet', withLineAfterIssuedAt(`Not Before: ${inMinutes(5)}`), 'not_yet_valid', true],
  ] as const)(
    'parameters: %s → 4xx with its code, no session; the nonce kept only when the signer is not at fault',
    async (_name, edit, code, nonceKept) => {
      const signer = member(9)
      const before = (await sessionRows(signer.address)).length
      const { message, signature, preauth, nonce } = await signedEdit(signer, edit)
      const response = await verify({ message, signature }, preauth)
      expect(response.statusCode).toBe(code === 'malformed_message' ? 400 : 401)
      expect(response.json().error).toBe(code)
      expect(await sessionRows(signer.address)).toHaveLength(before)
      expect((await nonceRow(nonce))?.consumedAt === null).toBe(nonceKept)
    },
  )

  test('parameters: the domain in another case (LOCALHOST:3999 for localhost:3999) → 400, refused by the canonical parser', async () => {
    const localhost = await buildApp({
      settings: envFor(anvil.url, { PUBLIC_ORIGIN: 'http://localhost:3999' }),
      database,
    })
    try {
      const issued = await localhost.inject({
        method: 'POST',
        url: '/api/auth/nonce',
        headers: { origin: 'http://localhost:3999' },
      })
      const nonce = issued.json().nonce as string
      const preauth = cookieOf(issued, 'guildhall_preauth') as string
      const message = buildSignInMessage({
        address: ben.address,
        chainId: LOCAL_CHAIN_ID,
        nonce,
        domain: 'localhost:3999',
        origin: 'http://localhost:3999',
        statement: signInStatement(DAO_NAME),
      }).replace(/^localhost:3999 /, 'LOCALHOST:3999 ')
      const response = await localhost.inject({
        method: 'POST',
        url: '/api/auth/verify',
        headers: { origin: 'http://localhost:3999', 'content-type': 'application/json', cookie: preauth },
        payload: JSON.stringify({ message, signature: await ben.signMessage({ message }) }),
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toBe('malformed_message')
    } finally {
      await localhost.close()
    }
  })

  test('behavior: every string of parsing_negative.json → 400 malformed_message, nonce untouched', async () => {
    const { nonce, preauth } = await newNonce()
    for (const [name, message] of Object.entries(parsingNegative)) {
      const response = await verify({ message, signature: await ada.signMessage({ message }) }, preauth)
      expect(response.statusCode, name).toBe(400)
      expect(response.json().error, name).toBe('malformed_message')
    }
    expect((await nonceRow(nonce))?.consumedAt).toBeNull()
  })

  test.each([
    ['0x', () => '0x'],
    ['64 bytes', (signature: Hex) => signature.slice(0, 2 + 128)],
    ['66 bytes', (signature: Hex) => `${signature}00`],
    ['v = 29', (signature: Hex) => `${signature.slice(0, -2)}1d`],
  ] as const)(
    'parameters: a malformed signature (%s) → 4xx, never 500, no session',
    async (_name, mangle) => {
      const signer = member(9)
      const before = (await sessionRows(signer.address)).length
      const { nonce, preauth } = await newNonce()
      const message = messageFor(signer.address, nonce)
      const response = await verify(
        { message, signature: mangle(await signer.signMessage({ message })) },
        preauth,
      )
      expect(response.statusCode).toBeGreaterThanOrEqual(400)
      expect(response.statusCode).toBeLessThan(500)
      expect(await sessionRows(signer.address)).toHaveLength(before)
    },
  )

  test('behavior: a signature and its high-s twin sent together → exactly one session for the nonce', async () => {
    const signer = freshAccount()
    const { nonce, preauth } = await newNonce()
    const message = messageFor(signer.address, nonce)
    const signature = await signer.signMessage({ message })
    const { r, s, yParity } = parseSignature(signature)
    const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const highS = serializeSignature({
      r,
      s: numberToHex(SECP256K1_N - BigInt(s), { size: 32 }),
      yParity: yParity === 0 ? 1 : 0,
    })
    expect(highS).not.toBe(signature)
    const responses = await Promise.all([
      verify({ message, signature }, preauth),
      verify({ message, signature: highS }, preauth),
    ])
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1)
    expect(responses.every((response) => response.statusCode < 500)).toBe(true)
    expect(await sessionRows(signer.address)).toHaveLength(1)
  })

  test('behavior: a nonce older than 10 minutes → 401 invalid_nonce, no session', async () => {
    const later = await buildApp({
      settings: envFor(anvil.url),
      database,
      now: () => new Date(Date.now() + 11 * 60_000),
    })
    try {
      const signer = freshAccount()
      const { nonce, preauth } = await newNonce()
      const issuedAt = new Date(Date.now() + 11 * 60_000)
      const message = messageFor(signer.address, nonce, { issuedAt })
      const response = await verify(
        { message, signature: await signer.signMessage({ message }) },
        preauth,
        later,
      )
      expect(response.statusCode).toBe(401)
      expect(response.json().error).toBe('invalid_nonce')
      expect(await sessionRows(signer.address)).toHaveLength(0)
    } finally {
      await later.close()
    }
  })

  test('behavior: a session never outlives the Expiration Time the member signed', async () => {
    const signer = freshAccount()
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 60 * 60_000)
    const { message, signature, preauth } = await signedEdit(
      signer,
      withLineAfterIssuedAt(`Expiration Time: ${expires.toISOString()}`),
    )
    const response = await verify({ message, signature }, preauth)
    expect(response.statusCode).toBe(200)
    const [row] = await sessionRows(signer.address)
    expect(row?.absoluteExpiresAt.getTime()).toBe(expires.getTime())
    expect(row?.idleExpiresAt.getTime()).toBe(expires.getTime())
  })

  test('behavior: an old cookie after logout and a tampered cookie → 401 on a signed-in route', async () => {
    const { response } = await signIn(freshAccount())
    const cookie = cookieOf(response, 'guildhall_session') as string
    await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: ORIGIN, cookie } })
    for (const stale of [cookie, `${cookie}x`]) {
      const list = await app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie: stale } })
      expect(list.statusCode).toBe(401)
    }
  })

  test('behavior: a nonce flood cannot grow the table past the nonces of the last 10 minutes', async () => {
    const flooded = await buildApp({
      settings: { ...envFor(anvil.url), authRateLimitPerMinute: 1000 },
      database,
    })
    const later = await buildApp({
      settings: envFor(anvil.url),
      database,
      now: () => new Date(Date.now() + 11 * 60_000),
    })
    try {
      for (let i = 0; i < 200; i++) await newNonce(flooded)
      expect((await database.db.select().from(authNonces)).length).toBeGreaterThanOrEqual(200)
      // The next nonce issued after they expired clears them all out.
      await newNonce(later)
      const left = await database.db.select().from(authNonces)
      expect(left).toHaveLength(1)
    } finally {
      await flooded.close()
      await later.close()
    }
  })
})
