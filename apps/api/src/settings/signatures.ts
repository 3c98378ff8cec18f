// The variable of the signature checks' worker threads (ADR 063).
import { availableParallelism } from 'node:os'
import { z } from 'zod'

export const signatureVariables = z.object({
  /** Worker threads that check signatures, 1–64; default: the cores Node may use (os.availableParallelism). */
  SIGNATURE_THREADS: z.coerce.number().int().min(1).max(64).optional(),
})

/** The pool's size: the operator's, or one thread per core. */
export const signatureThreads = (e: z.output<typeof signatureVariables>): number =>
  e.SIGNATURE_THREADS ?? availableParallelism()

/**
 * SIGNATURE_THREADS for each of `instances` servers on one machine (docs/deploy.md): its share of the cores,
 * at least one, so their workers leave the instances' own event loops room.
 */
export const sharedMachineSignatureThreads = (instances: number): number =>
  Math.max(1, Math.floor(availableParallelism() / instances))
