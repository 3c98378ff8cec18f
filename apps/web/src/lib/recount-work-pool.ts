// The browser recount's per-message work spread over the device's cores (ADR 082, ADR 084): each chunk of
// votes or log entries the recount hands out goes out as one task per worker, and the answers come back in
// the chunk's order.
import {
  evenShares,
  type GovernanceDomain,
  type LogEntry,
  type RecoverSigner,
  recoverSigner,
} from '@guildhall/core'
import { type RecountWork, recountWorkHere, type VoteCheck, type VoteToCheck } from '@guildhall/core/recount'
import type { Address, Hex } from 'viem'

export type RecountWorkRequest =
  | { task: number; kind: 'votes'; domain: GovernanceDomain; votes: VoteToCheck[] }
  | { task: number; kind: 'log'; entries: LogEntry[] }
/** A task's answers in its order (each vote's check, or each entry's hash), or that it failed. */
export type RecountWorkAnswer =
  | { task: number; results: (VoteCheck | Hex)[] }
  | { task: number; failed: true }

const FAILED = 'A signature or log check failed in this browser.'

/** Workers for a device with `cores` logical cores: all of them (the recount's own thread mostly waits), up to 8. */
export const recountWorkerCount = (cores: number | undefined) => Math.max(1, Math.min(cores ?? 1, 8))

type Task = { resolve: (results: RecountWorkAnswer) => void; reject: (error: Error) => void }

/** `size` workers from `start`; `close` ends them. */
export function recountWorkPool(size: number, start: () => Worker): { work: RecountWork; close: () => void } {
  const workers = Array.from({ length: size }, () => {
    const worker = start()
    const tasks = new Map<number, Task>()
    worker.addEventListener('message', (event: MessageEvent<RecountWorkAnswer>) => {
      tasks.get(event.data.task)?.resolve(event.data)
      tasks.delete(event.data.task)
    })
    worker.addEventListener('error', () => {
      for (const { reject } of tasks.values()) reject(new Error(FAILED))
      tasks.clear()
    })
    return { worker, tasks }
  })
  let nextTask = 0

  /** `items` shared out, one task per worker, and every answer in `items`' order. */
  const shareOut = async <Item, Result>(
    items: readonly Item[],
    request: (task: number, share: Item[]) => RecountWorkRequest,
  ): Promise<Result[]> => {
    const answers = await Promise.all(
      evenShares(items, workers.length).map(
        (share, part) =>
          new Promise<RecountWorkAnswer>((resolve, reject) => {
            const { worker, tasks } = workers[part] as (typeof workers)[number]
            const task = nextTask++
            tasks.set(task, { resolve, reject })
            worker.postMessage(request(task, share))
          }),
      ),
    )
    return answers.flatMap((answer) => {
      if ('failed' in answer) throw new Error(FAILED)
      return answer.results as Result[]
    })
  }

  return {
    work: {
      checkVotes: (domain, votes) =>
        shareOut(votes, (task, share) => ({
          task,
          kind: 'votes',
          domain,
          // The message and signature only: the worker recomputes the id the recount compares.
          votes: share.map(({ message, signature }) => ({ message, signature })),
        })),
      hashLogEntries: (entries) =>
        shareOut(entries, (task, share) => ({ task, kind: 'log', entries: share })),
    },
    close: () => {
      for (const { worker } of workers) worker.terminate()
    },
  }
}

/**
 * A worker's answer to `request`, with the work it does (recount-work.worker.ts): the recount's own work,
 * recovering signers with `recover`.
 */
export async function answerRecountWork(
  request: RecountWorkRequest,
  recover: RecoverSigner,
): Promise<RecountWorkAnswer> {
  const work = recountWorkHere(recover)
  try {
    const results =
      request.kind === 'votes'
        ? await work.checkVotes(request.domain, request.votes)
        : await work.hashLogEntries(request.entries)
    return { task: request.task, results }
  } catch {
    return { task: request.task, failed: true }
  }
}

/**
 * What a worker recovers with: the WebAssembly recovery (ADR 083) once `loadWasm` has loaded it; else, in a
 * browser that cannot compile it here (one older than the policy's 'wasm-unsafe-eval') or when its file did
 * not arrive, the recount's own recovery, as on its thread: slower, the same answers.
 */
export const workerRecovery = (
  loadWasm: () => Promise<{ wasmRecoverSigner: (hash: Hex, signature: Hex) => Address | null }>,
): Promise<RecoverSigner> =>
  loadWasm().then(
    ({ wasmRecoverSigner }) =>
      async (hash, signature) =>
        wasmRecoverSigner(hash, signature),
    () => recoverSigner,
  )
