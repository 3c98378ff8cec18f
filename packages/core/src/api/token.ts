import { decimalStringSchema } from '../primitives.ts'
import { z } from '../zod.ts'

/** GET /api/token/holders */
export const holderStatsSchema = z.strictObject({
  holders: z.int().check(z.gte(0)),
  blockNumber: decimalStringSchema,
})
