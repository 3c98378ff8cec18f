import { gzipSync } from 'node:zlib'
// Sign-in and sessions over HTTP (in-process), against a real anvil, real Safes and the test database
// (PGlite, or PostgreSQL with TEST_DATABASE_URL). Cases from docs/security.md, "Adversarial cases: sign-in".
import { buildSignInMessage, LOCAL_CHAIN_ID, signInStatement } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort } from '@guildhall/devchain/anvil'
import {
  deploySafes,
  type SafeDeployment,
  signMessageAsSafe,
  signMessageAsUndeployedSafe,
} from '@guildhall/devchain/safe'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { type Hex, numberToHex, type PrivateKeyAccount, parseSignature, serializeSignature } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import parsingNegative from '../../../../packages/core/test-fixtures/siwe/parsing_negative.json' with {
  type: 'json',
}
import { buildApp } from '../app.ts'
import { startChain, testEnv } from '../demo/local-chain.ts'
import type { Database } from '../platform/db/client.ts'
import { authNonces, sessions } from '../platform/db/schema.ts'
import { testDatabase } from '../platform/db/test-database.ts'
import { parseEnv } from '../settings/env.ts'

const ORIGIN = 'http://127.0.0.1:3999'
const DAO_NAME = 'Guildhall Test DAO'
const account = (i: number) => privateKeyToAccount(anvilAccounts[i]?.privateKey as Hex)
/** An EOA no other test uses. */
const freshAccount = () => privateKeyToAccount(generatePrivateKey())
const ada = account(1)
const ben = account(2)

let anvil: AnvilInstance
let safes: SafeDeployment
let database: Database
let app: FastifyInstance
/** Same database, but its chain node is down. */
let appChainDown: FastifyInstance

const envFor = (rpcUrl: string, env: Record<string, string> = {}) =>
  parseEnv({
    PUBLIC_ORIGIN: ORIGIN,
    DAO_NAME,
    ...testEnv(rpcUrl),
    // High enough for this whole file; the flood test builds its own app with a low limit.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    ...env,
  })

beforeAll(async () => {
  anvil = await startChain()
  safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  database = await testDatabase()
  app = await buildApp({ settings: envFor(anvil.url), database })
  appChainDown = await buildApp({ settings: envFor(`http://127.0.0.1:${await getFreePort()}`), database })
}, 60_000)

afterAll(async () => {
  await app?.close()
  await appChainDown?.close()
  await database?.close()
  await anvil?.stop()
})

const jsonHeaders = { origin: ORIGIN, 'content-type': 'application/json' }

/** name=value of a Set-Cookie header. */
function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name)
  return cookie ? `${cookie.name}=${cookie.value}` : undefined
}

async function newNonce(server = app) {
  const response = await server.inject({
    method: 'POST',
    url: '/api/auth/nonce',
    headers: { origin: ORIGIN },
  })
  expect(response.statusCode).toBe(200)
  return {
    nonce: response.json().nonce as string,
    preauth: cookieOf(response, 'guildhall_preauth') as string,
  }
}

// Not testbed/sign-in.ts: these tests run the app in process (app.inject, not fetch) and alter the
// message field by field, which that helper's fixed message does not allow.
function messageFor(
  address: Hex,
  nonce: string,
  overrides: { domain?: string; origin?: string; chainId?: number; issuedAt?: Date } = {},
) {
  return buildSignInMessage({
    address,
    chainId: overrides.chainId ?? LOCAL_CHAIN_ID,
    nonce,
    domain: overrides.domain ?? new URL(ORIGIN).host,
    origin: overrides.origin ?? ORIGIN,
    statement: signInStatement(DAO_NAME),
    issuedAt: overrides.issuedAt ?? new Date(),
  })
}

function verify(body: unknown, cookie: string | undefined, server = app) {
  return server.inject({
    method: 'POST',
    url: '/api/auth/verify',
    headers: { ...jsonHeaders, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  })
}

/** A full EOA sign-in; returns the verify response and the message. */
async function signIn(signer: PrivateKeyAccount = ada) {
  const { nonce, preauth } = await newNonce()
  const message = messageFor(signer.address, nonce)
  const signature = await signer.signMessage({ message })
  return { response: await verify({ message, signature }, preauth), message, signature, preauth, nonce }
}

const session = (cookie: string | undefined) =>
  app.inject({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} })

const sessionRows = async (address: string) =>
  (await database.db.select().from(sessions)).filter((s) => s.address === address)

describe('sign-in', () => {
  test('behavior: a valid sign-in → 200, a session cookie, one session, the nonce consumed', async () => {
    const signer = account(5)
    const { response, nonce } = await signIn(signer)
    expect(response.statusCode).toBe(200)
    expect(response.json().session).toMatchObject({ address: signer.address, chainId: LOCAL_CHAIN_ID })
    const cookie = response.cookies.find((c) => c.name === 'guildhall_session')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    expect((await session(cookieOf(response, 'guildhall_session'))).json().session.address).toBe(
      signer.address,
    )
    expect(await sessionRows(signer.address)).toHaveLength(1)
    const [row] = (await database.db.select().from(authNonces)).filter((n) => n.nonce === nonce)
    expect(row?.consumedAt).toBeInstanceOf(Date)
  })

  test('behavior: the same message replayed → 401, nothing stored', async () => {
    const signer = account(6)
    const { message, signature, preauth } = await signIn(signer)
    const replay = await verify({ message, signature }, preauth)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().error).toBe('invalid_nonce')
    expect(await sessionRows(signer.address)).toHaveLength(1)
  })

  test('behavior: 20 concurrent verifies of one message → exactly one 200, one session', async () => {
    const signer = account(7)
    const { nonce, preauth } = await newNonce()
    const message = messageFor(signer.address, nonce)
    const signature = await signer.signMessage({ message })
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => verify({ message, signature }, preauth)),
    )
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 401)).toBe(true)
    expect(await sessionRows(signer.address)).toHaveLength(1)
  })

  test('behavior: a nonce presented with another pre-auth cookie → 401, the nonce still usable by its owner', async () => {
    const signer = account(8)
    const { nonce, preauth } = await newNonce()
    const { preauth: other } = await newNonce()
    const message = messageFor(signer.address, nonce)
    const signature = await signer.signMessage({ message })
    expect((await verify({ message, signature }, other)).statusCode).toBe(401)
    expect((await verify({ message, signature }, undefined)).statusCode).toBe(401)
    expect((await verify({ message, signature }, preauth)).statusCode).toBe(200)
  })

  test('behavior: an unknown nonce → 401', async () => {
    const { preauth } = await newNonce()
    const message = messageFor(ben.address, 'a1b2c3d4e5f6a7b8')
    expect(
      (await verify({ message, signature: await ben.signMessage({ message }) }, preauth)).statusCode,
    ).toBe(401)
  })

  test.each([
    ['another domain', { domain: 'dao.example.evil.com' }, 'domain_mismatch'],
    ['the domain with a port it does not have', { domain: '127.0.0.1:443' }, 'domain_mismatch'],
    ['another URI', { origin: 'http://127.0.0.1:4000' }, 'uri_mismatch'],
    ['a chain the app does not allow', { chainId: 1 }, 'chain_not_allowed'],
    ['an issued-at 11 minutes old', { issuedAt: new Date(Date.now() - 11 * 60_000) }, 'issued_at_too_old'],
    ['an issued-at 2 minutes ahead', { issuedAt: new Date(Date.now() + 2 * 60_000) }, 'issued_at_in_future'],
  ] as const)(
    'parameters: a message with %s → 401 with its code, no session',
    async (_name, overrides, code) => {
      const signer = account(9)
      const before = (await sessionRows(signer.address)).length
      const { nonce, preauth } = await newNonce()
      const message = messageFor(signer.address, nonce, overrides)
      const response = await verify({ message, signature: await signer.signMessage({ message }) }, preauth)
      expect(response.statusCode).toBe(401)
      expect(response.json().error).toBe(code)
      expect(await sessionRows(signer.address)).toHaveLength(before)
    },
  )

  test('behavior: a malformed message (trailing line, CRLF) → 400 before any signature work', async () => {
    const { nonce, preauth } = await newNonce()
    const good = messageFor(ada.address, nonce)
    for (const message of [`${good}\nInjected: yes`, good.replaceAll('\n', '\r\n')]) {
      const response = await verify({ message, signature: await ada.signMessage({ message }) }, preauth)
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toBe('malformed_message')
    }
  })

  test('behavior: a signature from another key → 401', async () => {
    const { nonce, preauth } = await newNonce()
    const message = messageFor(ada.address, nonce)
    const response = await verify({ message, signature: await ben.signMessage({ message }) }, preauth)
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toBe('bad_signature')
  })

  test.each([
    ['not hex', 'not-a-signature'],
    ['odd length', '0x123'],
    ['an unknown field', null],
  ])('parameters: a malformed request (%s) → 400', async (_name, signature) => {
    const { nonce, preauth } = await newNonce()
    const message = messageFor(ada.address, nonce)
    const body = signature === null ? { message, signature: '0x', extra: 1 } : { message, signature }
    expect((await verify(body, preauth)).statusCode).toBe(400)
  })

  test('behavior: a 10 MB body → 413, never 500', async () => {
    const { preauth } = await newNonce()
    const response = await verify({ message: 'x', signature: `0x${'00'.repeat(5_000_000)}` }, preauth)
    expect(response.statusCode).toBe(413)
  })

  test('behavior: a small gzip body that inflates past the limit → 413, never 500', async () => {
    const { preauth } = await newNonce()
    const inflated = JSON.stringify({ message: 'x', signature: `0x${'00'.repeat(5_000_000)}` })
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      headers: { ...jsonHeaders, cookie: preauth ?? '', 'content-encoding': 'gzip' },
      payload: gzipSync(inflated),
    })
    expect(response.statusCode).toBe(413)
  })

  test('behavior: an EOA signs in even with the chain node down, without waiting on it', async () => {
    const signer = account(3)
    const { nonce, preauth } = await newNonce(appChainDown)
    const message = messageFor(signer.address, nonce)
    const started = performance.now()
    const response = await verify(
      { message, signature: await signer.signMessage({ message }) },
      preauth,
      appChainDown,
    )
    expect(response.statusCode).toBe(200)
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe('sign-in with a Safe (ERC-1271)', () => {
  test('behavior: a 1-of-1 Safe signs in', async () => {
    const safe = safes.oneOfOne.address
    const { nonce, preauth } = await newNonce()
    const message = messageFor(safe, nonce)
    const signature = await signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], message })
    const response = await verify({ message, signature }, preauth)
    expect(response.statusCode).toBe(200)
    expect(response.json().session.address).toBe(safe)
  })

  test('behavior: with the chain down a Safe gets 503 with Retry-After, and its nonce stays usable', async () => {
    const safe = safes.twoOfThree.address
    const { nonce, preauth } = await newNonce()
    const message = messageFor(safe, nonce)
    const signature = await signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada, ben], message })
    const down = await verify({ message, signature }, preauth, appChainDown)
    expect(down.statusCode).toBe(503)
    expect(down.headers['retry-after']).toBe('5')
    expect(await sessionRows(safe)).toHaveLength(0)
    const retried = await verify({ message, signature }, preauth)
    expect(retried.statusCode).toBe(200)
  })
  test('behavior: a counterfactual (not yet deployed) Safe signs in with an ERC-6492 signature', async () => {
    const undeployed = { owners: [ada.address], threshold: 1, saltNonce: 4361n, chainId: LOCAL_CHAIN_ID }
    const { address } = await signMessageAsUndeployedSafe({ ...undeployed, signers: [ada], message: 'probe' })
    const { nonce, preauth } = await newNonce()
    const message = messageFor(address, nonce)
    const { signature } = await signMessageAsUndeployedSafe({ ...undeployed, signers: [ada], message })
    const response = await verify({ message, signature }, preauth)
    expect(response.statusCode).toBe(200)
    expect(response.json().session.address).toBe(address)
  })
})

describe('sessions', () => {
  test('behavior: logout revokes the session; the old cookie is then signed out', async () => {
    const { response } = await signIn(account(4))
    const cookie = cookieOf(response, 'guildhall_session')
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: ORIGIN, cookie: cookie as string },
    })
    expect(logout.statusCode).toBe(204)
    expect((await session(cookie)).json()).toEqual({ session: null })
    // Idempotent: again, and without any cookie.
    expect(
      (await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: ORIGIN } })).statusCode,
    ).toBe(204)
  })

  test('behavior: a tampered or unknown cookie is signed out', async () => {
    const { response } = await signIn(account(4))
    const cookie = cookieOf(response, 'guildhall_session') as string
    expect((await session(`${cookie}x`)).json()).toEqual({ session: null })
    expect((await session('guildhall_session=nonsense')).json()).toEqual({ session: null })
  })

  test('behavior: list my sessions, revoke one, revoke all', async () => {
    const signer = account(2)
    const first = cookieOf((await signIn(signer)).response, 'guildhall_session') as string
    const second = cookieOf((await signIn(signer)).response, 'guildhall_session') as string
    const list = await app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie: second } })
    const items = list.json().sessions as { id: string; current: boolean }[]
    expect(items.length).toBeGreaterThanOrEqual(2)
    expect(items.filter((s) => s.current)).toHaveLength(1)
    const other = items.find((s) => !s.current) as { id: string }
    const revokeOne = await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${other.id}`,
      headers: { origin: ORIGIN, cookie: second },
    })
    expect(revokeOne.statusCode).toBe(204)
    expect((await session(first)).json()).toEqual({ session: null })
    const revokeAll = await app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions',
      headers: { origin: ORIGIN, cookie: second },
    })
    expect(revokeAll.statusCode).toBe(204)
    expect((await session(second)).json()).toEqual({ session: null })
  })

  test('behavior: session answers are never compressed, even when large and the client accepts it (BREACH)', async () => {
    const signer = freshAccount()
    let cookie = ''
    for (let i = 0; i < 8; i++)
      cookie = cookieOf((await signIn(signer)).response, 'guildhall_session') as string
    const list = await app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: { cookie, 'accept-encoding': 'br, gzip' },
    })
    expect(list.statusCode).toBe(200)
    expect(list.rawPayload.length).toBeGreaterThan(1024)
    expect(list.headers['content-encoding']).toBeUndefined()
    expect(list.json().sessions).toHaveLength(8)
  })

  test('behavior: listing sessions without one → 401', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/sessions' })).statusCode).toBe(401)
  })
})

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

/** The message with `edit` applied, signed by `signer` as it stands (what a tampering client would send). */
async function signedEdit(signer: PrivateKeyAccount, edit: (message: string) => string) {
  const { nonce, preauth } = await newNonce()
  const message = edit(messageFor(signer.address, nonce))
  return { message, signature: await signer.signMessage({ message }), preauth, nonce }
}

/** Adds an optional field line right after `Issued At` (EIP-4361 order: Expiration Time, Not Before, …). */
const withLineAfterIssuedAt = (line: string) => (message: string) =>
  message.replace(/^(Issued At: .*)$/m, `$1\n${line}`)

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()

const nonceRow = async (nonce: string) =>
  (await database.db.select().from(authNonces)).find((row) => row.nonce === nonce)

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
      const signer = account(9)
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
      const signer = account(9)
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

describe('sign-in off (SIGN_IN=off)', () => {
  test('behavior: one setting decides: the public config says sign-in is off and no /api/auth route exists', async () => {
    const settings = envFor(anvil.url, { SIGN_IN: 'off' })
    expect(settings.publicConfig.signIn).toBe(false)
    const connectOnly = await buildApp({ settings })
    try {
      for (const [method, url] of [
        ['GET', '/api/auth/session'],
        ['POST', '/api/auth/nonce'],
        ['POST', '/api/auth/logout'],
      ] as const) {
        const response = await connectOnly.inject({ method, url, headers: { origin: ORIGIN } })
        expect(response.statusCode, `${method} ${url}`).toBe(404)
      }
    } finally {
      await connectOnly.close()
    }
    expect(envFor(anvil.url).publicConfig.signIn).toBe(true)
  })
})
