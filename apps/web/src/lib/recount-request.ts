// What the recount worker does for a page (recount.worker.ts), apart from the worker's own messaging so a
// test can run it in-process: a proposal's result recount, read as it arrives, or a thread's (ADR 052).
import { rpcTransport } from '@guildhall/core'
import {
  type RecountOptions,
  type RecountProgress,
  type RecountReport,
  recount,
  recountThread,
  responseChunks,
  type ThreadRecountReport,
} from '@guildhall/core/recount'
import { createPublicClient } from 'viem'

/** `result`: a proposal's result bundle; `thread`: a thread bundle (a proposal's or a topic's discussion). */
export type RecountRequest = { kind: 'result' | 'thread'; bundleUrl: string; rpcUrl: string }
export type RecountMessage =
  | { type: 'progress'; progress: RecountProgress }
  | { type: 'done'; report: RecountReport }
  | { type: 'thread-done'; report: ThreadRecountReport }
  | { type: 'error'; message: string }

/** Runs `request`, posting its progress and its report (or why it could not run). */
export async function runRecountRequest(
  request: RecountRequest,
  post: (message: RecountMessage) => void,
  options: RecountOptions = {},
): Promise<void> {
  try {
    const response = await fetch(request.bundleUrl)
    if (!response.ok || !response.body)
      throw new Error(
        `The ${request.kind === 'thread' ? 'thread' : 'result'} bundle could not be loaded (${response.status}).`,
      )
    const client = createPublicClient({ transport: rpcTransport(request.rpcUrl, { timeout: 30_000 }) })
    if (request.kind === 'thread') {
      // A thread's messages are few enough to read whole (a page of 10,000 comments is a few MB).
      post({ type: 'thread-done', report: await recountThread(await response.json(), { client }) })
      return
    }
    // Read as it arrives: a page never holds the whole bundle (80 MB at 100,000 votes) or its parse.
    const report = await recount(
      responseChunks(response.body),
      client,
      (progress) => post({ type: 'progress', progress }),
      options,
    )
    post({ type: 'done', report })
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  }
}
