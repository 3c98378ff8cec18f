// The browser's recount ("Verify this result", "Verify this thread"): the same code as `npm run recount`,
// off the main thread, its per-vote hashing and recovery on every core (recount-work-pool.ts).

import { type RecountMessage, type RecountRequest, runRecountRequest } from './recount-request.ts'
import { recountWorkerCount, recountWorkPool } from './recount-work-pool.ts'

const post = (message: RecountMessage) => postMessage(message)

addEventListener('message', async (event: MessageEvent<RecountRequest>) => {
  const pool = recountWorkPool(
    recountWorkerCount(navigator.hardwareConcurrency),
    () => new Worker(new URL('./recount-work.worker.ts', import.meta.url), { type: 'module' }),
  )
  try {
    await runRecountRequest(event.data, post, { work: pool.work })
  } finally {
    pool.close()
  }
})
