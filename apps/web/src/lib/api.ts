import { apiErrorSchema } from '@guildhall/core'
import type { z } from 'zod/mini'

export class ApiRequestError extends Error {
  override name = 'ApiRequestError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** What the user reads when the server cannot be reached at all. */
export const NETWORK_DOWN_MESSAGE =
  'The Guildhall server could not be reached. Check your connection and try again.'

/** The server's own sentence for a failed response, or a plain one when it sent none. */
export async function errorFromResponse(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => null)
  const parsed = apiErrorSchema.safeParse(body)
  return new ApiRequestError(
    response.status,
    parsed.success ? parsed.data.message : `The server answered ${response.status}.`,
  )
}

/** GETs an API path and validates the answer; errors carry the server's message. */
export async function apiGet<T extends z.ZodMiniType>(path: string, schema: T): Promise<z.infer<T>> {
  let response: Response
  try {
    response = await fetch(path, { headers: { accept: 'application/json' } })
  } catch {
    throw new ApiRequestError(0, NETWORK_DOWN_MESSAGE)
  }
  if (!response.ok) throw await errorFromResponse(response)
  return schema.parse(await response.json())
}
