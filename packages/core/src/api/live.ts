// The live events (GET /api/proposals/:id/events and GET /api/events, server-sent): each event's id is the
// seq of the governance log entry it stands at, so a client that reconnects resumes after it.
import { bytes32Schema } from '../primitives.ts'
import { z } from '../zod.ts'
import { tallyJsonSchema } from './tallies.ts'

/** `tally` on a proposal's stream: its totals as of log entry `seq` (every vote up to it counted in). */
export const liveTallySchema = z.strictObject({
  proposalId: bytes32Schema,
  seq: z.int(),
  tally: tallyJsonSchema,
  /** The server's clock (unix seconds) when the totals were read. */
  now: z.int(),
})
export type LiveTally = z.infer<typeof liveTallySchema>
/** `proposal` on the list's stream: a proposal was created, logged as entry `seq`. */
export const liveProposalSchema = z.strictObject({ proposalId: bytes32Schema, seq: z.int() })
export type LiveProposal = z.infer<typeof liveProposalSchema>
/**
 * `thread` on a thread's stream (GET /api/threads/:id/events): log entry `seq` of kind `kind` touched the
 * thread (a comment, an edit, a withdrawal, a reaction, a flag, a moderation, a takedown, a vote with a
 * reason); the client reads the thread again.
 */
export const liveThreadSchema = z.strictObject({ threadId: bytes32Schema, seq: z.int(), kind: z.string() })
export type LiveThread = z.infer<typeof liveThreadSchema>
