// Where the metrics are read (ADR 065), on the app over a real chain (anvil with the demo DAO) and a real
// database (PGlite, or PostgreSQL under scripts/with-postgres.sh): the public /metrics 404 without
// METRICS_TOKEN, 401 without it or with another, Prometheus text with it; requests counted under their
// route's template; the leader and the token index's lag as the index runs; METRICS_PORT's own listener.
import { createServer } from 'node:net'
import { getFreePort } from '@guildhall/devchain/anvil'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, createTestClient, http } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { parsePrometheusText, sampleValue } from '../../../testbed/prometheus-text.ts'
import { demoDomain, member, signProposal, signVote } from '../../../testbed/signers.ts'
import {
  postJson,
  startTestbed,
  stopTestbed,
  type Testbed,
  testApp,
  testSettings,
} from '../../../testbed/test-app.ts'
import { startServer } from '../../server.ts'

const TOKEN = 'c3f1e2d4a5b6978812ab34cd56ef7890c3f1e2d4a5b69788'
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

let testbed: Testbed
const apps: FastifyInstance[] = []
beforeAll(async () => {
  testbed = await startTestbed()
}, 120_000)
// Each test's apps close after it: on PostgreSQL an open one would keep the leader lock from the next.
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})
afterAll(() => stopTestbed(testbed))

async function appWith(env: Record<string, string>) {
  const app = await testApp(testbed, { env })
  apps.push(app)
  return app
}

const scrape = async (app: FastifyInstance) => {
  const response = await app.inject({ url: '/metrics', headers: bearer(TOKEN) })
  expect(response.statusCode).toBe(200)
  return parsePrometheusText(response.body)
}

describe('the public /metrics', () => {
  test('default: without METRICS_TOKEN it answers 404 like any unknown path, also when METRICS_PORT is set', async () => {
    for (const env of [{}, { METRICS_PORT: '0' }] as Record<string, string>[]) {
      const app = await appWith(env)
      const unknown = await app.inject({ url: '/nowhere' })
      const metrics = await app.inject({ url: '/metrics', headers: bearer(TOKEN) })
      expect(metrics.statusCode).toBe(404)
      expect(metrics.json()).toEqual({ ...unknown.json(), message: 'Route GET:/metrics not found' })
    }
  })

  test('behavior: with METRICS_TOKEN, 401 without a token, with another or in another scheme; 200 Prometheus text with it, never stored', async () => {
    const app = await appWith({ METRICS_TOKEN: TOKEN })
    for (const headers of [
      {},
      bearer(`${TOKEN}0`),
      bearer(TOKEN.slice(1)),
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const refused = await app.inject({ url: '/metrics', headers })
      expect(refused.statusCode).toBe(401)
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"')
      expect(refused.json()).toEqual({
        error: 'unauthenticated',
        message: 'The metrics need the operator’s token: Authorization: Bearer <token>.',
      })
    }
    const answer = await app.inject({ url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } })
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(answer.headers['cache-control']).toBe('no-store')
    const families = parsePrometheusText(answer.body)
    expect(families.get('guildhall_votes_total')?.type).toBe('counter')
    expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    // Prometheus asks for gzip: it gets gzip, which its client reads.
    const gzipped = await app.inject({
      url: '/metrics',
      headers: { ...bearer(TOKEN), 'accept-encoding': 'gzip' },
    })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
  })

  test('behavior: requests count under their route template (/api/proposals/0x… as /api/proposals/:id), unmatched ones as none; durations per route', async () => {
    const app = await appWith({ METRICS_TOKEN: TOKEN })
    const id = `0x${'ab'.repeat(32)}`
    for (let n = 0; n < 2; n++)
      expect((await app.inject({ url: `/api/proposals/${id}` })).statusCode).toBe(404)
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200)
    expect((await app.inject({ url: `/nowhere/${id}` })).statusCode).toBe(404)
    expect((await app.inject({ method: 'DELETE', url: '/api/health' })).statusCode).toBe(403)

    const families = await scrape(app)
    const requests = (labels: Record<string, string>) =>
      sampleValue(families, 'guildhall_http_requests_total', labels)
    expect(requests({ method: 'GET', route: '/api/proposals/:id', status: '404' })).toBe(2)
    expect(requests({ method: 'GET', route: '/api/health', status: '200' })).toBe(1)
    expect(requests({ method: 'GET', route: 'none', status: '404' })).toBe(1)
    // A refusal before any route ran (the Origin check, then no DELETE route): still one line, no path.
    expect(requests({ method: 'DELETE', route: 'none', status: '403' })).toBe(1)
    const labels = families.get('guildhall_http_requests_total')?.samples.map((s) => s.labels.route) ?? []
    expect(labels.filter((route) => route?.includes('0x'))).toEqual([])
    expect(
      sampleValue(families, 'guildhall_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/proposals/:id',
      }),
    ).toBe(2)
  })

  test('behavior: a lone instance leads its job (the token index), and once the index has synced on the local chain its lag is 0 blocks', async () => {
    const app = await appWith({ METRICS_TOKEN: TOKEN })
    let families = await scrape(app)
    const deadline = Date.now() + 30_000
    while (sampleValue(families, 'guildhall_token_index_lag_blocks') !== 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 100))
      families = await scrape(app)
    }
    expect(sampleValue(families, 'guildhall_token_index_lag_blocks')).toBe(0)
    // The test's settings run no name service, treasury or webhooks: the token index is the one job.
    expect(families.get('guildhall_leader')?.samples.map((s) => [s.labels.job, s.value])).toEqual([
      ['token', 1],
    ])
  })
})

describe('votes', () => {
  test('behavior: a stored vote moves guildhall_votes_total{outcome="accepted"}, its replay "replayed", a refused one its code', async () => {
    const app = await appWith({ METRICS_TOKEN: TOKEN, SIGN_IN: 'off' })
    const { anvil, deployment } = testbed
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
    const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
    const domain = demoDomain(deployment)
    // The request body: exactly the message and the signature.
    const body = ({ message, signature }: { message: unknown; signature: string }) => ({ message, signature })
    const proposal = await signProposal(member(1), domain, { snapshot, title: 'Counted' })
    const created = await postJson(app, '/api/proposals', body(proposal))
    expect(created.statusCode, created.body).toBe(201)
    const url = `/api/proposals/${proposal.id}/votes`

    const vote = body(await signVote(member(3), domain, { proposal: proposal.id }))
    expect((await postJson(app, url, vote)).statusCode).toBe(201)
    expect((await postJson(app, url, vote)).statusCode).toBe(200)
    // Iris (anvil's account 9) holds no tokens: refused before anything is stored.
    const refused = await postJson(
      app,
      url,
      body(await signVote(member(9), domain, { proposal: proposal.id })),
    )
    expect(refused.statusCode).toBe(403)
    const { error: code } = refused.json() as { error: string }

    const families = await scrape(app)
    expect(sampleValue(families, 'guildhall_votes_total', { outcome: 'accepted' })).toBe(1)
    expect(sampleValue(families, 'guildhall_votes_total', { outcome: 'replayed' })).toBe(1)
    expect(sampleValue(families, 'guildhall_votes_total', { outcome: code })).toBe(1)
  }, 60_000)
})

describe('METRICS_PORT', () => {
  test('behavior: a listener of its own on loopback serves GET /metrics without a token, and nothing else; the public origin still answers 404', async () => {
    const settings = testSettings({
      origin: null,
      env: { PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '0', SIGN_IN: 'off', LOG_LEVEL: 'silent' },
    })
    const server = await startServer(settings)
    try {
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/)
      expect(server.metricsUrl).not.toBe(server.url)
      const answer = await fetch(`${server.metricsUrl}/metrics`)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      const families = parsePrometheusText(await answer.text())
      expect(families.get('guildhall_http_requests_total')?.type).toBe('counter')
      expect((await fetch(`${server.metricsUrl}/api/health`)).status).toBe(404)
      expect((await fetch(`${server.metricsUrl}/metrics`, { method: 'POST' })).status).toBe(404)
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404)
      // The public origin's requests are counted; the listener's own are not.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
      const after = parsePrometheusText(await (await fetch(`${server.metricsUrl}/metrics`)).text())
      const requests = after.get('guildhall_http_requests_total')?.samples ?? []
      expect(requests.map(({ labels, value }) => [labels.route, labels.status, value])).toEqual([
        ['none', '404', 1],
        ['/api/health', '200', 1],
      ])
    } finally {
      await server.close()
    }
    // Closed with the server: nothing listens there any more.
    await expect(fetch(`${server.metricsUrl}/metrics`)).rejects.toThrow()
  }, 60_000)

  test('error: a METRICS_PORT already taken fails the start with EADDRINUSE, and nothing is left listening', async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const address = holder.address()
    const taken = typeof address === 'object' && address ? address.port : 0
    const port = await getFreePort()
    try {
      const settings = testSettings({
        origin: null,
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          METRICS_PORT: String(taken),
          SIGN_IN: 'off',
          LOG_LEVEL: 'silent',
        },
      })
      const error = await startServer(settings).then(
        () => undefined,
        (e: unknown) => e as NodeJS.ErrnoException,
      )
      expect(error?.code).toBe('EADDRINUSE')
      // The public listener it had opened is closed again: the port is free.
      const again = createServer()
      await new Promise<void>((resolve, reject) => {
        again.once('error', reject)
        again.listen(port, '127.0.0.1', resolve)
      })
      await new Promise<void>((resolve) => again.close(() => resolve()))
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()))
    }
  }, 60_000)
})
