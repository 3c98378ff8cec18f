// A signature pool's worker (pool.ts): ECDSA recovery, the CPU part of a signature check. Plain JavaScript
// importing only viem, so Node runs it the same under tsx, Vitest and the built server (none of which
// transform a worker thread's code). viem/utils rather than viem: each worker loads it once, at half the cost.
import { recoverAddress } from 'viem/utils'

/**
 * The signer of `signature` over `hash`, or null when it is not a valid ECDSA signature (a contract account's
 * may still be valid), and the milliseconds the recovery took on this thread.
 */
export default async function recover({ hash, signature }) {
  const started = performance.now()
  const signer = await recoverAddress({ hash, signature }).catch(() => null)
  return { signer, runMs: performance.now() - started }
}
