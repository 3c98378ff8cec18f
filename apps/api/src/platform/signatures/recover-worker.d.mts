// The types of recover-worker.mjs (plain JavaScript, so that worker threads run it untransformed).
import type { Address, Hex } from 'viem'

export default function recover(task: { checks: readonly { hash: Hex; signature: Hex }[] }): {
  signer: Address | null
  runMs: number
}[]
