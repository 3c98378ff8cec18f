// A signature pool's worker (pool.ts): ECDSA recovery, the CPU part of a signature check. Plain JavaScript
// importing only tiny-secp256k1 and viem, so Node runs it the same under tsx, Vitest and the built server (none of
// which transform a worker thread's code). viem/utils rather than viem: each worker loads it once, at half the
// cost. The bench's signature floors run recoverSigner too, so the floor is the API's own check.
import { recover as recoverPublicKey } from 'tiny-secp256k1'
import { bytesToHex, hexToBytes, publicKeyToAddress } from 'viem/utils'

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/**
 * The signer of `signature` over `hash`, or null when it is not a valid ECDSA signature (a contract account's
 * may still be valid). What viem's recoverAddress answers, by libsecp256k1's recovery compiled to WebAssembly
 * (tiny-secp256k1, ADR 081): a quarter to a sixth of the CPU of noble's, which viem uses. recover-worker.test.ts holds
 * it to viem's answers and to core's digestSigner (the browser's recovery, noble). (Types in recover-worker.d.mts.)
 */
export function recoverSigner(hash, signature) {
  if (!SIGNATURE.test(signature)) return null
  const v = Number.parseInt(signature.slice(130), 16)
  const recoveryBit = v === 0 || v === 1 ? v : v === 27 || v === 28 ? v - 27 : undefined
  if (recoveryBit === undefined) return null
  try {
    const publicKey = recoverPublicKey(
      hexToBytes(hash),
      hexToBytes(signature.slice(0, 130)),
      recoveryBit,
      false,
    )
    return publicKey ? publicKeyToAddress(bytesToHex(publicKey)) : null
  } catch {
    // tiny-secp256k1 throws for r or s of 0 or beyond the curve's order, and a hash that is not 32 bytes.
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
