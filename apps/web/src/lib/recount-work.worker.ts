// One of the recount's workers (recount-work-pool.ts): each vote's id hashed and its signer recovered, each
// log entry hashed (ADR 084), recovering by the WebAssembly recovery the API's signature workers run
// (ADR 083), which answers as the recount's own recovery does at a quarter to a sixth of the CPU.
import { loadWasmKeccak } from '@guildhall/core'
import { answerRecountWork, type RecountWorkRequest, workerRecovery } from './recount-work-pool.ts'

const recovery = workerRecovery(() => import('@guildhall/core/wasm-recover'))
// The ids and the log's hashes by the WebAssembly Keccak too (ADR 086); where it cannot load, by noble, which
// answers the same bytes more slowly.
const hashing = loadWasmKeccak().catch(() => undefined)

addEventListener('message', async (event: MessageEvent<RecountWorkRequest>) => {
  await hashing
  postMessage(await answerRecountWork(event.data, await recovery))
})
