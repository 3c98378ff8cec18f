import { apiErrorSchema } from '@guildhall/core'
import type { z } from 'zod/mini'

export class ApiRequestError extends Error {
  override name = 'ApiRequestError'
  constructor(
    readonly status: number,
    message: string,
    /** The server's error code (`{error}`), when it sent one: what a caller may act on, never shown. */
    readonly code?: string,
  ) {
    super(message)
  }
}

/** What the user reads when the server cannot be reached at all. */
export const NETWORK_DOWN_MESSAGE =
  'The Guildhall server could not be reached. Check your connection and try again.'

/**
 * What the user reads when the server's answer is not what this version of the app expects (a schema
 * mismatch, or no JSON at all): validation details mean nothing to a reader, so they go to the console.
 */
export const UNEXPECTED_ANSWER_MESSAGE =
  'The server sent an answer this page cannot read. Reload the page; if it happens again, the server may be running another version of Guildhall.'

/** The JSON body of a successful `response`, validated by `schema`; otherwise an error with a sentence. */
async function readAnswer<T extends z.ZodMiniType>(response: Response, schema: T): Promise<z.infer<T>> {
  let body: unknown
  try {
    body = await response.json()
  } catch (error) {
    console.error(`The answer from ${response.url} is not JSON:`, error)
    throw new ApiRequestError(response.status, UNEXPECTED_ANSWER_MESSAGE)
  }
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  console.error(`The answer from ${response.url} does not match what the app expects:`, parsed.error)
  throw new ApiRequestError(response.status, UNEXPECTED_ANSWER_MESSAGE)
}

/**
 * A sentence for any error a request can end with: the server's or ours, never a stack or raw issues.
 * `otherwise` is what a reader sees for an error that is not a request's (the detail goes to the console).
 */
export function describeRequestError(
  error: unknown,
  otherwise = 'Something went wrong. Reload the page to try again.',
): string {
  if (error instanceof ApiRequestError) return error.message
  console.error(error)
  return otherwise
}

/** The server's own sentence for a failed response, or a plain one when it sent none. */
async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => null)
  const parsed = apiErrorSchema.safeParse(body)
  return new ApiRequestError(
    response.status,
    parsed.success ? parsed.data.message : `The server answered ${response.status}.`,
    parsed.success ? parsed.data.error : undefined,
  )
}

/** How a request may be sent. */
export type RequestOptions = {
  /**
   * The request may be sent again when its connection failed before an answer came (a reset, the server
   * or the proxy's instance gone mid-request): then the client cannot know whether the server acted, and
   * sending it once more must be harmless. True for GET (a read); for a POST or DELETE only where the
   * server makes a repeat harmless: a signed message is stored once by its digest and a replay answers 200,
   * and logout answers 204 whether or not a session is left. Not for sign-in's verify (it consumes the
   * nonce: a replay is refused) nor a nonce (the sign-in adapter retries it itself).
   */
  idempotent?: boolean
}

/**
 * Sends one request to the API. Mutating requests always carry a JSON body (`{}` when there is nothing to
 * send): the server refuses mutating requests that are not `application/json` (ADR 007), and the browser
 * adds `Origin`. An idempotent request (`options`) whose connection failed is sent once more at once
 * (through a balancer, the next attempt reaches another instance); an answer, any status, is never resent.
 * Resolves with the response whatever its status; rejects with an `ApiRequestError` of status 0 only when
 * the server could not be reached.
 */
export async function apiFetch(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown = {},
  { idempotent = method === 'GET' }: RequestOptions = {},
): Promise<Response> {
  const init: RequestInit =
    method === 'GET'
      ? { headers: { accept: 'application/json' } }
      : {
          method,
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        }
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(path, init)
    } catch (error) {
      // fetch rejects with a TypeError ("Failed to fetch") when no answer came; anything else (an abort) is final.
      if (!(idempotent && attempt === 1 && error instanceof TypeError))
        throw new ApiRequestError(0, NETWORK_DOWN_MESSAGE)
    }
  }
}

/** GETs an API path and validates the answer; errors carry the server's message. */
export const apiGet = <T extends z.ZodMiniType>(path: string, schema: T): Promise<z.infer<T>> =>
  apiSend('GET', path, undefined, schema)

/**
 * Sends a request (a JSON body for POST and DELETE) and validates the answer, if `schema` is given;
 * errors carry the server's message. `options` as for apiFetch.
 */
export async function apiSend<T extends z.ZodMiniType>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown,
  schema: T,
  options?: RequestOptions,
): Promise<z.infer<T>>
export async function apiSend(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<void>
export async function apiSend(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  schema?: z.ZodMiniType,
  options?: RequestOptions,
): Promise<unknown> {
  const response = await apiFetch(method, path, body, options)
  if (!response.ok) throw await errorFromResponse(response)
  return schema && readAnswer(response, schema)
}
