/**
 * keccak-256 of the app's own hashing where it runs per message: each message's EIP-712 digest (its id) and
 * each log entry's hash. The server takes them for every vote in a closing hour, and a recount for 100,000
 * votes (ADR 086).
 * - viem hashes with noble, in plain JavaScript: about 10 µs for 64 bytes on the bench's machine.
 * - hash-wasm's Keccak, in WebAssembly, answers the same in under 1 µs. Compiling its module is asynchronous,
 *   so a process, worker or page that hashes much calls `loadWasmKeccak` once first; until then (and where it
 *   cannot load) the answer is noble's. Both give the same bytes (keccak.test.ts).
 */
import { createKeccak, type IHasher } from 'hash-wasm'
import { keccak256 } from 'viem'

let wasmKeccak: IHasher | undefined
let loading: Promise<void> | undefined

/** Compiles the WebAssembly Keccak for this thread; later calls share the first. Rejects where it cannot load. */
export function loadWasmKeccak(): Promise<void> {
  loading ??= createKeccak(256).then(
    (hasher) => {
      wasmKeccak = hasher
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** keccak-256 of `bytes`: by the WebAssembly Keccak once `loadWasmKeccak` has loaded it, by noble before. */
export function keccak256Bytes(bytes: Uint8Array): Uint8Array {
  if (!wasmKeccak) return keccak256(bytes, 'bytes')
  // One hasher per thread, reused: init, update and digest run with no await between them.
  wasmKeccak.init()
  wasmKeccak.update(bytes)
  return wasmKeccak.digest('binary')
}
