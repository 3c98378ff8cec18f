import { proposalListSchema } from '@guildhall/core'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { z } from 'zod/mini'
import { expectConsoleError } from '../test/console-guard.ts'
import { type DroppingServer, startDroppingServer } from '../test/dropping-server.ts'
import {
  ApiRequestError,
  apiGet,
  apiSend,
  describeRequestError,
  NETWORK_DOWN_MESSAGE,
  UNEXPECTED_ANSWER_MESSAGE,
} from './api.ts'

const answer = (body: string) => async () =>
  new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A sentence a person can read: no JSON, no validation codes. */
const expectSentence = (message: string) => {
  expect(message).toBe(UNEXPECTED_ANSWER_MESSAGE)
  expect(message).not.toMatch(/[[\]{}"]|code|invalid_type|custom/)
  expect(message).toMatch(/^The server sent an answer this page cannot read\./)
}

describe('apiGet: an answer the app cannot read', () => {
  test('behavior: one that fails validation becomes a sentence; the zod issues go to the console', async () => {
    expectConsoleError(/does not match what the app expects[\s\S]*proposals/)
    vi.stubGlobal('fetch', answer(JSON.stringify({ now: 'soon', proposals: [{ id: 42 }] })))
    const error: unknown = await apiGet('/api/proposals', proposalListSchema).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiRequestError)
    expectSentence((error as ApiRequestError).message)
  })

  test('behavior: one that is not JSON at all (an HTML error page) becomes the same sentence', async () => {
    expectConsoleError(/is not JSON/)
    vi.stubGlobal('fetch', answer('<!doctype html><title>Bad gateway</title>'))
    const error: unknown = await apiGet('/api/proposals', proposalListSchema).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiRequestError)
    expectSentence((error as ApiRequestError).message)
  })

  test('default: a valid answer passes through', async () => {
    vi.stubGlobal('fetch', answer(JSON.stringify({ n: 1 })))
    await expect(apiGet('/x', z.object({ n: z.number() }))).resolves.toEqual({ n: 1 })
  })
})

describe('describeRequestError', () => {
  test("behavior: the server's sentence as is; anything else a plain sentence, the detail logged", () => {
    expect(describeRequestError(new ApiRequestError(404, 'There is no proposal with this id.'))).toBe(
      'There is no proposal with this id.',
    )
    expectConsoleError(/invalid_type/)
    const raw = z.object({ n: z.number() }).safeParse({ n: 'x' }).error
    expect(describeRequestError(raw)).toBe('Something went wrong. Reload the page to try again.')
  })
})

describe('apiSend: the one client for mutating requests', () => {
  test('default: a JSON body (`{}` when there is none), same-origin credentials, the answer validated', async () => {
    const fetchMock = vi.fn(answer(JSON.stringify({ n: 1 })))
    vi.stubGlobal('fetch', fetchMock)
    await expect(apiSend('POST', '/x', { a: 1 }, z.object({ n: z.number() }))).resolves.toEqual({ n: 1 })
    await expect(apiSend('DELETE', '/y')).resolves.toBeUndefined()
    expect(fetchMock.mock.calls).toEqual([
      [
        '/x',
        {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: '{"a":1}',
        },
      ],
      [
        '/y',
        {
          method: 'DELETE',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: '{}',
        },
      ],
    ])
  })

  test("behavior: a refusal carries the server's sentence; an unreachable server, a sentence of ours", async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ error: 'closed', message: 'Voting has ended.' }, { status: 409 }),
    )
    await expect(apiSend('POST', '/x', {})).rejects.toMatchObject({
      status: 409,
      message: 'Voting has ended.',
    })
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(apiSend('DELETE', '/x')).rejects.toMatchObject({ status: 0, message: NETWORK_DOWN_MESSAGE })
  })
})

describe('apiFetch: a connection cut before any answer (a real local server)', () => {
  let server: DroppingServer
  afterEach(async () => {
    await server?.close()
  })
  const numberSchema = z.object({ n: z.number() })

  test('behavior: a GET is sent once more and its answer used; cut twice, the network sentence (two attempts only)', async () => {
    server = await startDroppingServer()
    server.answer(() => ({ status: 200, body: { n: 7 } }))
    server.drop(1)
    await expect(apiGet('/api/read', numberSchema)).resolves.toEqual({ n: 7 })
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/read', 'GET /api/read'])

    server.drop(2)
    await expect(apiGet('/api/again', numberSchema)).rejects.toMatchObject({
      status: 0,
      message: NETWORK_DOWN_MESSAGE,
    })
    expect(server.received.filter((r) => r.path === '/api/again')).toHaveLength(2)
  })

  test('behavior: an idempotent POST (a signed message) is sent again with the same body; a replay answer (200) is used', async () => {
    server = await startDroppingServer()
    server.answer(() => ({ status: 200, body: { n: 1 } }))
    server.drop(1)
    const signed = { message: { proposal: '0xabc', choice: 1 }, signature: '0x1234' }
    await expect(
      apiSend('POST', '/api/proposals/p/votes', signed, numberSchema, { idempotent: true }),
    ).resolves.toEqual({ n: 1 })
    expect(server.received).toEqual([
      { method: 'POST', path: '/api/proposals/p/votes', body: JSON.stringify(signed) },
      { method: 'POST', path: '/api/proposals/p/votes', body: JSON.stringify(signed) },
    ])
  })

  test('behavior: a POST or DELETE not marked idempotent is never resent: one attempt, the network sentence', async () => {
    server = await startDroppingServer()
    server.drop(2)
    await expect(apiSend('POST', '/api/auth/verify', { message: 'm' })).rejects.toMatchObject({
      status: 0,
      message: NETWORK_DOWN_MESSAGE,
    })
    await expect(apiSend('DELETE', '/api/auth/sessions/s')).rejects.toMatchObject({ status: 0 })
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/auth/verify',
      'DELETE /api/auth/sessions/s',
    ])
  })

  test("behavior: an HTTP error answer is never resent, even for a GET: the server's sentence", async () => {
    server = await startDroppingServer()
    server.answer(() => ({
      status: 503,
      body: { error: 'unavailable', message: 'The database does not answer.' },
    }))
    await expect(apiGet('/api/read', numberSchema)).rejects.toMatchObject({
      status: 503,
      message: 'The database does not answer.',
    })
    await expect(
      apiSend('POST', '/api/proposals', {}, numberSchema, { idempotent: true }),
    ).rejects.toMatchObject({ status: 503 })
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/read',
      'POST /api/proposals',
    ])
  })
})
