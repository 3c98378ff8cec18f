import { apiErrorSchema } from '@guildhall/core'
import type { z } from 'zod'

export class ApiRequestError extends Error {
  override name = 'ApiRequestError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** GETs an API path and validates the answer; errors carry the server's message. */
export async function apiGet<T extends z.ZodType>(path: string, schema: T): Promise<z.infer<T>> {
  let response: Response
  try {
    response = await fetch(path, { headers: { accept: 'application/json' } })
  } catch {
    throw new ApiRequestError(0, 'The Guildhall server could not be reached. Check your connection.')
  }
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const parsed = apiErrorSchema.safeParse(body)
    throw new ApiRequestError(
      response.status,
      parsed.success ? parsed.data.message : `The server answered ${response.status}.`,
    )
  }
  return schema.parse(body)
}
