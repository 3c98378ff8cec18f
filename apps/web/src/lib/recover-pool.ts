// The browser recount's signature recovery spread over the device's cores (ADR 082): the recount hands
// over a chunk of votes at once, and the checks asked in one turn go out as one task per worker.
import { evenShares, type RecoverSigner, recoverSigner } from '@guildhall/core'
import type { Address, Hex } from 'viem'

export type RecoverRequest = { task: number; checks: { hash: Hex; signature: Hex }[] }
export type RecoverAnswer = { task: number; signers: (Address | null)[] }

type Check = {
  hash: Hex
  signature: Hex
  resolve: (signer: Address | null) => void
  reject: (error: Error) => void
}

/** Workers for a device with `cores` logical cores: all of them (the recount's own thread mostly waits), up to 8. */
export const recoverWorkerCount = (cores: number | undefined) => Math.max(1, Math.min(cores ?? 1, 8))

/** `size` workers from `start`; `close` ends them. */
export function recoverPool(
  size: number,
  start: () => Worker,
): { recover: RecoverSigner; close: () => void } {
  const workers = Array.from({ length: size }, () => {
    const worker = start()
    const tasks = new Map<number, Check[]>()
    const fail = (message: string) => {
      for (const checks of tasks.values()) for (const { reject } of checks) reject(new Error(message))
      tasks.clear()
    }
    worker.addEventListener('message', (event: MessageEvent<RecoverAnswer>) => {
      const checks = tasks.get(event.data.task)
      tasks.delete(event.data.task)
      for (const [index, { resolve }] of (checks ?? []).entries()) resolve(event.data.signers[index] ?? null)
    })
    worker.addEventListener('error', () => fail('A signature check failed in this browser.'))
    return { worker, tasks }
  })
  let asked: Check[] = []
  let nextTask = 0

  const send = () => {
    const checks = asked
    asked = []
    for (const [part, share] of evenShares(checks, workers.length).entries()) {
      const { worker, tasks } = workers[part] as (typeof workers)[number]
      const task = nextTask++
      tasks.set(task, share)
      worker.postMessage({
        task,
        checks: share.map(({ hash, signature }) => ({ hash, signature })),
      } satisfies RecoverRequest)
    }
  }

  return {
    recover: (hash, signature) =>
      new Promise((resolve, reject) => {
        if (asked.length === 0) setTimeout(send, 0)
        asked.push({ hash, signature, resolve, reject })
      }),
    close: () => {
      for (const { worker } of workers) worker.terminate()
    },
  }
}

/**
 * What a recovery worker recovers with (recover.worker.ts): the WebAssembly recovery (ADR 083) once `loadWasm`
 * has loaded it; else, in a browser that cannot compile it here (one older than the policy's
 * 'wasm-unsafe-eval') or when its file did not arrive, the recount's own recovery, as on its thread: slower,
 * the same answers.
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
