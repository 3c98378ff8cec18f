// ECDSA recovery by libsecp256k1 compiled to WebAssembly (tiny-secp256k1, ADR 081): the one used wherever
// many signatures are checked at once, on the API's signature workers and the browser recount's (ADR 083).
// Plain JavaScript importing only tiny-secp256k1 and viem/utils, so Node runs it untransformed on a worker
// thread (under tsx, Vitest and the built server alike); viem/utils rather than viem: a worker loads it once,
// at half the cost. (Types in wasm-recover.d.mts.)
import { recover as recoverPublicKey } from 'tiny-secp256k1'
import { bytesToHex, hexToBytes, publicKeyToAddress } from 'viem/utils'

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

/**
 * The signer of `signature` over `hash`, or null when it is not a valid ECDSA signature (a contract account's
 * may still be valid): what viem's recoverAddress answers, at a quarter to a sixth of the CPU of noble's,
 * which viem uses. wasm-recover.test.ts holds it to viem's answers and to digestSigner's.
 */
export function wasmRecoverSigner(hash, signature) {
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
