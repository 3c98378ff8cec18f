// Signature recovery on worker threads (ADR 063): ECDSA recovery is ~2–4 ms of CPU, and on the event loop a
// burst of votes made every request (and every lock its transaction held) wait behind other votes' checks.
// The pool runs it on `threads` workers (piscina), the checks of an event-loop turn a task per thread (ADR 078);
// contract accounts still ask the chain from the main thread.
import { evenShares, type RecoverSigner } from '@guildhall/core'
import type { FastifyBaseLogger } from 'fastify'
import { Piscina } from 'piscina'
import type { Address, Hex } from 'viem'
import { ApiError } from '../http/errors.ts'
import type { Observer } from '../observer.ts'

/** What the worker answers for each check of a task (recover-worker.mjs). */
interface Recovered {
  signer: Address | null
  runMs: number
}

/** A check asked for and not yet answered. */
interface Check {
  hash: Hex
  signature: Hex
  asked: number
  resolve: (signer: Address | null) => void
  reject: (error: ApiError) => void
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
  /** Where a failed worker or check is reported (the app's logger; the CLI recount's stderr). */
  logger: Pick<FastifyBaseLogger, 'error'>
  /** The worker's file (tests give one that crashes). */
  worker?: URL
}): SignaturePool {
  const pool = new Piscina<{ checks: { hash: Hex; signature: Hex }[] }, Recovered[]>({
    filename: worker.href,
    // Started on the first check, not with the app (each loads viem, ~0.1 s of CPU: most apps a test builds
    // never check a signature), then kept until the app closes. A crashed one is replaced at once (below).
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
  // The checks asked in this event-loop turn (ADR 078): sent after it, a task per thread, so a burst of votes
  // costs a message to and from a worker per thread rather than per vote.
  let asked: Check[] = []

  const run = async (checks: Check[]) => {
    let answers: Recovered[]
    try {
      answers = await pool.run({ checks: checks.map(({ hash, signature }) => ({ hash, signature })) })
      if (answers.length !== checks.length)
        throw new Error(`${checks.length} checks got ${answers.length} answers`)
    } catch (error) {
      if (!closed) {
        // piscina starts a crashed worker's replacement only when asked for a task (minThreads 0): without
        // this empty one, the checks queued behind the crash would wait for the next check asked.
        pool.run({ checks: [] }).catch(() => {})
        // A task that failed (a worker crashed) with several checks: each is asked again alone, so only the
        // check that brought it down is refused.
        if (checks.length > 1) {
          for (const check of checks) void run([check])
          return
        }
      }
      logger.error({ err: error }, 'A signature check failed on its worker')
      for (const { reject } of checks) reject(ApiError.signatureCheckFailed())
      return
    }
    const answered = performance.now()
    for (const [index, { asked, resolve }] of checks.entries()) {
      const { signer, runMs } = answers[index] as Recovered
      observer.signatureChecked(Math.max(0, answered - asked - runMs), runMs)
      resolve(signer)
    }
  }

  const sendAsked = () => {
    const checks = asked
    asked = []
    if (closed) {
      for (const { reject } of checks) reject(ApiError.signatureCheckFailed())
      return
    }
    for (const share of evenShares(checks, threads)) void run(share)
  }

  return {
    recover: (hash, signature) => {
      if (closed) return Promise.reject(ApiError.signatureCheckFailed())
      return new Promise((resolve, reject) => {
        if (asked.length === 0) setImmediate(sendAsked)
        asked.push({ hash, signature, asked: performance.now(), resolve, reject })
      })
    },
    close: () => {
      closed = true
      return pool.destroy()
    },
  }
}
