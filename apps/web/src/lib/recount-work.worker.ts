// One of the recount's workers (recount-work-pool.ts): each vote's id hashed and its signer recovered, each
// log entry hashed (ADR 084), recovering by the WebAssembly recovery the API's signature workers run
// (ADR 083), which answers as the recount's own recovery does at a quarter to a sixth of the CPU.
import { answerRecountWork, type RecountWorkRequest, workerRecovery } from './recount-work-pool.ts'

const recovery = workerRecovery(() => import('@guildhall/core/wasm-recover'))

addEventListener('message', async (event: MessageEvent<RecountWorkRequest>) => {
  postMessage(await answerRecountWork(event.data, await recovery))
})
