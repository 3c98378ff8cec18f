// The browser's recount ("Verify this result", "Verify this thread"): the same code as `npm run recount`,
// off the main thread, its signature recovery on every core (recover-pool.ts).

import { type RecountMessage, type RecountRequest, runRecountRequest } from './recount-request.ts'
import { recoverPool, recoverWorkerCount } from './recover-pool.ts'

const post = (message: RecountMessage) => postMessage(message)

addEventListener('message', async (event: MessageEvent<RecountRequest>) => {
  const pool = recoverPool(
    recoverWorkerCount(navigator.hardwareConcurrency),
    () => new Worker(new URL('./recover.worker.ts', import.meta.url), { type: 'module' }),
  )
  try {
    await runRecountRequest(event.data, post, { recover: pool.recover })
  } finally {
    pool.close()
  }
})
