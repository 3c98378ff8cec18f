// The API describes itself (ADR 045): every route declares its inputs and answers as zod schemas (core's
// where they exist); requests are checked by them (params.ts), answers too, and @fastify/swagger
// turns them, through fastify-type-provider-zod, into the OpenAPI 3.1 document at GET /api/openapi.json,
// which @fastify/swagger-ui shows at /api/docs/ from this server's own files.
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import { apiErrorSchema, formatIssues } from '@guildhall/core'
import type { FastifyInstance, FastifySerializerCompiler, FastifyTypeProvider, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { validatorCompiler } from './params.ts'

/** Where the document and its reference page are served. */
export const OPENAPI_PATH = '/api/openapi.json'
export const API_DOCS_PREFIX = '/api/docs'

/**
 * Routes' types from their schemas (`app.withTypeProvider<ApiTypeProvider>()`): a handler gets its inputs as
 * parsed, and returns its answer as it goes on the wire, the schema's input (core's answers type an address
 * as viem's Address only once a client has parsed it).
 */
export interface ApiTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.core.$ZodType ? z.output<this['schema']> : unknown
  serializer: this['schema'] extends z.core.$ZodType ? z.input<this['schema']> : unknown
}

/** The answer every refusal and failure has (errors.ts, error-handler.ts), for a route's `response`. */
export const errorAnswers = { '4xx': apiErrorSchema, '5xx': apiErrorSchema } as const

/**
 * The root's serializer compiler: an answer that does not match its route's schema is a bug, answered 500
 * and logged, never sent. Checked by parsing (core's schemas type addresses and digests with one-way
 * transforms, which the integration's encoding serializer refuses); what is sent is the value as it was.
 */
const serializerCompiler: FastifySerializerCompiler<z.core.$ZodType> =
  ({ schema, method, url, httpStatus }) =>
  (data) => {
    const checked = z.safeParse(schema, data)
    if (!checked.success) {
      throw new Error(
        `${method} ${url} ${httpStatus}: the answer does not match its schema:\n${formatIssues(checked.error)}`,
      )
    }
    return JSON.stringify(data)
  }

/** Paths of the API (its JSON and the browser's RPC), as opposed to the web app's pages and files. */
const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/rpc/')

/**
 * An API route without its schemas cannot be registered: each declares its path params, its answers (and
 * so appears in the document); only the document's own routes are left out of it.
 */
function requireSchemas(route: RouteOptions) {
  if (!isApiPath(route.url) || route.url === OPENAPI_PATH || route.url.startsWith(API_DOCS_PREFIX)) return
  const schema = route.schema as { params?: unknown; response?: object; hide?: boolean } | undefined
  const problems = [
    ...(schema?.response ? [] : ['its answers (schema.response)']),
    ...(route.url.includes(':') && !schema?.params ? ['its path params (schema.params)'] : []),
    ...(schema?.hide ? ['to be in the document (schema.hide)'] : []),
  ]
  if (problems.length > 0) throw new Error(`${route.method} ${route.url} needs ${problems.join(', ')}`)
}

/**
 * Two kinds of schema zod cannot draw as JSON Schema: a pipe into a transform (core's
 * `checksummedAddressSchema`, `bytes32Schema`, which type the text as viem's Address or Hex) is drawn as its
 * input, the text a client reads and parses with the same schema; an answer with no body (`z.undefined()`,
 * 204) as null, which @fastify/swagger writes as an answer without content.
 */
function drawUnrepresentable({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: object }) {
  const def = zodSchema._zod.def
  if (def.type === 'undefined') Object.assign(jsonSchema, { type: 'null' })
  if (def.type !== 'pipe' || Object.keys(jsonSchema).length > 0) return
  const pipe = def as z.core.$ZodPipeDef
  if (pipe.out._zod.def.type !== 'transform') return
  const { $schema: _, ...input } = z.toJSONSchema(pipe.in, { io: 'input', unrepresentable: 'any' })
  Object.assign(jsonSchema, input)
}

export const openapiPlugin = fp(
  async (app: FastifyInstance, { appUrl }: { appUrl: string }) => {
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    app.addHook('onRoute', requireSchemas)
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Guildhall API',
          version: '1',
          description:
            'The HTTP API of this Guildhall server: proposals, votes and delegate statements (signed EIP-712 messages), members, names, the governance token, sign-in and sessions, live events, and the JSON-RPC of local chains. Errors answer `{ error, message }`. Requests that change something must carry the app’s Origin.',
        },
        servers: [{ url: appUrl }],
      },
      transform: createJsonSchemaTransform({
        skipList: [],
        zodToJsonConfig: { override: drawUnrepresentable },
      }),
      transformObject: jsonSchemaTransformObject,
    })
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger())
    // Its assets are files of the package (no other host; its validator badge is off by default), under the
    // app's CSP: its script is files too.
    await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, theme: { title: 'Guildhall API' } })
  },
  { name: 'guildhall-openapi' },
)
