// Sessions over HTTP (in-process): logout, revocation, listing, never compressed; and sign-in off
// (SIGN_IN=off). Against a real anvil, real Safes and the test database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL); the setup is the kit's auth bed (testbed/beds/auth.ts).
import { describe, expect, test } from 'vitest'
import {
  anvil,
  app,
  cookieOf,
  envFor,
  freshAccount,
  session,
  signIn,
  useAuthBed,
} from '../../testbed/beds/auth.ts'
import { member } from '../../testbed/signers.ts'
import { ORIGIN } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'

useAuthBed()

describe('sessions', () => {
  test('behavior: logout revokes the session; the old cookie is then signed out', async () => {
    const { response } = await signIn(member(4))
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
    const { response } = await signIn(member(4))
    const cookie = cookieOf(response, 'guildhall_session') as string
    expect((await session(`${cookie}x`)).json()).toEqual({ session: null })
    expect((await session('guildhall_session=nonsense')).json()).toEqual({ session: null })
  })

  test('behavior: list my sessions, revoke one, revoke all', async () => {
    const signer = member(2)
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
