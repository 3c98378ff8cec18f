// The variables of carrying out passed proposals through the DAO's Safe (ADR 051): how long after a
// proposal is final its Safe transaction may be queued (the objection delay), and until when.
import { z } from 'zod'

const DAY_SECONDS = 24 * 60 * 60

export const executionVariables = z.object({
  /** Seconds after a passed proposal is final before anyone may queue it: time for objections. */
  EXECUTION_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(365 * DAY_SECONDS)
    .default(DAY_SECONDS),
  /** Seconds after the delay during which it may be queued and executed; later, it has expired. */
  EXECUTION_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(10 * 365 * DAY_SECONDS)
    .default(30 * DAY_SECONDS),
  /** Queue, signature and simulation requests one client (IP) may make per minute: each asks the chain. */
  EXECUTION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
})
