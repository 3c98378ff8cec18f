// What a database error means, from the error alone (either backend, wrapped by drizzle or not): the
// database unavailable (ADR 036: answered 503 with Retry-After, and the ground for sending a statement or a
// transaction again once, retry-once.ts), or a statement refused, such as a unique violation.

/** The error and its causes (drizzle's DrizzleQueryError wraps the driver's error as `cause`), outermost first. */
const errorChain = (error: unknown): { code?: unknown; message?: unknown }[] => {
  const chain = []
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    chain.push(e as { code?: unknown; message?: unknown })
    e = (e as { cause?: unknown }).cause
  }
  return chain
}

/** The first code of the error or its causes: a SQLSTATE from either backend, or a socket error's. */
const errorCode = (error: unknown): string | undefined => {
  const code = errorChain(error).find((e) => typeof e.code === 'string')?.code
  return code as string | undefined
}

/**
 * SQLSTATEs of the database failing rather than the statement: class 08 connection exceptions (08007: the
 * connection broke during COMMIT), the server shutting down, crashing or still starting (57P01, 57P02,
 * 57P03), and no connection slot left (53300).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])
/** Node's socket errors while connecting to, or talking with, the database server. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** node-postgres' own errors for a connection that could not be made in time (the pool's, a client's). */
const CONNECT_TIMEOUT_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'timeout expired',
])
/** node-postgres' errors for a statement given to a connection already known dead: it was never sent. */
const NOT_SENT_MESSAGES = new Set([
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
])
/**
 * The rest of node-postgres' and PGlite's errors for a connection (or database) that is gone: the socket
 * closed under a statement, the pool or the embedded database closed (while the server shuts down).
 */
const GONE_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
  'PGlite is closing',
])

const inChain = (error: unknown, test: (e: { code?: unknown; message?: unknown }) => boolean) =>
  errorChain(error).some(test)
const hasMessage = (messages: Set<string>) => (e: { message?: unknown }) =>
  typeof e.message === 'string' && messages.has(e.message)

/**
 * True when `error` says the database could not be reached or dropped the connection (a restart, failover,
 * a pooler or an operator ending sessions, no slot left), not that a statement was wrong: the request may
 * succeed if tried again shortly, so the API answers 503 with Retry-After (platform/http/error-handler.ts). Judged by
 * the error alone: by the time anyone asks the database, the pool may have reconnected.
 */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  inChain(
    error,
    (e) =>
      (typeof e.code === 'string' &&
        (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_SOCKET_CODES.has(e.code))) ||
      hasMessage(CONNECT_TIMEOUT_MESSAGES)(e) ||
      hasMessage(NOT_SENT_MESSAGES)(e) ||
      hasMessage(GONE_MESSAGES)(e),
  )

/** The database refused or could not take a new connection, so nothing was sent on it. */
const neverConnected = (e: { code?: unknown }) =>
  e.code === 'ECONNREFUSED' || e.code === '57P03' || e.code === '53300'

/** A connect timeout: trying again at once would only wait as long again, on a server already slow. */
export const isConnectTimeout = (error: unknown) => inChain(error, hasMessage(CONNECT_TIMEOUT_MESSAGES))

/** The database-unavailable error happened before the statement reached the server. */
export const neverSent = (error: unknown) =>
  inChain(error, (e) => hasMessage(NOT_SENT_MESSAGES)(e) || neverConnected(e))

/** PostgreSQL's unique_violation (SQLSTATE 23505), from either backend, wrapped by drizzle or not. */
export const isUniqueViolation = (error: unknown): boolean => errorCode(error) === '23505'

/** The SQLSTATE of a database error (either backend), if any. */
export const sqlState = errorCode

/**
 * SQLSTATEs of a statement or transaction the database itself ended, applying none of it, so it is safe to
 * run again whole: a deadlock it broke (40P01), a serialization failure (40001).
 */
const ENDED_BY_THE_DATABASE = new Set(['40P01', '40001'])

/** True when the database ended the statement or transaction whole (ENDED_BY_THE_DATABASE). */
export const endedByTheDatabase = (error: unknown): boolean =>
  ENDED_BY_THE_DATABASE.has(errorCode(error) ?? '')
