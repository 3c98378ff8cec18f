// Sign-in over HTTP (in-process): an EOA's and a Safe's (ERC-1271, ERC-6492), the nonce's one use, bodies
// that must be refused, against a real anvil, real Safes and the test database (PGlite,
// or PostgreSQL with TEST_DATABASE_URL); the setup is the kit's auth bed. Cases from docs/security.md,
// "Adversarial cases: sign-in".
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { LOCAL_CHAIN_ID, recoverSigner, signInStatement } from '@guildhall/core'
import { signMessageAsSafe, signMessageAsUndeployedSafe } from '@guildhall/devchain/safe'
import { eq } from 'drizzle-orm'
import { createPublicClient, http } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  appChainDown,
  ben,
  cookieOf,
  DAO_NAME,
  database,
  freshAccount,
  messageFor,
  newNonce,
  safes,
  session,
  sessionRows,
  signIn,
  useAuthBed,
  verify,
} from '../../testbed/beds/auth.ts'
import { member } from '../../testbed/signers.ts'
import { jsonHeaders, ORIGIN } from '../../testbed/test-app.ts'
import { authNonces } from '../platform/db/schema.ts'
import { createSessions, NONCE_TTL_MS, type SignInDeps, verifySignIn } from './sign-in.ts'
import { verifyToStore } from './sign-in-test-helpers.ts'

useAuthBed()

describe('sign-in', () => {
  test('behavior: a valid sign-in → 200, a session cookie, one session, the nonce consumed', async () => {
    const signer = member(5)
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
    const signer = member(6)
    const { message, signature, preauth } = await signIn(signer)
    const replay = await verify({ message, signature }, preauth)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().error).toBe('invalid_nonce')
    expect(await sessionRows(signer.address)).toHaveLength(1)
  })

  test('behavior: 20 concurrent verifies of one message → exactly one 200, one session', async () => {
    const signer = member(7)
    const { nonce, preauth } = await newNonce()
    const message = messageFor(signer.address, nonce)
    const signature = await signer.signMessage({ message })
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => verify({ message, signature }, preauth)),
    )
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1)
    const refused = responses.filter((r) => r.statusCode !== 200)
    expect(refused.map((r) => [r.statusCode, r.json().error])).toEqual(Array(19).fill([401, 'invalid_nonce']))
    expect(await sessionRows(signer.address)).toHaveLength(1)
  })

  test('behavior: a nonce consumed by another verify while this one checks the signature → 401 invalid_nonce, no session of its own', async () => {
    const signer = freshAccount()
    const { nonce, preauth } = await newNonce()
    const message = messageFor(signer.address, nonce)
    const signature = await signer.signMessage({ message })
    const deps: SignInDeps = {
      db: database.db,
      now: () => new Date(),
      policy: {
        domain: new URL(ORIGIN).host,
        origin: ORIGIN,
        allowedChainIds: [LOCAL_CHAIN_ID],
        statement: signInStatement(DAO_NAME),
      },
      clientFor: () => createPublicClient({ transport: http(anvil.url) }),
      // The other verify wins between this one's check of the nonce and its session's statement.
      recover: async (hash, signed) => {
        await database.db
          .update(authNonces)
          .set({ consumedAt: new Date() })
          .where(eq(authNonces.nonce, nonce))
        return recoverSigner(hash, signed)
      },
    }
    const verifying = verifySignIn(deps, {
      message,
      signature,
      preauthToken: preauth.slice('guildhall_preauth='.length),
      userAgent: undefined,
    })
    await expect(verifying).rejects.toMatchObject({ status: 401, code: 'invalid_nonce' })
    expect(await sessionRows(signer.address)).toHaveLength(0)
  })

  test('behavior: a nonce presented with another pre-auth cookie → 401, the nonce still usable by its owner', async () => {
    const signer = member(8)
    const { nonce, preauth } = await newNonce()
    const { preauth: other } = await newNonce()
    const message = messageFor(signer.address, nonce)
    const signature = await signer.signMessage({ message })
    expect((await verify({ message, signature }, other)).statusCode).toBe(401)
    expect((await verify({ message, signature }, undefined)).statusCode).toBe(401)
    expect((await verify({ message, signature }, preauth)).statusCode).toBe(200)
  })

  test('behavior: verifies checked together (one turn, one nonce statement) each get their own answer: the valid ones sign in, another cookie’s, an unknown and a spent nonce are refused', async () => {
    /** A verify of `signer`'s message with `nonce`, sent with the pre-auth cookie `preauth`. */
    const signedWith = async (signer: ReturnType<typeof freshAccount>, nonce: string, preauth: string) => {
      const message = messageFor(signer.address, nonce)
      return { signer, preauth, body: { message, signature: await signer.signMessage({ message }) } }
    }
    const valid = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const { nonce, preauth } = await newNonce()
        return signedWith(freshAccount(), nonce, preauth)
      }),
    )
    const owned = await newNonce()
    const other = await newNonce()
    const spentBy = freshAccount()
    const spent = await signIn(spentBy)
    const refused = [
      await signedWith(freshAccount(), owned.nonce, other.preauth),
      await signedWith(freshAccount(), 'a1b2c3d4e5f6a7b8c9d0', owned.preauth),
      {
        signer: spentBy,
        preauth: spent.preauth,
        body: { message: spent.message, signature: spent.signature },
      },
    ]
    // All sent at once, in an order no reversal or shift maps onto itself: a lookup answered for another
    // would sign in a refused one or refuse a valid one.
    const order = ['valid', 'valid', 'refused', 'valid', 'refused', 'refused', 'valid'] as const
    const queues = { valid: [...valid], refused: [...refused] }
    const sent = order.map((kind) => queues[kind].shift() as (typeof valid)[number])
    const responses = await Promise.all(sent.map(({ body, preauth }) => verify(body, preauth)))
    expect(responses.map((r) => r.statusCode)).toEqual(order.map((kind) => (kind === 'valid' ? 200 : 401)))
    for (const [index, response] of responses.entries()) {
      if (response.statusCode === 200)
        expect(response.json().session.address).toBe(sent[index]?.signer.address)
      else expect(response.json().error).toBe('invalid_nonce')
    }
    for (const { signer } of valid) expect(await sessionRows(signer.address)).toHaveLength(1)
    expect(await sessionRows(spentBy.address)).toHaveLength(1)
  })

  test('behavior: a turn’s sessions in one statement (ADR 089): of verifies presenting one nonce the first alone is stored; a spent, an expired or another cookie’s nonce stores none; each verify is told its own answer', async () => {
    const preauthHash = (cookie: string) =>
      createHash('sha256').update(cookie.slice('guildhall_preauth='.length)).digest('hex')
    const now = new Date()
    const toCreate = (issued: { nonce: string; preauth: string }, at = now, preauth = issued.preauth) =>
      verifyToStore(issued.nonce, preauthHash(preauth), at)
    const [twice, once, spent, expired] = await Promise.all([newNonce(), newNonce(), newNonce(), newNonce()])
    expect(await createSessions(database.db, [toCreate(spent)])).toEqual([true])
    const batch = [
      toCreate(twice),
      toCreate(once, now, twice.preauth), // `once`'s nonce with another cookie
      toCreate(spent),
      toCreate(twice),
      toCreate(expired, new Date(now.getTime() + NONCE_TTL_MS + 1_000)),
      toCreate(once),
    ]
    expect(await createSessions(database.db, batch)).toEqual([true, false, false, false, false, true])
    for (const [index, { session }] of batch.entries())
      expect(await sessionRows(session.address), `verify ${index}`).toHaveLength(
        [0, 5].includes(index) ? 1 : 0,
      )
    const consumed = new Map(
      (await database.db.select().from(authNonces)).map((row) => [row.nonce, row.consumedAt]),
    )
    expect(consumed.get(twice.nonce)).toEqual(now)
    expect(consumed.get(once.nonce)).toEqual(now)
    expect(consumed.get(expired.nonce)).toBeNull()
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
      const signer = member(9)
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
    const signer = member(3)
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
