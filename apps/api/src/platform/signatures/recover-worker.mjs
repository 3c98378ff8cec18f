// A signature pool's worker (pool.ts): ECDSA recovery, the CPU part of a signature check. Plain JavaScript
// importing only noble and viem, so Node runs it the same under tsx, Vitest and the built server (none of
// which transform a worker thread's code). viem/utils rather than viem: each worker loads it once, at half the
// cost. The bench's signature floors run recoverSigner too, so the floor is the API's own check.
import { secp256k1 } from '@noble/curves/secp256k1'
import { publicKeyToAddress } from 'viem/utils'

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/**
 * The signer of `signature` over `hash`, or null when it is not a valid ECDSA signature (a contract account's
 * may still be valid). viem's recoverAddress, less its `await import()` of noble on every call: that costs
 * 0.02 ms in plain Node but 0.4 ms under tsx's loader, where the bench measured its floors. The same
 * recovery as core's digestSigner (discussion/messages.ts), which a worker that Node runs untransformed
 * cannot import; recover-worker.test.ts holds the two to the same answers. (Types in recover-worker.d.mts.)
 */
export function recoverSigner(hash, signature) {
  if (!SIGNATURE.test(signature)) return null
  const v = Number.parseInt(signature.slice(130), 16)
  const recoveryBit = v === 0 || v === 1 ? v : v === 27 || v === 28 ? v - 27 : undefined
  if (recoveryBit === undefined) return null
  try {
    const publicKey = secp256k1.Signature.fromCompact(signature.slice(2, 130))
      .addRecoveryBit(recoveryBit)
      .recoverPublicKey(hash.slice(2))
    return publicKeyToAddress(`0x${publicKey.toHex(false)}`)
  } catch {
    return null
  }
}

/**
 * The pool's task: several checks in one message (ADR 078), answered in their order, each with its signer
 * (recoverSigner) and the milliseconds its recovery took on this thread.
 */
export default function recover({ checks }) {
  return checks.map(({ hash, signature }) => {
    const started = performance.now()
    const signer = recoverSigner(hash, signature)
    return { signer, runMs: performance.now() - started }
  })
}
