// Path parameters shared by the routes, one definition each.
import { BYTES32_PATTERN, formatIssues } from '@guildhall/core'
import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { ApiError } from './errors.ts'

/** A session id as the database writes it; anything else would fail inside the query (a 500). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A proposal id: its EIP-712 digest, as the server writes it (lower-case hex). */
export const proposalIdParams = z.strictObject({
  id: z.string().regex(BYTES32_PATTERN, 'must be a proposal id (0x + 64 hex)'),
})

/** `value` parsed by `schema`, or a 400 naming `what` and the issues. */
export function parse<S extends z.core.$ZodType>(schema: S, value: unknown, what: string): z.core.output<S> {
  const parsed = z.safeParse(schema, value)
  // Core's schemas are zod/mini, these routes' own are classic: both fail with a core $ZodError.
  if (!parsed.success) throw ApiError.badRequest(`Invalid ${what}:\n${formatIssues(parsed.error)}`)
  return parsed.data
}

/** An address parameter (any case) in its checksummed form, or a 400. */
export function addressParam(value: string): Address {
  if (!isAddress(value, { strict: false }))
    throw ApiError.badRequest('Invalid address: must be 0x + 40 hex digits')
  return getAddress(value)
}

/** A session id parameter, or a 400. */
export function sessionIdParam(value: string): string {
  if (!SESSION_ID.test(value)) throw ApiError.badRequest('A session id is a UUID.')
  return value
}
