// The browser recount's recovery pool (ADR 082) and its workers' recovery (ADR 083). A test environment has
// no browser Worker: each stand-in below answers as recover.worker.ts does, with the same recovery, and
// records the tasks it was sent; the Playwright tests that press "Verify this result" run the real workers in
// Chromium.
import { type Address, type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { type RecoverRequest, recoverPool, recoverWorkerCount, workerRecovery } from './recover-pool.ts'

const loadWasm = () => import('@guildhall/core/wasm-recover')
/** The stand-ins' recovery, chosen once as each real worker chooses it when it starts. */
const recovery = workerRecovery(loadWasm)

class StandInWorker extends EventTarget {
  tasks: RecoverRequest[] = []
  terminated = false
  constructor(private readonly fails = false) {
    super()
  }
  postMessage(request: RecoverRequest) {
    this.tasks.push(request)
    setTimeout(async () => {
      if (this.fails) {
        this.dispatchEvent(new Event('error'))
        return
      }
      const recover = await recovery
      const signers = await Promise.all(request.checks.map((c) => recover(c.hash, c.signature)))
      this.dispatchEvent(new MessageEvent('message', { data: { task: request.task, signers } }))
    }, 0)
  }
  terminate() {
    this.terminated = true
  }
}

const accounts = Array.from({ length: 5 }, (_, i) => privateKeyToAccount(toHex(i + 1, { size: 32 })))
const signed = () =>
  Promise.all(
    accounts.map(async (account, i) => {
      const hash = keccak256(toHex(`check ${i}`))
      return { address: account.address, hash, signature: await account.sign({ hash }) }
    }),
  )

describe('recoverPool', () => {
  test('behavior: the checks asked in one turn go out as one task per worker, split evenly, each answered with its own signer', async () => {
    const workers: StandInWorker[] = []
    const pool = recoverPool(2, () => {
      const worker = new StandInWorker()
      workers.push(worker)
      return worker as unknown as Worker
    })
    const checks = await signed()
    const signers = await Promise.all(checks.map((c) => pool.recover(c.hash, c.signature)))
    expect(signers).toEqual(checks.map((c) => c.address))
    expect(workers.map((w) => w.tasks.map((t) => t.checks.length))).toEqual([[3], [2]])
    pool.close()
    expect(workers.every((w) => w.terminated)).toBe(true)
  })

  test('behavior: a worker that fails rejects its own checks with a sentence; the other worker answers its own', async () => {
    let started = 0
    const pool = recoverPool(2, () => new StandInWorker(started++ === 0) as unknown as Worker)
    const checks = await signed()
    const answers = await Promise.allSettled(checks.map((c) => pool.recover(c.hash, c.signature)))
    expect(answers.slice(0, 3)).toEqual(
      Array(3).fill({
        status: 'rejected',
        reason: new Error('A signature check failed in this browser.'),
      }),
    )
    expect(answers.slice(3)).toEqual(checks.slice(3).map((c) => ({ status: 'fulfilled', value: c.address })))
    pool.close()
  })

  test('behavior: a malformed signature is answered null, as on the recount’s own thread', async () => {
    const pool = recoverPool(1, () => new StandInWorker() as unknown as Worker)
    const [check] = await signed()
    expect(await pool.recover((check as { hash: Hex }).hash, `0x${'00'.repeat(65)}`)).toBeNull()
    pool.close()
  })

  test('behavior: one worker per core, at least one and at most 8', () => {
    expect([undefined, 1, 2, 6, 16].map(recoverWorkerCount)).toEqual([1, 1, 2, 6, 8])
  })
})

describe('workerRecovery', () => {
  test('behavior: a worker recovers with the WebAssembly recovery once it has loaded', async () => {
    const marker: Address = '0x000000000000000000000000000000000000dEaD'
    const recover = await workerRecovery(async () => ({ wasmRecoverSigner: () => marker }))
    const [check] = await signed()
    expect(await recover((check as { hash: Hex }).hash, (check as { signature: Hex }).signature)).toBe(marker)
  })

  test('behavior: where the WebAssembly cannot load, a worker recovers as the recount’s own thread does, with the same answers', async () => {
    const checks = await signed()
    const fallback = await workerRecovery(() =>
      Promise.reject(new WebAssembly.CompileError('refused by CSP')),
    )
    const wasm = await workerRecovery(loadWasm)
    for (const { address, hash, signature } of checks) {
      expect(await fallback(hash, signature)).toBe(address)
      expect(await wasm(hash, signature)).toBe(address)
    }
    expect(await fallback(checks[0]?.hash as Hex, `0x${'00'.repeat(65)}`)).toBeNull()
  })
})
