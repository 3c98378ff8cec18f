// One of the recount's recovery workers (recover-pool.ts): the signer of each signature it is sent, as the
// recount would recover it on its own thread.
import { recoverSigner } from '@guildhall/core'
import type { RecoverAnswer, RecoverRequest } from './recover-pool.ts'

addEventListener('message', async (event: MessageEvent<RecoverRequest>) => {
  const { task, checks } = event.data
  const signers = await Promise.all(checks.map(({ hash, signature }) => recoverSigner(hash, signature)))
  postMessage({ task, signers } satisfies RecoverAnswer)
})
