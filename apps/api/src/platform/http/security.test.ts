// Requests as an outside tester sends them over real HTTP: odd spellings of a path, odd ids, and what the
// answers about a signed-in member let caches keep. Test database: PGlite, or PostgreSQL with
// TEST_DATABASE_URL.
import { request as httpRequest } from 'node:http'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort } from '@guildhall/devchain/anvil'
import type { FastifyInstance } from 'fastify'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signIn } from '../../../testbed/sign-in.ts'
import { testSettings } from '../../../testbed/test-app.ts'
import { buildApp } from '../../app.ts'
import { startDemoChain } from '../../demo/local-chain.ts'
import { type TestDatabase, testDatabase } from '../db/test-database.ts'

const DAO_NAME = 'Guildhall Test DAO'
const EVIL = 'http://evil.example'

let anvil: AnvilInstance
let database: TestDatabase
let app: FastifyInstance
let port: number
let origin: string

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** One request over a socket, the request target sent exactly as given (an absolute URL included). */
function send(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body ?? '')), connection: 'close' },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const json = { 'content-type': 'application/json' }

/** Signs `index`'s anvil account in; returns its session cookie (name=value). */
const signInAs = (index: number) =>
  signIn(origin, privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex), DAO_NAME)

const sessionOf = async (cookie: string) =>
  JSON.parse((await send('GET', '/api/auth/session', { cookie })).body).session as { address: string } | null

beforeAll(async () => {
  const chain = await startDemoChain()
  anvil = chain.anvil
  database = await testDatabase()
  port = await getFreePort()
  origin = `http://127.0.0.1:${port}`
  const settings = testSettings({
    rpcUrl: anvil.url,
    deployment: chain.deployment,
    origin,
    env: { DAO_NAME, AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
  })
  app = await buildApp({ settings, database })
  await app.listen({ host: '127.0.0.1', port })
}, 60_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await anvil?.stop()
})

describe('Origin', () => {
  test("security: a mutating request from another site is refused with 403 however its path is spelled, and the member's session survives", async () => {
    const cookie = await signInAs(1)
    const spellings = [
      '/api/auth/logout',
      '/%61pi/auth/logout',
      '/api/auth/%6c%6f%67%6f%75%74',
      '/api/auth/logout?next=/',
      `http://127.0.0.1:${port}/api/auth/logout`,
      'http://evil.example/api/auth/logout',
      '//api/auth/logout',
      '/api//auth/logout',
      '/./api/auth/logout',
      '/rpc/../api/auth/logout',
      '/API/auth/logout',
    ]
    for (const target of spellings) {
      for (const headers of [{ origin: EVIL }, { origin: 'null' }, {}] as Record<string, string>[]) {
        for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
          const answer = await send(method, target, { ...headers, ...json, cookie }, '{}')
          const label = `${method} ${target} ${JSON.stringify(headers)}`
          expect(answer.status, `${label} ${answer.body}`).toBe(403)
          expect(JSON.parse(answer.body), label).toMatchObject({ error: 'bad_origin' })
        }
      }
      for (const method of ['DELETE']) {
        const sessions = target.replace('logout', 'sessions')
        expect((await send(method, sessions, { origin: EVIL, cookie })).status, sessions).toBe(403)
      }
    }
    expect((await sessionOf(cookie))?.address).toBe(anvilAccounts[1]?.address)
  })

  test('behavior: from our own pages the same spellings are served', async () => {
    const cookie = await signInAs(2)
    const answer = await send('POST', '/%61pi/auth/logout', { origin, cookie })
    expect(answer.status).toBe(204)
    expect(await sessionOf(cookie)).toBeNull()
  })

  test('behavior: /rpc answers any Origin or none (it reads no cookie and serves reads only)', async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
    for (const headers of [{ origin }, { origin: EVIL }, {}] as Record<string, string>[]) {
      const answer = await send('POST', `/rpc/${LOCAL_CHAIN_ID}`, { ...headers, ...json }, call)
      expect(answer.status, JSON.stringify(headers)).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: `0x${LOCAL_CHAIN_ID.toString(16)}`,
      })
    }
  })
})

/** Every route with a path parameter, read from the router: [method, url with :params]. */
function routesWithParams(): [string, string][] {
  const routes: [string, string][] = []
  const path: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line)
    if (!match) continue
    path.length = (match[1] ?? '').length / 4
    path.push(match[2] ?? '')
    const url = path.join('')
    if (!url.includes('/:')) continue
    for (const method of (match[3] ?? '').split(', '))
      if (method && method !== 'HEAD') routes.push([method, url])
  }
  return routes
}

const ODD_SEGMENTS = [
  '------------------------------------',
  'f'.repeat(36),
  'F'.repeat(32),
  'g'.repeat(36),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '{ffffffff-ffff-ffff-ffff-ffffffffffff}',
  'ffffffffffffffffffffffffffffffff',
  '0x',
  `0x${'f'.repeat(64)}`,
  `0x${'F'.repeat(64)}`,
  `0x${'g'.repeat(64)}`,
  `0X${'f'.repeat(64)}`,
  `0x${'f'.repeat(40)}`,
  `0x${'f'.repeat(4096)}`,
  'x'.repeat(5000),
  '%00',
  `0x${'f'.repeat(62)}%00`,
  '%ff',
  '%',
  '%zz',
  '%E2%80%AE',
  '%F0%9F%92%A9',
  '%C0%AF',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  'null',
  '-1',
  '1e999',
  "'%3B%20drop%20table%20sessions%3B%20--",
  '__proto__',
  'constructor',
  '%0d%0aX-Injected:%201',
  '%20',
]

describe('odd ids and paths', () => {
  test('security: DELETE /api/auth/sessions/<not a UUID> is a 400, an unknown UUID a 404', async () => {
    const cookie = await signInAs(3)
    for (const id of ['-'.repeat(36), 'f'.repeat(36), 'g'.repeat(36), `${'f'.repeat(8)}-${'f'.repeat(27)}`]) {
      const answer = await send('DELETE', `/api/auth/sessions/${id}`, { origin, cookie })
      expect(answer.status, id).toBe(400)
      expect(JSON.parse(answer.body), id).toEqual({
        error: 'bad_request',
        message: 'A session id is a UUID.',
      })
    }
    const unknown = await send('DELETE', '/api/auth/sessions/ffffffff-ffff-ffff-ffff-ffffffffffff', {
      origin,
      cookie,
    })
    expect(unknown.status).toBe(404)
    expect((await sessionOf(cookie))?.address).toBe(anvilAccounts[3]?.address)
  })

  test('security: odd values in every path parameter of every route never answer 5xx', async () => {
    const routes = routesWithParams()
    // The router was read: the routes this test is about are among them.
    expect(routes).toEqual(
      expect.arrayContaining([
        ['DELETE', '/api/auth/sessions/:id'],
        ['GET', '/api/proposals/:id'],
        ['POST', '/api/proposals/:id/votes'],
        ['GET', '/api/proposals/:id/power/:address'],
      ]),
    )
    const cookie = await signInAs(4)
    const failures: string[] = []
    for (const [method, url] of routes) {
      for (const segment of ODD_SEGMENTS) {
        for (const target of [url.replace(/:\w+/g, segment), `${url.replace(/:\w+/g, segment)}/x`]) {
          const body = method === 'GET' || method === 'DELETE' ? undefined : '{}'
          const answer = await send(method, target, { origin, cookie, ...(body ? json : {}) }, body)
          if (answer.status >= 500) failures.push(`${method} ${target.slice(0, 120)} → ${answer.status}`)
          else if (answer.status >= 400) {
            expect(JSON.parse(answer.body), `${method} ${target.slice(0, 120)}`).toMatchObject({
              error: expect.any(String),
              message: expect.any(String),
            })
          }
        }
      }
    }
    expect(failures).toEqual([])
  }, 60_000)
})

describe('answers about the signed-in member', () => {
  test('security: every /api/auth answer, errors included, carries Cache-Control: no-store', async () => {
    const cookie = await signInAs(5)
    const withCookie = { origin, cookie }
    const answers: [string, Answer][] = [
      ['session, signed in', await send('GET', '/api/auth/session', { cookie })],
      ['session, signed out', await send('GET', '/api/auth/session')],
      ['sessions', await send('GET', '/api/auth/sessions', { cookie })],
      ['sessions, 401', await send('GET', '/api/auth/sessions')],
      ['nonce', await send('POST', '/api/auth/nonce', { origin })],
      ['verify, 400', await send('POST', '/api/auth/verify', { origin, ...json }, '{}')],
      [
        'verify, 401',
        await send(
          'POST',
          '/api/auth/verify',
          { origin, ...json },
          JSON.stringify({ message: 'x', signature: '0x' }),
        ),
      ],
      ['verify, 403', await send('POST', '/api/auth/verify', { origin: EVIL, ...json }, '{}')],
      ['verify, 415', await send('POST', '/api/auth/verify', { origin, 'content-type': 'text/plain' }, 'x')],
      ['revoke, 400', await send('DELETE', '/api/auth/sessions/nope', withCookie)],
      [
        'revoke, 404',
        await send('DELETE', '/api/auth/sessions/ffffffff-ffff-ffff-ffff-ffffffffffff', withCookie),
      ],
      ['logout', await send('POST', '/api/auth/logout', withCookie)],
    ]
    for (const [label, answer] of answers) {
      expect(answer.headers['cache-control'], `${label} (${answer.status})`).toBe('no-store')
    }
  })
})
