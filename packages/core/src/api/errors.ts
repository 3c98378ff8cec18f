import { z } from '../zod.ts'

/** The error envelope every API error uses. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() })
