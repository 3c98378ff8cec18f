// The browser's recount ("Verify this result"): the same code as `npm run recount`, off the main thread.

import { rpcTransport } from '@guildhall/core'
import { type RecountProgress, type RecountReport, recount, responseChunks } from '@guildhall/core/recount'
import { createPublicClient } from 'viem'

export type RecountRequest = { bundleUrl: string; rpcUrl: string }
export type RecountMessage =
  | { type: 'progress'; progress: RecountProgress }
  | { type: 'done'; report: RecountReport }
  | { type: 'error'; message: string }

const post = (message: RecountMessage) => postMessage(message)

addEventListener('message', async (event: MessageEvent<RecountRequest>) => {
  try {
    const response = await fetch(event.data.bundleUrl)
    if (!response.ok || !response.body)
      throw new Error(`The result bundle could not be loaded (${response.status}).`)
    const client = createPublicClient({ transport: rpcTransport(event.data.rpcUrl, { timeout: 30_000 }) })
    // Read as it arrives: a page never holds the whole bundle (80 MB at 100,000 votes) or its parse.
    const report = await recount(responseChunks(response.body), client, (progress) =>
      post({ type: 'progress', progress }),
    )
    post({ type: 'done', report })
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  }
})
