// The error handler's answer to a database that is gone (issue: a connection cut turned into 500s): every
// error class that says the database is unavailable is a 503 with Retry-After, judged by the error alone;
// a genuine bug stays a 500. The errors are the drivers' own where they are cheap to provoke (a refused
// connection, a pool's connect timeout, a closed pool or PGlite), else built as node-postgres builds them
// (`new Error(message)`, `DatabaseError` with its SQLSTATE), wrapped by drizzle as queries wrap them.
import { createServer, type Server } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { DrizzleQueryError } from 'drizzle-orm'
import Fastify from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chainRead } from '../../governance/deps.ts'
import { isDatabaseUnavailable } from '../db/errors.ts'
import { statementRetryIsSafe, transactionRetryIsSafe } from '../db/retry-once.ts'
import { errorsPlugin } from './error-handler.ts'

/** An error as node-postgres reports the server's ErrorResponse with this SQLSTATE. */
const serverError = (code: string, message: string) => {
  const error = new pg.DatabaseError(message, message.length, 'error')
  error.code = code
  error.severity = 'FATAL'
  return error
}
/** As drizzle wraps a driver's error of a failed statement. */
const failedQuery = (query: string, cause: Error) => new DrizzleQueryError(query, [], cause)
const socketError = (code: string, syscall: string) =>
  Object.assign(new Error(`${syscall} ${code}`), { code, errno: -1, syscall })

/** Each SQLSTATE of the database failing rather than the statement, with the server's words. */
const UNAVAILABLE_SQLSTATES: [string, string][] = [
  ['57P01', 'terminating connection due to administrator command'],
  ['57P02', 'terminating connection because of crash of another server process'],
  ['57P03', 'the database system is starting up'],
  ['08000', 'connection exception'],
  ['08001', 'could not connect to server'],
  ['08003', 'connection does not exist'],
  ['08004', 'the database system is in recovery mode'],
  ['08006', 'connection failure'],
  ['08007', 'transaction resolution unknown'],
  ['53300', 'sorry, too many clients already'],
]
/** node-postgres' and PGlite's own errors for a connection or database that is gone. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'timeout expired',
]
const UNAVAILABLE_SOCKET_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]

/** Provoked for real: what the drivers throw in each situation. */
const real: Record<string, Error> = {}
let silent: Server

beforeAll(async () => {
  const capture = async (name: string, run: () => Promise<unknown>) => {
    try {
      await run()
    } catch (error) {
      real[name] = error as Error
      return
    }
    throw new Error(`${name}: no error`)
  }
  await capture('connection refused (pool.query)', () =>
    new pg.Pool({ connectionString: 'postgres://guildhall@127.0.0.1:1/guildhall' }).query('select 1'),
  )
  // A server that accepts the connection and never answers: the pool's connect timeout.
  silent = createServer(() => undefined)
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  const port = (silent.address() as { port: number }).port
  const slowPool = new pg.Pool({
    connectionString: `postgres://guildhall@127.0.0.1:${port}/guildhall`,
    connectionTimeoutMillis: 100,
  })
  await capture('pool connect timeout', () => slowPool.query('select 1'))
  const ended = new pg.Pool({ connectionString: 'postgres://guildhall@127.0.0.1:1/guildhall' })
  await ended.end()
  await capture('pool ended (server shutting down)', () => ended.query('select 1'))
  const pglite = await PGlite.create()
  await pglite.close()
  await capture('PGlite closed (server shutting down)', () => pglite.query('select 1'))
}, 60_000)

afterAll(() => {
  silent?.close()
})

/** Every database-unavailable error, each alone and as drizzle wraps it. */
const unavailable = (): [string, Error][] => {
  const bare: [string, Error][] = [
    ...UNAVAILABLE_SQLSTATES.map(([code, message]): [string, Error] => [
      `${code} ${message}`,
      serverError(code, message),
    ]),
    ...UNAVAILABLE_MESSAGES.map((message): [string, Error] => [message, new Error(message)]),
    ...UNAVAILABLE_SOCKET_CODES.map((code): [string, Error] => [code, socketError(code, 'read')]),
    ...Object.entries(real),
  ]
  return bare.flatMap(([name, error]): [string, Error][] => [
    [name, error],
    [`${name}, wrapped by drizzle`, failedQuery('select 1', error)],
  ])
}

/** What the database ends whole, applying none of it (ADR 091), each alone and as drizzle wraps it. */
const ended = (): [string, Error][] =>
  (
    [
      ['40P01 deadlock detected', serverError('40P01', 'deadlock detected')],
      [
        '40001 could not serialize access',
        serverError('40001', 'could not serialize access due to concurrent update'),
      ],
    ] as [string, Error][]
  ).flatMap(([name, error]): [string, Error][] => [
    [name, error],
    [`${name}, wrapped by drizzle`, failedQuery('update …', error)],
  ])

/** Bugs and bad statements: they would fail the same way again, and must stay visible as 500s. */
const bugs = (): [string, Error][] => [
  ['TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['plain Error', new Error('Statement 0xabc has no log entry')],
  [
    'undefined column (42703)',
    failedQuery('select nope', serverError('42703', 'column "nope" does not exist')),
  ],
  ['not-null violation (23502)', failedQuery('insert …', serverError('23502', 'null value in column'))],
  ['syntax error (42601)', failedQuery('selec 1', serverError('42601', 'syntax error at or near "selec"'))],
  ['a message merely mentioning a connection', new Error('Connection terminated unexpectedly by the chain')],
]

describe('the error handler', () => {
  const app = Fastify()
  let thrown: Error = new Error('unset')
  beforeAll(async () => {
    await app.register(errorsPlugin)
    app.get('/fail', async () => {
      throw thrown
    })
    await app.ready()
  })
  afterAll(() => app.close())
  const answer = async (error: Error) => {
    thrown = error
    const response = await app.inject({ method: 'GET', url: '/fail' })
    return {
      status: response.statusCode,
      retryAfter: response.headers['retry-after'],
      body: response.json() as { error: string },
    }
  }

  test('behavior: every database-unavailable error class (SQLSTATE, driver message, socket code, connect timeout, closed pool or PGlite), bare or wrapped by drizzle → 503 database_unavailable with Retry-After', async () => {
    const cases = unavailable()
    expect(cases.length).toBeGreaterThanOrEqual(2 * (10 + 7 + 8 + 4))
    for (const [name, error] of cases) {
      expect(isDatabaseUnavailable(error), name).toBe(true)
      expect({ name, ...(await answer(error)) }).toEqual({
        name,
        status: 503,
        retryAfter: '5',
        body: { error: 'database_unavailable', message: 'The database does not answer. Try again shortly.' },
      })
    }
  })

  test('behavior: a statement the database ended again on its one more try (deadlock 40P01, serialization failure 40001), bare or wrapped by drizzle → 503 database_unavailable saying it was busy, with Retry-After', async () => {
    for (const [name, error] of ended()) {
      expect({ name, ...(await answer(error)) }).toEqual({
        name,
        status: 503,
        retryAfter: '5',
        body: {
          error: 'database_unavailable',
          message: 'The database was busy with other changes. Try again shortly.',
        },
      })
    }
  })

  test('error: a genuine bug (a TypeError, a bad statement, a constraint, a message that only mentions a connection) → still 500 internal, no Retry-After', async () => {
    for (const [name, error] of bugs()) {
      expect(isDatabaseUnavailable(error), name).toBe(false)
      expect({ name, ...(await answer(error)) }).toEqual({
        name,
        status: 500,
        retryAfter: undefined,
        body: { error: 'internal', message: 'Internal error' },
      })
    }
  })
})

test('behavior: a database failure inside a chain read (voting power from the token index) → 503 database_unavailable; the node failing → 503 chain_unavailable', async () => {
  const app = Fastify()
  await app.register(errorsPlugin)
  const failures: Record<string, Error> = {
    database: failedQuery(
      'select …',
      serverError('57P01', 'terminating connection due to administrator command'),
    ),
    node: new Error('HTTP request failed. URL: http://127.0.0.1:8545'),
  }
  app.get<{ Params: { failing: string } }>('/power/:failing', async (request) =>
    chainRead(() => Promise.reject(failures[request.params.failing])),
  )
  try {
    for (const [failing, code] of [
      ['database', 'database_unavailable'],
      ['node', 'chain_unavailable'],
    ]) {
      const response = await app.inject({ method: 'GET', url: `/power/${failing}` })
      expect({
        failing,
        status: response.statusCode,
        retryAfter: response.headers['retry-after'],
        error: response.json().error,
      }).toEqual({
        failing,
        status: 503,
        retryAfter: '5',
        error: code,
      })
    }
  } finally {
    await app.close()
  }
})

describe('when a failed statement or transaction is sent again', () => {
  const terminated = failedQuery(
    '…',
    serverError('57P01', 'terminating connection due to administrator command'),
  )
  const cut = new Error('Connection terminated unexpectedly')
  const deadClient = new Error('Client has encountered a connection error and is not queryable')

  test('behavior: a SELECT outside a transaction whose connection was cut is sent again; a write only when it never reached the server', () => {
    expect(statementRetryIsSafe('select "id" from "votes" where "id" = $1', terminated)).toBe(true)
    expect(statementRetryIsSafe('  SELECT 1', cut)).toBe(true)
    // A write whose connection broke may have committed: not sent twice.
    expect(statementRetryIsSafe('insert into "auth_nonces" values ($1)', terminated)).toBe(false)
    expect(statementRetryIsSafe('update "sessions" set "last_seen_at" = $1', cut)).toBe(false)
    expect(statementRetryIsSafe('with moved as (delete from x returning *) select * from moved', cut)).toBe(
      false,
    )
    // Never sent: a connection already dead, or none made.
    expect(statementRetryIsSafe('insert into "auth_nonces" values ($1)', deadClient)).toBe(true)
    expect(
      statementRetryIsSafe('insert into "auth_nonces" values ($1)', real['connection refused (pool.query)']),
    ).toBe(true)
    expect(statementRetryIsSafe('insert …', serverError('57P03', 'the database system is starting up'))).toBe(
      true,
    )
  })

  test('behavior: a statement the database ended whole (a deadlock, a serialization failure) is sent again, a write as well as a read', () => {
    for (const [name, error] of ended()) {
      expect(statementRetryIsSafe('update "auth_nonces" set "consumed_at" = $1', error), name).toBe(true)
      expect(statementRetryIsSafe('select 1', error), name).toBe(true)
    }
  })

  test('error: a connect timeout or a genuine error is not retried, even for a SELECT', () => {
    expect(statementRetryIsSafe('select 1', real['pool connect timeout'] as Error)).toBe(false)
    expect(statementRetryIsSafe('select 1', new Error('timeout exceeded when trying to connect'))).toBe(false)
    for (const [name, error] of bugs()) expect(statementRetryIsSafe('select 1', error), name).toBe(false)
  })

  test('behavior: a transaction runs again only when COMMIT was never sent; once it was, its outcome is unknown and it is not', () => {
    for (const error of [terminated, cut, deadClient, failedQuery('rollback', deadClient)])
      expect(transactionRetryIsSafe(false, error)).toBe(true)
    for (const error of [terminated, cut, failedQuery('commit', cut)])
      expect(transactionRetryIsSafe(true, error)).toBe(false)
    expect(transactionRetryIsSafe(false, real['pool connect timeout'] as Error)).toBe(false)
    for (const [name, error] of bugs()) expect(transactionRetryIsSafe(false, error), name).toBe(false)
  })

  test('behavior: a transaction the database ended whole runs again, even once COMMIT was sent: the error itself says it rolled back', () => {
    for (const [name, error] of ended()) {
      expect(transactionRetryIsSafe(false, error), name).toBe(true)
      expect(transactionRetryIsSafe(true, error), name).toBe(true)
    }
  })
})
