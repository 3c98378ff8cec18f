import { ApiRequestError, NETWORK_DOWN_MESSAGE } from '../../lib/api.ts'

/**
 * A mutating call to the auth API. Always a JSON body (`{}` when there is nothing to send): the server
 * refuses mutating requests that are not `application/json` (ADR 007), and the browser adds `Origin`.
 * Resolves with the response whatever its status; rejects with an `ApiRequestError` of status 0 only
 * when the server could not be reached.
 */
export async function sendJson(
  method: 'POST' | 'DELETE',
  path: string,
  body: unknown = {},
): Promise<Response> {
  try {
    return await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    })
  } catch {
    throw new ApiRequestError(0, NETWORK_DOWN_MESSAGE)
  }
}

/** A readable sentence for any error an auth call can end with (never a stack trace). */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message
  return 'Something went wrong. Please try again.'
}
