import { apiErrorSchema } from '@guildhall/core'
import { ApiRequestError } from '../../lib/api.ts'

/** What the user reads when the server cannot be reached at all. */
export const NETWORK_DOWN_MESSAGE =
  'The Guildhall server could not be reached. Check your connection and try again.'

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

/** The server's own sentence for a failed response, or a plain one when it sent none. */
export async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => null)
  const parsed = apiErrorSchema.safeParse(body)
  return new ApiRequestError(
    response.status,
    parsed.success ? parsed.data.message : `The server answered ${response.status}.`,
  )
}

/** A readable sentence for any error an auth call can end with (never a stack trace). */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message
  return 'Something went wrong. Please try again.'
}
