// Keyset pagination, for every list: a page reads one row more than it shows (`rowsForPage`, `keysetPage`),
// and its link to the next is the last row's sort key, opaque to clients (base64url of its fields joined by
// ':'), checked on return. Each field states the range of the column it is compared with, so a link a client
// made by hand is a 400 `bad_cursor`, never a value the database refuses (a 500).
import {
  bytes32Schema,
  CURSOR_MAX_LENGTH,
  checksummedAddressSchema,
  tokenAmountSchema,
} from '@guildhall/core'
import { z } from 'zod'
import { ApiError } from './errors.ts'

/** One field of a cursor: its text as `cursorCodec` writes it, read back as a value, or undefined. */
type CursorField<T> = { read: (text: string) => T | undefined }

const schemaField = <T>(schema: z.core.$ZodType<T, string>): CursorField<T> => ({
  read: (text) => {
    const parsed = z.safeParse(schema, text)
    return parsed.success ? parsed.data : undefined
  },
})

/** A whole number from 0 to `max` as `String()` writes it: no sign, no leading zero, no exponent. */
const wholeNumber = (max: bigint): CursorField<bigint> => ({
  read: (text) => {
    if (!/^(0|[1-9]\d*)$/.test(text) || text.length > String(max).length) return undefined
    const value = BigInt(text)
    return value <= max ? value : undefined
  },
})
const mapped = <T, U>(field: CursorField<T>, map: (value: T) => U): CursorField<U> => ({
  read: (text) => {
    const value = field.read(text)
    return value === undefined ? undefined : map(value)
  },
})

/** The largest value of a PostgreSQL `integer` (int4) and `bigint` (int8). */
const INT4_MAX = 2n ** 31n - 1n
const INT8_MAX = 2n ** 63n - 1n

const int4 = mapped(wholeNumber(INT4_MAX), Number)

/** What each kind of column holds, as a cursor field (none of the columns the lists sort on is negative). */
export const cursorField = {
  /** An `integer` column (delegators): 0 … 2,147,483,647. */
  int4,
  /** A log's index in its block (an `integer`), or −1: a treasury row that stands for no one log. */
  logIndex: { read: (text: string) => (text === '-1' ? -1 : int4.read(text)) },
  /** Participation in millionths: an `integer` column whose generated value is capped at 1,000,000. */
  millionths: mapped(wholeNumber(1_000_000n), Number),
  /** A `bigint` column (timestamps, log seqs): 0 … 9,223,372,036,854,775,807. */
  int8: wholeNumber(INT8_MAX),
  /** A token amount, `numeric(78)` holding a uint256: 0 … 2^256 − 1, without leading zeros. */
  uint256: mapped(schemaField(tokenAmountSchema), BigInt),
  /** An address as the server stores it: EIP-55 checksummed. */
  address: schemaField(checksummedAddressSchema),
  /** A proposal's or vote's id: 0x + 64 lower-case hex. */
  digest: schemaField(bytes32Schema),
} satisfies Record<string, CursorField<unknown>>

type Values<F extends readonly CursorField<unknown>[]> = {
  [K in keyof F]: F[K] extends CursorField<infer T> ? T : never
}

const badCursor = (
  message = 'This page link is not valid for this list (it may belong to another order or filter); start from the first page.',
) => new ApiError(400, 'bad_cursor', message)

/**
 * The cursor of one list: an optional tag (the order that wrote it; a cursor is only good for that order)
 * and its fields. `decode` accepts exactly what `encode` writes.
 */
export function cursorCodec<const F extends readonly CursorField<unknown>[]>(tag: string | null, fields: F) {
  return {
    encode(values: Values<F>): string {
      const parts = (values as readonly unknown[]).map(String)
      return Buffer.from((tag === null ? parts : [tag, ...parts]).join(':')).toString('base64url')
    },
    /** The fields of a cursor this list wrote, or a 400 `bad_cursor`. */
    decode(text: string): Values<F> {
      if (text.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw badCursor()
      const decoded = Buffer.from(text, 'base64url').toString('utf8')
      // Canonical base64url of valid UTF-8 only: anything else is a link the server never wrote.
      if (Buffer.from(decoded, 'utf8').toString('base64url') !== text) throw badCursor()
      const parts = decoded.split(':')
      if (tag !== null && parts.shift() !== tag) throw badCursor()
      if (parts.length !== fields.length) throw badCursor()
      const values = fields.map((field, i) => field.read(parts[i] as string))
      if (values.some((value) => value === undefined)) throw badCursor()
      return values as Values<F>
    },
  }
}

/** A cursor field given on its own (GET /api/governance/log?after=<seq>), or a 400 `bad_cursor` saying what it holds. */
export function readCursorField<T>(field: CursorField<T>, text: string, what: string): T {
  const value = field.read(text)
  if (value === undefined) throw badCursor(`This page link is not valid: ${what}.`)
  return value
}

/** How many rows a keyset page reads: one more than it shows, to learn whether a next page exists. */
export const rowsForPage = (limit: number) => limit + 1

/**
 * A keyset page from rows read with `.limit(rowsForPage(limit))`: the first `limit` of them, and the link to
 * the next page (the cursor of the last row shown) when the extra row shows there is one.
 */
export function keysetPage<Row>(
  rows: Row[],
  limit: number,
  cursorOf: (last: Row) => string,
): { page: Row[]; next: string | null } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return { page, next: rows.length > limit && last !== undefined ? cursorOf(last) : null }
}
