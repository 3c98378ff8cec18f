/**
 * The HTTP contract of sign-in and sessions (ADR 007). Shared by apps/api (validates requests, shapes responses)
 * and apps/web (validates responses). Errors use `apiErrorSchema` (`errors.ts`).
 */
import { chainIdSchema, checksummedAddressSchema, signatureSchema } from '../primitives.ts'
import { SIWE_MESSAGE_MAX_LENGTH } from '../siwe.ts'
import { z } from '../zod.ts'

const isoDateTime = z.iso.datetime()

/** POST /api/auth/nonce → 200 */
export const nonceResponseSchema = z.strictObject({
  nonce: z.string().check(z.regex(/^[A-Za-z0-9]{8,128}$/, 'must be 8 to 128 ASCII letters or digits')),
})

/**
 * POST /api/auth/verify body. The message is parsed strictly afterwards (`parseSiweMessageStrict`); the signature is
 * whole bytes of hex, possibly empty (`0x`: a Safe's on-chain approved message has no signature bytes).
 */
export const verifyRequestSchema = z.strictObject({
  message: z.string().check(z.minLength(1), z.maxLength(SIWE_MESSAGE_MAX_LENGTH)),
  signature: signatureSchema,
})

/** The signed-in session as the web app sees it (the server's record of it is a database row). */
const publicSessionSchema = z.strictObject({
  address: checksummedAddressSchema,
  chainId: chainIdSchema,
  /** When the session ends at the latest (ISO 8601, UTC). */
  expiresAt: isoDateTime,
})
export type PublicSession = z.infer<typeof publicSessionSchema>

/** POST /api/auth/verify → 200 and GET /api/auth/session → 200 (`null` when signed out; never 401). */
export const sessionResponseSchema = z.strictObject({ session: z.nullable(publicSessionSchema) })
export type SessionResponse = z.infer<typeof sessionResponseSchema>

/** GET /api/auth/sessions → 200: the signed-in address's sessions. */
export const sessionsResponseSchema = z.strictObject({
  sessions: z.array(
    z.strictObject({
      id: z.uuid(),
      chainId: chainIdSchema,
      createdAt: isoDateTime,
      lastSeenAt: isoDateTime,
      expiresAt: isoDateTime,
      /** The session of this request. */
      current: z.boolean(),
      userAgent: z.nullable(z.string()),
    }),
  ),
})
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>
export type SessionListItem = SessionsResponse['sessions'][number]
