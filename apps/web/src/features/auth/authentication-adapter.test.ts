import { checkSiwePolicy, parseSiweMessageStrict, signInStatement } from '@guildhall/core'
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type DroppingServer, startDroppingServer } from '../../test/dropping-server.ts'
import { createGuildhallAuthenticationAdapter, UnexpectedVerifyFailure } from './authentication-adapter.ts'
import { CURRENT_SESSION_QUERY_KEY } from './queries/current-session.ts'
import { postLogout } from './queries/logout.ts'
import { MEMBER_SESSIONS_QUERY_KEY } from './queries/member-sessions.ts'

const ADA = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const DAO = 'Guildhall Test DAO'

function adapter(appUrl = 'http://127.0.0.1:4173') {
  return createGuildhallAuthenticationAdapter({
    appUrl,
    daoName: DAO,
    queryClient: new QueryClient(),
    connectedAddress: () => undefined,
  })
}

describe('createMessage', () => {
  test('default: a fresh nonce gives, synchronously, a message the server policy accepts', () => {
    const message = adapter().createMessage({ nonce: 'abcdef1234567890', address: ADA, chainId: 31337 })
    expect(typeof message).toBe('string')
    const parsed = parseSiweMessageStrict(message as string)
    if (!parsed.ok) throw new Error(parsed.reason)
    expect(parsed.fields).toMatchObject({
      domain: '127.0.0.1:4173',
      uri: 'http://127.0.0.1:4173',
      statement: 'Sign in to Guildhall Test DAO.',
      chainId: 31337,
      nonce: 'abcdef1234567890',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    })
    expect(parsed.fields.resources).toBeUndefined()
    const policy = checkSiwePolicy(parsed.fields, {
      domain: '127.0.0.1:4173',
      origin: 'http://127.0.0.1:4173',
      allowedChainIds: [31337],
      statement: signInStatement(DAO),
      nonce: 'abcdef1234567890',
      now: new Date(),
    })
    expect(policy).toEqual({ ok: true })
  })

  test('parameters: appUrl with a path still signs for the origin', () => {
    const message = adapter('https://dao.example/app/').createMessage({
      nonce: 'abcdef1234567890',
      address: ADA,
      chainId: 1,
    }) as string
    expect(message.startsWith('dao.example wants you to sign in')).toBe(true)
    expect(message).toContain('\nURI: https://dao.example\n')
  })
})

describe('signOut (what RainbowKit calls on every disconnect and account change)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    localStorage.clear()
  })

  function signedIn(connected: string | undefined) {
    const queryClient = new QueryClient()
    queryClient.setQueryData(CURRENT_SESSION_QUERY_KEY, {
      session: { address: ADA, chainId: 31337, expiresAt: '2030-01-01T00:00:00.000Z' },
    })
    queryClient.setQueryData(MEMBER_SESSIONS_QUERY_KEY, { sessions: [] })
    const requests: string[] = []
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${path}`)
      return new Response(null, { status: 204 })
    })
    const adapter = createGuildhallAuthenticationAdapter({
      appUrl: 'http://127.0.0.1:4173',
      daoName: DAO,
      queryClient,
      connectedAddress: () => connected,
    })
    return { adapter, queryClient, requests }
  }

  test('behavior: the same account re-announced (any address case) keeps the session', async () => {
    const { adapter, queryClient, requests } = signedIn(ADA.toUpperCase().replace('0X', '0x'))
    await adapter.signOut()
    expect(queryClient.getQueryData(CURRENT_SESSION_QUERY_KEY)).toMatchObject({ session: { address: ADA } })
    expect(requests).toEqual([])
  })

  test('behavior: another account or no wallet signs out here and on the server, and forgets the session list', async () => {
    for (const connected of ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', undefined]) {
      const { adapter, queryClient, requests } = signedIn(connected)
      await adapter.signOut()
      expect(queryClient.getQueryData(CURRENT_SESSION_QUERY_KEY)).toEqual({ session: null })
      expect(queryClient.getQueryData(MEMBER_SESSIONS_QUERY_KEY)).toBeUndefined()
      expect(requests).toEqual(['POST /api/auth/logout'])
    }
  })
})

describe('a connection cut before any answer (a real local server)', () => {
  let server: DroppingServer
  afterEach(async () => {
    await server?.close()
    localStorage.clear()
  })

  test('behavior: verify is not sent again (the first may have consumed the nonce): one attempt, RainbowKit told it failed', async () => {
    server = await startDroppingServer()
    server.drop(1)
    const message = adapter().createMessage({
      nonce: 'abcdef1234567890',
      address: ADA,
      chainId: 31337,
    }) as string
    // No answer says nothing about the signature: the patched RainbowKit shows "Oops, something went wrong!".
    await expect(adapter().verify({ message, signature: `0x${'11'.repeat(65)}` })).rejects.toBeInstanceOf(
      UnexpectedVerifyFailure,
    )
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/auth/verify'])
  })

  test('behavior: logout is sent again (204 whether or not a session is left) and counts as done', async () => {
    server = await startDroppingServer()
    server.answer(() => ({ status: 204 }))
    server.drop(1)
    await expect(postLogout()).resolves.toBe(true)
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/auth/logout',
      'POST /api/auth/logout',
    ])
  })
})

describe('verify (what RainbowKit shows for each answer: ADR 035)', () => {
  afterEach(() => vi.unstubAllGlobals())

  /** verify's outcome when the server answers `status`, or when no answer comes (`'network'`). */
  async function verifyAnswered(status: number | 'network') {
    vi.stubGlobal('fetch', async () => {
      if (status === 'network') throw new TypeError('Failed to fetch')
      return new Response('{"error":"x","message":"x"}', { status })
    })
    const signIn = adapter()
    const message = signIn.createMessage({
      nonce: 'abcdef1234567890',
      address: ADA,
      chainId: 31337,
    }) as string
    return signIn.verify({ message, signature: `0x${'ab'.repeat(65)}` }).then(
      (verified) => ({ verified }),
      (error: unknown) => ({ error }),
    )
  }

  test('behavior: a refused or retryable answer (400, 401, 413, 429, 503) is false: "Error verifying signature, please retry!"', async () => {
    for (const status of [400, 401, 413, 429, 503])
      expect(await verifyAnswered(status)).toEqual({ verified: false })
  })

  test('behavior: no answer, or a server error other than 503, throws the error the patched RainbowKit shows as "Oops, something went wrong!"', async () => {
    for (const status of ['network', 500, 502, 504] as const) {
      const outcome = await verifyAnswered(status)
      expect(outcome).toEqual({ error: expect.any(UnexpectedVerifyFailure) })
      expect((outcome as { error: UnexpectedVerifyFailure }).error.guildhallUnexpected).toBe(true)
    }
  })
})
