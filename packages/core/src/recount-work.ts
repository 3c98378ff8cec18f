/**
 * The recount's per-message hashing and recovery (recount.ts), handed out a chunk at a time so it can run
 * where the caller chooses: on the recount's own thread (`recountWorkHere`, the default) or spread over
 * the browser's workers, which run this same function (ADR 084). With recovery elsewhere, hashing each
 * vote's id and each log entry was what kept the recount's thread busy.
 */
import { type Address, type Hex, size } from 'viem'
import { type LogEntry, logEntryHash } from './governance/log.ts'
import { type GovernanceDomain, type VoteMessage, voteId } from './governance/messages.ts'
import { type RecoverSigner, recoverSigner } from './signature.ts'

/** A vote to check: its signed message and its signature (its claimed id stays with the recount). */
export type VoteToCheck = { message: VoteMessage; signature: Hex }
/**
 * A vote's id recomputed from its message (null when the message cannot be hashed), and the address its
 * signature recovers to from that id (null when it is not an ECDSA signature).
 */
export type VoteCheck = { id: Hex | null; signer: Address | null }

export type RecountWork = {
  /** Each vote's check, in the order given. */
  checkVotes: (domain: GovernanceDomain, votes: readonly VoteToCheck[]) => Promise<VoteCheck[]>
  /** Each log entry's hash recomputed from its fields, in the order given. */
  hashLogEntries: (entries: readonly LogEntry[]) => Promise<Hex[]>
}

/** The work on the calling thread, recovering signers with `recover` (this thread's, by default). */
export function recountWorkHere(recover: RecoverSigner = recoverSigner): RecountWork {
  return {
    checkVotes: (domain, votes) =>
      Promise.all(
        votes.map(async ({ message, signature }): Promise<VoteCheck> => {
          let id: Hex
          try {
            id = voteId(domain, message)
          } catch {
            return { id: null, signer: null }
          }
          // Only a 65-byte signature is ECDSA; any other is left to the chain (ERC-1271, ERC-6492).
          return { id, signer: size(signature) === 65 ? await recover(id, signature) : null }
        }),
      ),
    hashLogEntries: async (entries) => entries.map(logEntryHash),
  }
}
