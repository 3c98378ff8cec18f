// The API describes itself (ADR 045): every route buildApp registers (seen by Fastify's onRoute hook, added
// to every instance here) is in GET /api/openapi.json with its inputs and answers, the committed
// docs/openapi.json is that document, a route without schemas cannot be registered, answers are checked by
// their schemas, and the reference page is this server's own files under the app's CSP.
import type { FastifyInstance, RouteOptions } from 'fastify'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { z } from 'zod'
import { startTestbed, stopTestbed, type Testbed, testApp } from '../../../testbed/test-app.ts'
import { errorsPlugin } from './error-handler.ts'
import { API_DOCS_PREFIX, errorAnswers, OPENAPI_PATH, openapiPlugin } from './openapi.ts'
import { named } from './params.ts'

const registered = vi.hoisted(() => [] as RouteOptions[])
vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof import('fastify')>()
  const withRouteLog = ((options?: object) => {
    const app = fastify.default(options)
    app.addHook('onRoute', (route) => {
      registered.push(route)
    })
    return app
  }) as typeof fastify.default
  return { ...fastify, default: withRouteLog }
})

type Operation = {
  parameters?: { in: string; name: string; schema?: object }[]
  requestBody?: { content: Record<string, { schema?: object }> }
  responses: Record<string, { content?: Record<string, { schema?: object }> }>
}
type Document = { openapi: string; servers?: unknown; paths: Record<string, Record<string, Operation>> }

/** `/api/proposals/:id` as OpenAPI writes it, `/api/proposals/{id}`. */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}')
const methods = (route: RouteOptions) => [route.method].flat().filter((method) => method !== 'HEAD')
const isDocumentRoute = (url: string) => url === OPENAPI_PATH || url.startsWith(API_DOCS_PREFIX)
const isApiRoute = (url: string) =>
  (url.startsWith('/api/') || url.startsWith('/rpc/')) && !isDocumentRoute(url)

let testbed: Testbed
let app: FastifyInstance
let document: Document

beforeAll(async () => {
  testbed = await startTestbed()
  registered.length = 0
  // Sign-in on, a token, names and a proxied local chain (testEnv): every area's routes.
  app = await testApp(testbed)
  document = (await app.inject({ url: OPENAPI_PATH })).json()
}, 120_000)

afterAll(() => stopTestbed(testbed, app))

describe('GET /api/openapi.json', () => {
  test('behavior: lists every API route buildApp registers, with its path params, query, body and answers (success and the error envelope); nothing else', () => {
    const apiRoutes = registered.filter((route) => isApiRoute(route.url))
    // Every area is there (health, sign-in, governance, live events, members, token, names, the RPC proxy).
    expect(apiRoutes.length).toBeGreaterThanOrEqual(31)
    const errorEnvelope = z.toJSONSchema(errorAnswers['4xx'], { io: 'output' })
    const { $schema: _, ...errorJson } = errorEnvelope
    const documented = new Set<string>()
    for (const route of apiRoutes) {
      for (const method of methods(route)) {
        const where = `${method} ${route.url}`
        documented.add(`${method.toLowerCase()} ${openapiPath(route.url)}`)
        const operation = document.paths[openapiPath(route.url)]?.[method.toLowerCase()]
        expect(operation, where).toBeDefined()
        if (!operation) continue
        const parameters = operation.parameters ?? []
        for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
          expect(
            parameters.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema,
            `${where}: path param ${name}`,
          ).toBeDefined()
        }
        const schema = route.schema as { querystring?: z.core.$ZodObject; body?: z.core.$ZodType } | undefined
        // Each field of the query schema is a documented query parameter, and nothing else is.
        expect(
          parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
          `${where}: query`,
        ).toEqual(Object.keys(schema?.querystring?._zod.def.shape ?? {}))
        if (schema?.body) {
          expect(operation.requestBody?.content['application/json']?.schema, `${where}: body`).toBeDefined()
        }
        const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status))
        expect(successes.length, `${where}: success answers`).toBeGreaterThan(0)
        for (const [status, answer] of successes) {
          // 204 has no body; every other success names its content's schema.
          if (status === '204') expect(answer.content, `${where} ${status}`).toBeUndefined()
          else expect(Object.values(answer.content ?? {})[0]?.schema, `${where} ${status}`).toBeDefined()
        }
        for (const status of ['4XX', '5XX']) {
          expect(
            operation.responses[status]?.content?.['application/json']?.schema,
            `${where} ${status}`,
          ).toEqual(errorJson)
        }
      }
    }
    const inDocument = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    )
    expect(inDocument.sort()).toEqual([...documented].sort())
  })

  test('behavior: the committed docs/openapi.json is the document the server generates (its servers aside)', async () => {
    const { servers, ...generated } = document
    expect(document.openapi).toBe('3.1.0')
    expect(servers).toEqual([{ url: 'http://127.0.0.1:3999' }])
    await expect(`${JSON.stringify(generated, null, 2)}\n`).toMatchFileSnapshot(
      '../../../../../docs/openapi.json',
    )
  })
})

describe('the reference page', () => {
  test('behavior: /api/docs/ and every file it loads come from this server, under the same CSP as the rest of the app', async () => {
    const appPolicy = (await app.inject({ url: '/api/health' })).headers['content-security-policy']
    const page = await app.inject({ url: `${API_DOCS_PREFIX}/` })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-security-policy']).toBe(appPolicy)
    const files = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url ?? '')
    expect(files.length).toBeGreaterThanOrEqual(5)
    for (const file of files) {
      expect(file, 'a path on this origin').toMatch(/^\.\/static\//)
      const asset = await app.inject({ url: `${API_DOCS_PREFIX}/${file.slice(2)}` })
      expect(asset.statusCode, file).toBe(200)
      expect(asset.headers['content-security-policy'], file).toBe(appPolicy)
    }
  })
})

describe('schemas at work', () => {
  /** A bare app with the error handler and the schemas' plugin, and `routes` added. */
  async function bareApp(routes: (app: FastifyInstance) => void) {
    const bare = Fastify()
    await bare.register(errorsPlugin)
    await bare.register(openapiPlugin, { appUrl: 'http://127.0.0.1:3999' })
    routes(bare)
    await bare.ready()
    return bare
  }

  test('error: an API route without its answers, or with an input without the words of its 400, cannot be registered', async () => {
    await expect(bareApp((bare) => bare.get('/api/bare', async () => ({})))).rejects.toThrow(
      'GET /api/bare needs its answers (schema.response)',
    )
    await expect(
      bareApp((bare) =>
        bare.get('/api/things/:id', { schema: { response: { 200: z.object({}) } } }, async () => ({})),
      ),
    ).rejects.toThrow('GET /api/things/:id needs its path params (schema.params)')
    await expect(
      bareApp((bare) =>
        bare.get(
          '/api/unnamed',
          { schema: { querystring: z.object({}), response: { 200: z.object({}) } } },
          async () => ({}),
        ),
      ),
    ).rejects.toThrow('GET /api/unnamed: its querystring schema needs named()')
  })

  test("behavior: a bad input answers 400 with the route's words; an answer off its schema is a 500, never sent", async () => {
    const bare = await bareApp((bare) => {
      const schema = {
        querystring: named('thing query', z.strictObject({ n: z.coerce.number().int() })),
        response: { 200: z.strictObject({ n: z.int() }), ...errorAnswers },
      }
      bare.get('/api/thing', { schema }, async (request) => {
        const { n } = request.query as { n: number }
        return n === 13 ? { n, secret: 'not in the schema' } : { n }
      })
    })
    const bad = await bare.inject({ url: '/api/thing?n=x' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({
      error: 'bad_request',
      message: 'Invalid thing query:\n- n: Invalid input: expected number, received NaN',
    })
    const good = await bare.inject({ url: '/api/thing?n=7' })
    expect(good.body).toBe('{"n":7}')
    const off = await bare.inject({ url: '/api/thing?n=13' })
    expect(off.statusCode).toBe(500)
    expect(off.json()).toEqual({ error: 'internal', message: 'Internal error' })
    await bare.close()
  })
})
