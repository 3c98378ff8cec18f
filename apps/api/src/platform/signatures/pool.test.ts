// The signature pool (ADR 063): recovery on worker threads (piscina) loading the plain-JavaScript worker, the
// checks of one event-loop turn sent as a task per thread (ADR 078; testbed/task-size-recover-worker.mjs reports
// each task's size), and a worker that crashes mid-check (testbed/crashing-recover-worker.mjs) replaced while
// its check answers 503.
import { type Hex, keccak256, stringToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, expect, test } from 'vitest'
import { ApiError } from '../http/errors.ts'
import { type Observer, silentObserver } from '../observer.ts'
import { type SignaturePool, signaturePool } from './pool.ts'

const ada = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const ben = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
const hash = keccak256(stringToHex('a vote'))
const crashWorker = new URL('../../../testbed/crashing-recover-worker.mjs', import.meta.url)
const taskSizeWorker = new URL('../../../testbed/task-size-recover-worker.mjs', import.meta.url)
/** What the crashing worker ends its thread on: 65 bytes starting 0xdeaddead. */
const crashing = `0x${'deaddead'.repeat(16)}1b` as Hex
const logger = { error: () => {} } as unknown as Parameters<typeof signaturePool>[0]['logger']

let pool: SignaturePool | undefined

/** A pool on the crashing worker, and the errors it logs. */
function crashingPool(threads: number) {
  const errors: unknown[] = []
  const crashPool = signaturePool({
    threads,
    observer: silentObserver,
    logger: { error: (entry: unknown) => errors.push(entry) } as unknown as typeof logger,
    worker: crashWorker,
  })
  return { crashPool, errors }
}
afterEach(() => pool?.close())

test('behavior: the pool recovers each signer on its worker threads, null for bytes that are not a signature, and reports the time queued and run', async () => {
  const reports: [number, number][] = []
  const observer: Observer = {
    ...silentObserver,
    signatureChecked: (queued, run) => reports.push([queued, run]),
  }
  pool = signaturePool({ threads: 2, observer, logger })
  const signatures = await Promise.all([ada, ben, ada, ben].map((account) => account.sign({ hash })))
  const signers = await Promise.all(signatures.map((signature) => pool?.recover(hash, signature)))
  expect(signers).toEqual([ada.address, ben.address, ada.address, ben.address])
  // r = 0 is no point on the curve: not a signature, which is an answer (a contract may still accept the bytes).
  expect(await pool.recover(hash, `0x${'00'.repeat(64)}1b`)).toBeNull()
  expect(reports).toHaveLength(5)
  for (const [queued, run] of reports) {
    expect(queued).toBeGreaterThanOrEqual(0)
    expect(run).toBeGreaterThan(0)
  }
})

test('behavior: the checks asked in one event-loop turn go to the workers as one task per thread, as even as they divide; a check asked alone goes alone', async () => {
  const taskSizes: number[] = []
  const observer: Observer = { ...silentObserver, signatureChecked: (_queued, run) => taskSizes.push(run) }
  pool = signaturePool({ threads: 2, observer, logger, worker: taskSizeWorker })
  const accounts = [ada, ben, ada, ben, ada, ben, ada]
  const signatures = await Promise.all(accounts.map((account) => account.sign({ hash })))
  const signers = await Promise.all(signatures.map((signature) => pool?.recover(hash, signature)))
  expect(signers).toEqual(accounts.map(({ address }) => address))
  expect(taskSizes.toSorted()).toEqual([3, 3, 3, 4, 4, 4, 4])

  taskSizes.length = 0
  for (const signature of signatures.slice(0, 3)) await pool.recover(hash, signature)
  expect(taskSizes).toEqual([1, 1, 1])
})

test('behavior: under steady load the checks are answered in the order they were asked, none passed over', async () => {
  pool = signaturePool({ threads: 1, observer: silentObserver, logger })
  const signature = await ada.sign({ hash })
  // 20 requests in flight, each asking again as soon as it is answered, as a server's requests do.
  const answered: number[] = []
  let asked = 0
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (asked < 200) {
        const turn = asked++
        expect(await pool?.recover(hash, signature)).toBe(ada.address)
        answered.push(turn)
      }
    }),
  )
  expect(answered).toEqual(answered.toSorted((a, b) => a - b))
})

test('behavior: a worker that crashes mid-check is replaced; its check answers 503 signature_check_failed and the next ones are answered', async () => {
  const { crashPool, errors } = crashingPool(2)
  pool = crashPool
  const signature = await ada.sign({ hash })
  // Both threads started and busy, then one of them ends mid-check: the other's check is unaffected.
  const [crashed, other] = await Promise.allSettled([
    pool.recover(hash, crashing),
    pool.recover(hash, signature),
  ])
  expect(crashed.status).toBe('rejected')
  const error = (crashed as PromiseRejectedResult).reason
  expect(error).toBeInstanceOf(ApiError)
  expect(error).toMatchObject({
    status: 503,
    code: 'signature_check_failed',
    message: 'The signature could not be checked just now. Try again in a moment.',
  })
  expect(other).toEqual({ status: 'fulfilled', value: ada.address })
  expect(errors).toHaveLength(1)
  // The pool starts a thread in its place: checks keep being answered, twice as many as it has threads.
  const again = await Promise.all(
    [ada, ben, ada, ben].map(async (account) => pool?.recover(hash, await account.sign({ hash }))),
  )
  expect(again).toEqual([ada.address, ben.address, ada.address, ben.address])
})

test('behavior: a worker that crashes on a task of several checks is replaced; only the check that brought it down answers 503, the others get their signers', async () => {
  const { crashPool, errors } = crashingPool(1)
  pool = crashPool
  const [adaSigned, benSigned] = await Promise.all([ada.sign({ hash }), ben.sign({ hash })])
  // One thread, one turn: the three go in one task, which the crashing signature ends.
  const answers = await Promise.allSettled([
    pool.recover(hash, adaSigned),
    pool.recover(hash, crashing),
    pool.recover(hash, benSigned),
  ])
  expect(answers[0]).toEqual({ status: 'fulfilled', value: ada.address })
  expect(answers[1]).toMatchObject({
    status: 'rejected',
    reason: { status: 503, code: 'signature_check_failed' },
  })
  expect(answers[2]).toEqual({ status: 'fulfilled', value: ben.address })
  expect(errors).toHaveLength(1)
})

test('behavior: a check after the pool is closed (the app closing) answers 503 signature_check_failed', async () => {
  pool = signaturePool({ threads: 1, observer: silentObserver, logger })
  expect(await pool.recover(hash, await ada.sign({ hash }))).toBe(ada.address)
  await pool.close()
  await expect(pool.recover(hash, await ada.sign({ hash }))).rejects.toMatchObject({
    status: 503,
    code: 'signature_check_failed',
  })
})
