import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import {
  APP_SHELL_PLACEHOLDER,
  LOCAL_CHAIN_ID,
  PUBLIC_CONFIG_PLACEHOLDER,
  publicConfigSchema,
} from '@guildhall/core'
import { type AnvilInstance, getFreePort } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testSettings } from '../testbed/test-app.ts'
import { buildApp } from './app.ts'
import { startDemoChain } from './demo/local-chain.ts'
import { type Database, openDatabase } from './platform/db/client.ts'
import { testDatabase } from './platform/db/test-database.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let app: FastifyInstance
let webDist: string
let database: Database

const ASSET = `console.log(${JSON.stringify('x'.repeat(4096))})`

// A DAO name that tries to close the config <script> element and inject markup.
const HOSTILE_NAME = '</script><img src=x onerror=alert(1)>'
// Text that String.replace would read as patterns ($' is the text after the match, $& the match).
const PATTERN_DESCRIPTION = "Dues $' and $& are paid"

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  webDist = await mkdtemp(join(tmpdir(), 'guildhall-web-'))
  await writeFile(
    join(webDist, 'index.html'),
    `<html><head>${PUBLIC_CONFIG_PLACEHOLDER}</head><body><div id="root">${APP_SHELL_PLACEHOLDER}</div></body></html>`,
  )
  await mkdir(join(webDist, 'assets'))
  await writeFile(join(webDist, 'assets', 'app-abc123.js'), ASSET)
  await writeFile(join(webDist, 'assets', 'app-abc123.js.br'), brotliCompressSync(ASSET))
  const settings = testSettings({
    rpcUrl: anvil.url,
    deployment,
    origin: 'http://127.0.0.1:3999',
    env: {
      DAO_NAME: HOSTILE_NAME,
      DAO_DESCRIPTION: PATTERN_DESCRIPTION,
      WALLETS: 'injected,coinbase',
      WEB_DIST: webDist,
    },
  })
  database = await openDatabase()
  await database.migrate()
  app = await buildApp({ settings, database })
}, 30_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await anvil?.stop()
})

describe('GET /api/health', () => {
  test('default: answers ok, and that this instance (PGlite: the only one) runs the token index', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok', tokenIndex: 'leader' })
  })
})

describe('GET /api/token/holders', () => {
  test('behavior: counts the demo members holding tokens', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/token/holders' })
    expect(response.statusCode).toBe(200)
    const expected = deployment.members.filter((m) => BigInt(m.balance) > 0n).length
    expect(response.json()).toMatchObject({ holders: expected })
  })

  test('behavior: chain down gives 503 with Retry-After, not 500', async () => {
    const closedPort = await getFreePort()
    const settings = testSettings({
      rpcUrl: `http://127.0.0.1:${closedPort}`,
      deployment,
      origin: null,
      env: { SIGN_IN: 'off' },
    })
    const downDatabase = await testDatabase()
    const down = await buildApp({ settings, database: downDatabase })
    const response = await down.inject({ method: 'GET', url: '/api/token/holders' })
    await down.close()
    await downDatabase.close()
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('5')
    expect(response.json()).toMatchObject({ error: 'chain_unavailable' })
  }, 30_000)
})

describe('index.html', () => {
  test('behavior: carries the validated public config, for any client route', async () => {
    for (const url of ['/', '/proposals', '/members/0xabc?x=1']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/text\/html/)
      const json = /<script id="guildhall-config" type="application\/json">(.*?)<\/script>/s.exec(
        response.body,
      )?.[1]
      const config = publicConfigSchema.parse(JSON.parse(json ?? 'null'))
      expect(config.dao.name).toBe(HOSTILE_NAME)
      expect(config.dao.description).toBe(PATTERN_DESCRIPTION)
      expect(config.chains[0]?.rpcUrl).toBe(`http://127.0.0.1:3999/rpc/${LOCAL_CHAIN_ID}`)
    }
  })

  test('behavior: config text cannot close its script element', async () => {
    const response = await app.inject({ method: 'GET', url: '/' })
    expect(response.body).not.toContain(HOSTILE_NAME)
    expect(response.body.match(/<\/script>/g)).toHaveLength(1)
  })

  test('behavior: carries the app shell for the page asked for, the DAO name escaped', async () => {
    const overview = (await app.inject({ method: 'GET', url: '/' })).body
    const root = /<div id="root">(.*)<\/div><\/body>/s.exec(overview)?.[1] ?? ''
    expect(root).toContain('<header class="header">')
    expect(root).toContain('<h1>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</h1>')
    expect(overview).not.toContain('<img')
    expect(root).toContain(`<p class="lead">Dues $&#39; and $&amp; are paid</p>`)
    expect(overview).not.toContain(APP_SHELL_PLACEHOLDER)
    const proposals = (await app.inject({ method: 'GET', url: '/proposals' })).body
    expect(proposals).toContain('<a aria-current="page" class="active" href="/proposals"')
    expect(proposals).toContain('<main class="main"></main>')
  })

  test("behavior: a proposal's page preloads its detail in the head; other pages preload nothing", async () => {
    const id = `0x${'cd34'.repeat(16)}`
    const page = (await app.inject({ method: 'GET', url: `/proposals/${id}` })).body
    const head = /<head>(.*)<\/head>/s.exec(page)?.[1] ?? ''
    expect(head).toContain(`<link rel="preload" href="/api/proposals/${id}" as="fetch" crossorigin>`)
    for (const url of ['/', '/proposals']) {
      expect((await app.inject({ method: 'GET', url })).body, url).not.toContain('rel="preload"')
    }
  })

  test('behavior: sent compressed to clients that accept it, and revalidated', async () => {
    const plain = await app.inject({ method: 'GET', url: '/' })
    const response = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } })
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers.vary).toMatch(/\baccept-encoding\b/i)
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(plain.body)
  })

  test('behavior: unknown API routes answer JSON 404, not the page', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'not_found', message: 'No route for GET /api/nope' })
  })
})

describe('static assets', () => {
  test('behavior: sent pre-compressed to clients that accept brotli, cached for a year', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(ASSET)
  })

  test('behavior: sent plain to clients that accept no compression', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    })
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body).toBe(ASSET)
  })
})

describe('POST /rpc/:chainId', () => {
  test('behavior: forwards JSON-RPC to the local chain', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/rpc/${LOCAL_CHAIN_ID}`,
      payload: { jsonrpc: '2.0', id: 7, method: 'eth_chainId' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: `0x${LOCAL_CHAIN_ID.toString(16)}` })
  })

  test('behavior: forwards batched requests', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/rpc/${LOCAL_CHAIN_ID}`,
      payload: [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'net_version' },
      ],
    })
    expect(response.json()).toHaveLength(2)
  })

  test('behavior: large answers are sent compressed to clients that accept it', async () => {
    const batch = Array.from({ length: 60 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))
    const response = await app.inject({
      method: 'POST',
      url: `/rpc/${LOCAL_CHAIN_ID}`,
      headers: { 'accept-encoding': 'gzip' },
      payload: batch,
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toHaveLength(60)
  })

  test('behavior: malformed JSON is a 400 with a message, not a 500', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/rpc/${LOCAL_CHAIN_ID}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"jsonrpc":',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ error: 'bad_request' })
  })

  test('behavior: chains that are not local are not proxied', async () => {
    // From our own page: elsewhere a POST to a path without a route is refused before routing matters.
    const response = await app.inject({
      method: 'POST',
      url: '/rpc/1',
      headers: { origin: 'http://127.0.0.1:3999' },
      payload: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    })
    expect(response.statusCode).toBe(404)
  })
})

describe('security headers and bodies', () => {
  test('behavior: pages carry security headers and may be framed only by Safe', async () => {
    const response = await app.inject({ method: 'GET', url: '/' })
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    const csp = String(response.headers['content-security-policy']).split(';')
    // The policy restricts everything by default and allows scripts from our own files only (and our own
    // WebAssembly to compile).
    expect(csp).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self' https://app.safe.global",
      ]),
    )
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups')
    expect(response.headers['x-frame-options']).toBeUndefined()
    // HSTS only makes sense on https origins; this one is http.
    expect(response.headers['strict-transport-security']).toBeUndefined()
  })

  test('behavior: text and form bodies are refused with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await app.inject({
        method: 'POST',
        url: `/rpc/${LOCAL_CHAIN_ID}`,
        headers: { 'content-type': contentType },
        payload: 'jsonrpc=2.0',
      })
      expect(response.statusCode, contentType).toBe(415)
      expect(response.json()).toMatchObject({ error: 'unsupported_media_type' })
    }
  })

  test('behavior: a mutating API request from another origin is refused with 403', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: {},
    })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ error: 'bad_origin' })
  })
})
