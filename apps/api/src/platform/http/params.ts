// What routes take in: the path parameters they share, one definition each, and how every route's declared
// params, querystring and body are checked before its handler runs (a 400 naming what was wrong).
import { BYTES32_PATTERN, formatIssues } from '@guildhall/core'
import type { FastifySchemaCompiler } from 'fastify'
import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { ApiError } from './errors.ts'

/** A session id as the database writes it; anything else would fail inside the query (a 500). */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A proposal id: its EIP-712 digest, as the server writes it (lower-case hex). */
export const proposalIdParams = z.strictObject({
  id: z.string().regex(BYTES32_PATTERN, 'must be a proposal id (0x + 64 hex)'),
})

const ADDRESS_REFUSAL = 'Invalid address: must be 0x + 40 hex digits'
const isAnyCaseAddress = (value: string) => isAddress(value, { strict: false })

/** A path's address (any case), which a handler reads with `addressParam`: documented, not checked here. */
export const addressPathSchema = z.string().meta({ description: 'An address: 0x + 40 hex digits, any case.' })

/** How each declared input's 400 reads (the same schema may be "votes query" on one route, "proposals query" on another). */
const refusals = new WeakMap<z.core.$ZodType, (error: z.core.$ZodError) => string>()

/** A copy of `schema` whose 400 says `refusal`: a copy, so one schema can read differently on each route. */
function refused<S extends z.core.$ZodType>(schema: S, refusal: (error: z.core.$ZodError) => string): S {
  const copy = z.core.util.clone(schema)
  refusals.set(copy, refusal)
  return copy
}

/** `schema` as a route's params, querystring or body, whose 400 reads "Invalid <what>:" and then the issues. */
export const named = <S extends z.core.$ZodType>(what: string, schema: S): S =>
  refused(schema, (error) => `Invalid ${what}:\n${formatIssues(error)}`)

/** `schema` as a route's input, whose 400 is `message` whatever the issues. */
function refusedAs<S extends z.core.$ZodType>(message: string, schema: S): S {
  return refused(schema, () => message)
}

/** Inputs whose handler checks them itself (the RPC proxy answers each call of a batch by its index). */
const checkedByHandler = new WeakSet<z.core.$ZodType>()

/** `schema` documents the input; the handler checks it, with answers a schema's issues cannot give. */
export function checkedInHandler<S extends z.core.$ZodType>(schema: S): S {
  const copy = z.core.util.clone(schema)
  checkedByHandler.add(copy)
  return copy
}

/**
 * The root's validator compiler: every declared input is parsed by its zod schema (core's zod/mini or the
 * API's classic zod, both core types), and handlers get the parsed value. A route whose input says nothing
 * of its 400 cannot be registered.
 */
export const validatorCompiler: FastifySchemaCompiler<z.core.$ZodType> = ({
  schema,
  method,
  url,
  httpPart,
}) => {
  if (checkedByHandler.has(schema)) return (data) => ({ value: data })
  const refusal = refusals.get(schema)
  if (refusal === undefined) throw new Error(`${method} ${url}: its ${httpPart} schema needs named()`)
  return (data) => {
    const parsed = z.safeParse(schema, data)
    return parsed.success ? { value: parsed.data } : { error: ApiError.badRequest(refusal(parsed.error)) }
  }
}

/** An address parameter (any case) in its checksummed form, or a 400. */
export function addressParam(value: string): Address {
  if (!isAnyCaseAddress(value)) throw ApiError.badRequest(ADDRESS_REFUSAL)
  return getAddress(value)
}

/** A session id parameter (`sessionIdPathSchema`), or a 400. */
export function sessionIdParam(value: string): string {
  if (!SESSION_ID.test(value)) throw ApiError.badRequest('A session id is a UUID.')
  return value
}

/** A path's session id, read by `sessionIdParam`, whose 400 has its own words. */
export const sessionIdPathSchema = z.string().meta({ description: 'A session id (a UUID).' })

/** A path's address checked before the body (its 400 first), given to the handler checksummed. */
export const addressParams = refusedAs(
  ADDRESS_REFUSAL,
  z.strictObject({
    address: z
      .string()
      .refine(isAnyCaseAddress)
      .transform((value) => getAddress(value))
      .meta({ description: 'An address: 0x + 40 hex digits, any case.' }),
  }),
)
