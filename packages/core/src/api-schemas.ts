import { z } from './zod.ts'

/** The error envelope every API error uses. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() })
export type ApiError = z.infer<typeof apiErrorSchema>

/** GET /api/token/holders */
export const holderStatsSchema = z.strictObject({
  holders: z.int().check(z.gte(0)),
  blockNumber: z.string().check(z.regex(/^\d+$/)),
})
export type HolderStats = z.infer<typeof holderStatsSchema>
