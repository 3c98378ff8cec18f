// The browser recount's work pool (ADR 082, ADR 084) and its workers' recovery (ADR 083). A test environment
// has no browser Worker: each stand-in below answers as recount-work.worker.ts does, with the same function
// and recovery, and records the tasks it was sent; the Playwright tests that press "Verify this result" run
// the real workers in Chromium.
import {
  type GovernanceDomain,
  governanceDomain,
  LOG_GENESIS_HASH,
  type LogEntry,
  logEntryHash,
  type VoteMessage,
  voteId,
  voteTypedData,
} from '@guildhall/core'
import { recountWorkHere } from '@guildhall/core/recount'
import { type Address, type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  answerRecountWork,
  type RecountWorkRequest,
  recountWorkerCount,
  recountWorkPool,
  workerRecovery,
} from './recount-work-pool.ts'

const loadWasm = () => import('@guildhall/core/wasm-recover')
/** The stand-ins' recovery, chosen once as each real worker chooses it when it starts. */
const recovery = workerRecovery(loadWasm)

class StandInWorker extends EventTarget {
  tasks: RecountWorkRequest[] = []
  terminated = false
  constructor(private readonly fails = false) {
    super()
  }
  postMessage(request: RecountWorkRequest) {
    // What the real worker receives: a structured clone.
    const received = structuredClone(request)
    this.tasks.push(received)
    setTimeout(async () => {
      if (this.fails) this.dispatchEvent(new Event('error'))
      else
        this.dispatchEvent(
          new MessageEvent('message', { data: await answerRecountWork(received, await recovery) }),
        )
    }, 0)
  }
  terminate() {
    this.terminated = true
  }
}

const domain: GovernanceDomain = governanceDomain({
  chainId: 31337,
  token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
})
const accounts = Array.from({ length: 5 }, (_, i) => privateKeyToAccount(toHex(i + 1, { size: 32 })))
const signedVotes = () =>
  Promise.all(
    accounts.map(async (account, i) => {
      const message: VoteMessage = {
        voter: account.address,
        proposal: keccak256(toHex('a proposal')),
        choices: [1 + (i % 3)],
        reason: `Vote ${i}`,
        timestamp: 1_800_000_000 + i,
      }
      return { message, signature: await account.signTypedData(voteTypedData(domain, message)) }
    }),
  )
const logEntries = (count: number): LogEntry[] => {
  const entries: LogEntry[] = []
  let prevHash: Hex = LOG_GENESIS_HASH
  for (let seq = 1; seq <= count; seq++) {
    const fields = {
      seq,
      kind: 'vote' as const,
      messageId: keccak256(toHex(seq)),
      signature: `0x${'ab'.repeat(65)}` as Hex,
      prevHash,
    }
    const hash = logEntryHash(fields)
    entries.push({ ...fields, hash } as LogEntry)
    prevHash = hash
  }
  return entries
}
const standIns = (size: number, failing: number[] = []) => {
  const workers: StandInWorker[] = []
  const pool = recountWorkPool(size, () => {
    const worker = new StandInWorker(failing.includes(workers.length))
    workers.push(worker)
    return worker as unknown as Worker
  })
  return { pool, workers }
}

describe('recountWorkPool', () => {
  test('behavior: a chunk of votes goes out as one task per worker, split evenly; each vote comes back in order with its id and signer, as on the recount’s own thread', async () => {
    const { pool, workers } = standIns(2)
    const votes = await signedVotes()
    const checks = await pool.work.checkVotes(domain, votes)
    expect(checks).toEqual(
      votes.map(({ message }, i) => ({ id: voteId(domain, message), signer: accounts[i]?.address })),
    )
    expect(checks).toEqual(await recountWorkHere().checkVotes(domain, votes))
    expect(workers.map((w) => w.tasks.map((t) => (t.kind === 'votes' ? t.votes.length : -1)))).toEqual([
      [3],
      [2],
    ])
    pool.close()
    expect(workers.every((w) => w.terminated)).toBe(true)
  })

  test('behavior: a chunk of log entries comes back hashed, in order; a tampered entry’s hash is not its stored one', async () => {
    const { pool, workers } = standIns(3)
    const entries = logEntries(7)
    const tampered = entries.map((entry, i) => (i === 4 ? { ...entry, signature: '0x' as Hex } : entry))
    const hashes = await pool.work.hashLogEntries(tampered)
    expect(hashes.map((hash, i) => hash === entries[i]?.hash)).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
      true,
    ])
    expect(workers.map((w) => w.tasks.map((t) => (t.kind === 'log' ? t.entries.length : -1)))).toEqual([
      [3],
      [2],
      [2],
    ])
    pool.close()
  })

  test('behavior: a malformed signature comes back with no signer, and a message that cannot be hashed with no id', async () => {
    const { pool } = standIns(2)
    const [vote] = await signedVotes()
    const { message } = vote as { message: VoteMessage; signature: Hex }
    const unhashable = { ...message, voter: '0xnot-an-address' as Address }
    expect(
      await pool.work.checkVotes(domain, [
        { message, signature: `0x${'00'.repeat(65)}` },
        { message: unhashable, signature: vote?.signature as Hex },
        { message, signature: '0x1234' },
      ]),
    ).toEqual([
      { id: voteId(domain, message), signer: null },
      { id: null, signer: null },
      { id: voteId(domain, message), signer: null },
    ])
    pool.close()
  })

  test('error: a worker that fails rejects the chunk with a sentence, though the other worker answered', async () => {
    const { pool, workers } = standIns(2, [0])
    await expect(pool.work.checkVotes(domain, await signedVotes())).rejects.toThrow(
      'A signature or log check failed in this browser.',
    )
    expect(workers[1]?.tasks).toHaveLength(1)
    pool.close()
  })

  test('error: a task whose recovery throws is answered as failed, not left waiting', async () => {
    const [vote] = await signedVotes()
    const request: RecountWorkRequest = { task: 7, kind: 'votes', domain, votes: [vote as never] }
    expect(await answerRecountWork(request, () => Promise.reject(new Error('out of memory')))).toEqual({
      task: 7,
      failed: true,
    })
  })

  test('behavior: one worker per core, at least one and at most 8', () => {
    expect([undefined, 1, 2, 6, 16].map(recountWorkerCount)).toEqual([1, 1, 2, 6, 8])
  })
})

describe('workerRecovery', () => {
  test('behavior: a worker recovers with the WebAssembly recovery once it has loaded', async () => {
    const marker: Address = '0x000000000000000000000000000000000000dEaD'
    const recover = await workerRecovery(async () => ({ wasmRecoverSigner: () => marker }))
    const hash = keccak256(toHex('check'))
    const [account] = accounts
    if (!account) throw new Error('no account')
    expect(await recover(hash, await account.sign({ hash }))).toBe(marker)
  })

  test('behavior: where the WebAssembly cannot load, a worker recovers as the recount’s own thread does, with the same answers', async () => {
    const fallback = await workerRecovery(() =>
      Promise.reject(new WebAssembly.CompileError('refused by CSP')),
    )
    const wasm = await workerRecovery(loadWasm)
    for (const [i, account] of accounts.entries()) {
      const hash = keccak256(toHex(`check ${i}`))
      const signature = await account.sign({ hash })
      expect(await fallback(hash, signature)).toBe(account.address)
      expect(await wasm(hash, signature)).toBe(account.address)
    }
    expect(await fallback(keccak256(toHex('check')), `0x${'00'.repeat(65)}`)).toBeNull()
  })
})
