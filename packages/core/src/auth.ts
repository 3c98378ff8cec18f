/**
 * The HTTP contract of sign-in and sessions (ADR 007). Shared by apps/api (validates requests, shapes responses)
 * and apps/web (validates responses). Errors use `apiErrorSchema` from `api-schemas.ts`.
 */
import { type Address, checksumAddress } from 'viem'
import { z } from 'zod'
import { SIWE_MESSAGE_MAX_LENGTH } from './siwe.ts'

/** Re-exported for the API's 400 messages (the same binding as in config.ts). */
export { formatIssues } from './config.ts'

/** Longest signature accepted: 4096 bytes, room for ERC-6492 wrapped contract-wallet signatures. */
export const SIGNATURE_MAX_BYTES = 4096

const isoDateTime = z.iso.datetime()

/** An EIP-55 checksummed address. */
export const checksummedAddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')
  .refine((a) => checksumAddress(a as Address) === a, 'must be EIP-55 checksummed')
  .transform((a) => a as Address)

const chainIdSchema = z.number().int().positive()

/** POST /api/auth/nonce → 200 */
export const nonceResponseSchema = z.strictObject({
  nonce: z.string().regex(/^[A-Za-z0-9]{8,128}$/, 'must be 8 to 128 ASCII letters or digits'),
})
export type NonceResponse = z.infer<typeof nonceResponseSchema>

/**
 * POST /api/auth/verify body. The message is parsed strictly afterwards (`parseSiweMessageStrict`); the signature is
 * whole bytes of hex, possibly empty (`0x`: a Safe's on-chain approved message has no signature bytes).
 */
export const verifyRequestSchema = z.strictObject({
  message: z.string().min(1).max(SIWE_MESSAGE_MAX_LENGTH),
  signature: z
    .string()
    .max(2 + 2 * SIGNATURE_MAX_BYTES)
    .regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x followed by whole bytes of hex')
    .transform((s) => s as `0x${string}`),
})
export type VerifyRequest = z.infer<typeof verifyRequestSchema>

/** The signed-in session as the web app sees it. */
export const sessionSchema = z.strictObject({
  address: checksummedAddressSchema,
  chainId: chainIdSchema,
  /** When the session ends at the latest (ISO 8601, UTC). */
  expiresAt: isoDateTime,
})
export type Session = z.infer<typeof sessionSchema>

/** POST /api/auth/verify → 200 and GET /api/auth/session → 200 (`null` when signed out; never 401). */
export const sessionResponseSchema = z.strictObject({ session: sessionSchema.nullable() })
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
      userAgent: z.string().nullable(),
    }),
  ),
})
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>
export type SessionListItem = SessionsResponse['sessions'][number]
