// One of the recount's recovery workers (recover-pool.ts): the signer of each signature it is sent, by the
// WebAssembly recovery the API's signature workers run (ADR 083), which answers as the recount's own
// recovery does at a quarter to a sixth of the CPU.
import { type RecoverAnswer, type RecoverRequest, workerRecovery } from './recover-pool.ts'

const recovery = workerRecovery(() => import('@guildhall/core/wasm-recover'))

addEventListener('message', async (event: MessageEvent<RecoverRequest>) => {
  const { task, checks } = event.data
  const recover = await recovery
  const signers = await Promise.all(checks.map(({ hash, signature }) => recover(hash, signature)))
  postMessage({ task, signers } satisfies RecoverAnswer)
})
