import { checksummedAddressSchema } from '../primitives.ts'
import { z } from '../zod.ts'

/** Most addresses one GET /api/names may ask about. */
export const NAMES_PER_REQUEST_MAX = 100

/** GET /api/names?addresses=0x…,0x… : up to 100 addresses, any case, comma-separated. */
export const nameListQuerySchema = z.strictObject({
  addresses: z.pipe(
    z.pipe(
      z.string(),
      z.transform((text: string) => text.split(',')),
    ),
    z
      .array(z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')))
      .check(
        z.minLength(1),
        z.maxLength(NAMES_PER_REQUEST_MAX, `at most ${NAMES_PER_REQUEST_MAX} addresses`),
      ),
  ),
})

export const nameAnswerSchema = z.strictObject({
  address: checksummedAddressSchema,
  /** The primary ENS name, forward-checked; null: none (show the shortened address). */
  name: z.nullable(z.string()),
  /** The avatar image on one of the server's gateways; null: none (show a generated avatar). */
  avatarUrl: z.nullable(z.string()),
  /** True while the address waits for its first lookup: ask again in a few seconds. */
  pending: z.boolean(),
})
export type NameAnswer = z.infer<typeof nameAnswerSchema>

/** GET /api/names: one answer per distinct address asked, in the order asked. */
export const nameListSchema = z.strictObject({ names: z.array(nameAnswerSchema) })
export type NameList = z.infer<typeof nameListSchema>

/** The longest name GET /api/names/resolve takes: DNS's limit, which ENS names meet in practice. */
export const ENS_NAME_MAX_LENGTH = 255

/** GET /api/names/resolve?name=ben.eth : one name, as typed (the server normalises it). */
export const nameResolveQuerySchema = z.strictObject({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Enter a name, such as ben.eth'),
      z.maxLength(ENS_NAME_MAX_LENGTH, `A name is at most ${ENS_NAME_MAX_LENGTH} characters`),
    ),
})

/** GET /api/names/resolve: the name as ENS normalises it and the address its record names. */
export const resolvedNameSchema = z.strictObject({
  name: z.string(),
  address: checksummedAddressSchema,
})
export type ResolvedName = z.infer<typeof resolvedNameSchema>
