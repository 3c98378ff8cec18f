// A signature pool's worker (pool.ts): ECDSA recovery, the CPU part of a signature check, by core's
// WebAssembly recovery. Plain JavaScript, so Node runs it the same under tsx, Vitest and the built server
// (none of which transform a worker thread's code). The bench's signature floors run the same recovery, so
// the floor is the API's own check.
import { wasmRecoverSigner } from '@guildhall/core/wasm-recover'

/**
 * The pool's task: several checks in one message (ADR 078), answered in their order, each with its signer
 * and the milliseconds its recovery took on this thread.
 */
export default function recover({ checks }) {
  return checks.map(({ hash, signature }) => {
    const started = performance.now()
    const signer = wasmRecoverSigner(hash, signature)
    return { signer, runMs: performance.now() - started }
  })
}
