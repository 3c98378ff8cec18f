// The types of wasm-recover.mjs (plain JavaScript, so that worker threads run it untransformed).
import type { Address, Hex } from 'viem'

export function wasmRecoverSigner(hash: Hex, signature: Hex): Address | null
