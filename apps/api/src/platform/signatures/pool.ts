// Signature recovery on worker threads (ADR 063): ECDSA recovery is ~2–4 ms of CPU, and on the event loop a
// burst of votes made every request (and every lock its transaction held) wait behind other votes' checks.
// The pool runs it on `threads` workers (piscina); contract accounts still ask the chain from the main thread.
import type { RecoverSigner } from '@guildhall/core'
import type { FastifyBaseLogger } from 'fastify'
import { Piscina } from 'piscina'
import type { Address, Hex } from 'viem'
import { ApiError } from '../http/errors.ts'
import type { Observer } from '../observer.ts'

/** What the worker answers (recover-worker.mjs). */
interface Recovered {
  signer: Address | null
  runMs: number
}

export interface SignaturePool {
  /** Recovery on a worker; a worker that fails (crashes, or the pool is closing) is a 503 signature_check_failed. */
  recover: RecoverSigner
  /** Ends the workers; checks still waiting are answered 503. */
  close: () => Promise<void>
}

export function signaturePool({
  threads,
  observer,
  logger,
  worker = new URL('./recover-worker.mjs', import.meta.url),
}: {
  threads: number
  observer: Observer
  logger: FastifyBaseLogger
  /** The worker's file (tests give one that crashes). */
  worker?: URL
}): SignaturePool {
  const pool = new Piscina<{ hash: Hex; signature: Hex }, Recovered>({
    filename: worker.href,
    // Started on the first check, not with the app (each loads viem, ~0.1 s of CPU: most apps a test builds
    // never check a signature), then kept until the app closes. A crashed one is replaced on the next check.
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Not the parent's flags: under tsx they load its TypeScript loader into every worker (measured 43 MiB
    // of RSS per worker with them, 24 without), and the worker is plain JavaScript.
    execArgv: [],
    // Checks are answered in the order they were asked. By default piscina puts a task it took from the queue
    // but could not hand to a worker at the queue's back: under steady load some checks were passed over for
    // seconds (one thread, 200 asking in turn: p50 136 ms, p99 5.4 s; in this order 271 and 301 ms).
    stricterFIFO: true,
  })
  // A worker that fails while it runs no check: its replacement comes with the next one; without a listener
  // the pool's 'error' event would end the process.
  pool.on('error', (error) => logger.error({ err: error }, 'A signature worker failed'))
  // piscina starts workers again for a task after destroy(): a closed app's pool must not.
  let closed = false

  return {
    recover: async (hash, signature) => {
      if (closed) throw ApiError.signatureCheckFailed()
      const started = performance.now()
      let answer: Recovered
      try {
        answer = await pool.run({ hash, signature })
      } catch (error) {
        logger.error({ err: error }, 'A signature check failed on its worker')
        throw ApiError.signatureCheckFailed()
      }
      observer.signatureChecked(Math.max(0, performance.now() - started - answer.runMs), answer.runMs)
      return answer.signer
    },
    close: () => {
      closed = true
      return pool.destroy()
    },
  }
}
