import { delegateStatementMessageSchema } from '../governance/messages.ts'
import { bytes32Schema, signatureSchema } from '../primitives.ts'
import { z } from '../zod.ts'

/** POST /api/delegates/:address/statement → the statement's id (201 stored, 200 a replay). */
export const publishStatementResponseSchema = z.strictObject({ id: bytes32Schema, created: z.boolean() })
/** GET /api/delegates/:address/statement: the delegate's latest statement as signed, and its log entry. */
export const delegateStatementSchema = z.strictObject({
  id: bytes32Schema,
  message: delegateStatementMessageSchema,
  signature: signatureSchema,
  seq: z.int(),
})
export type DelegateStatement = z.infer<typeof delegateStatementSchema>
