// @vitest-environment node
// The receipt wait of every transaction the app follows (a delegation, a Safe execution) against a real
// anvil behind a recording proxy: the spec's polling schedule (6 retries, from 200 ms, doubling) observed in
// the requests the app makes, not only its constants; and how a transaction the wallet replaced ends
// (ADR 034).
import {
  LOCAL_CHAIN_ID,
  POLLING_INTERVAL_MS,
  RECEIPT_RETRY_BASE_DELAY_MS,
  RECEIPT_RETRY_COUNT,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  publicActions,
  walletActions,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { transactionEnd } from './transaction-end.ts'

let anvil: AnvilInstance
let proxy: RecordingProxy

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  proxy = await startRecordingProxy(anvil.url)
})

afterAll(async () => {
  await proxy?.close()
  await anvil?.stop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls (every 50 ms, at most `limitMs`) until `done` holds. */
async function until(done: () => boolean, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`not reached within ${limitMs} ms`)
    await sleep(50)
  }
}

test('a transaction the node does not know yet is looked up 1 + 6 times, 200 ms apart doubling, then again on the next block, and confirms once it is there', async () => {
  const key = anvilAccounts[1]?.privateKey as Hex
  const wallet = createWalletClient({
    account: privateKeyToAccount(key),
    chain: foundry,
    transport: http(anvil.url),
  })
  // Signed, not sent: what a wallet whose own node has the transaction hands the app before the app's
  // node has seen it.
  const request = await wallet.prepareTransactionRequest({ to: anvilAccounts[2]?.address, value: 1n })
  const raw = await wallet.signTransaction(request)
  const hash = keccak256(raw)

  const client = createPublicClient({
    chain: foundry,
    transport: http(proxy.url),
    pollingInterval: POLLING_INTERVAL_MS,
  }) as PublicClient
  const lookups = () =>
    proxy.calls.filter((call) => call.method === 'eth_getTransactionByHash' && call.params[0] === hash)
  const confirmed = transactionEnd(client, hash)

  const attempts = 1 + RECEIPT_RETRY_COUNT
  const delays = Array.from(
    { length: RECEIPT_RETRY_COUNT },
    (_, count) => RECEIPT_RETRY_BASE_DELAY_MS * 2 ** count,
  )
  expect(delays).toEqual([200, 400, 800, 1_600, 3_200, 6_400])
  const schedule = delays.reduce((sum, delay) => sum + delay, 0)
  await until(() => lookups().length === attempts, schedule + 10_000)
  // The retries are spent: nothing more is asked until a new block comes (none does while we wait).
  await sleep(1_500)
  expect(lookups()).toHaveLength(attempts)
  const at = lookups().map((call) => call.at)
  const gaps = at.slice(1).map((time, index) => time - (at[index] as number))
  for (const [index, gap] of gaps.entries()) {
    const delay = delays[index] as number
    // Never sooner than the schedule; later only by the time a request takes on a loaded machine.
    expect(gap, `retry ${index + 1}`).toBeGreaterThanOrEqual(delay - 2)
    expect(gap, `retry ${index + 1}`).toBeLessThan(delay + 1_000)
  }

  // The app's node now receives it (anvil mines it at once): the next block starts a new lookup.
  await wallet.sendRawTransaction({ serializedTransaction: raw })
  expect(await confirmed).toBe('confirmed')
  expect(lookups().length).toBeGreaterThan(attempts)
}, 60_000)

// The wallet sends another transaction with the same nonce and higher fees, as its "speed up" and
// "cancel" do, once the wait has seen the first pending (read it, then scanned a block for a
// replacement): the wait ends as what happened to the first call.
for (const { reason, end, replacement } of [
  {
    reason: 'repriced (the same call)',
    end: 'confirmed',
    replacement: (sent: Sent) => ({ to: sent.to, data: sent.input }),
  },
  {
    reason: 'cancelled (0 to itself)',
    end: 'cancelled',
    replacement: (sent: Sent) => ({ to: sent.from, value: 0n }),
  },
  {
    reason: 'replaced (another call)',
    end: 'replaced',
    replacement: (sent: Sent) => ({ to: sent.to, value: 1n }),
  },
] as const) {
  test(`a transaction ${reason} in the wallet ends "${end}"`, async () => {
    const node = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
      .extend(publicActions)
      .extend(walletActions)
    const from = anvilAccounts[3]?.address as Hex
    const client = createPublicClient({
      chain: foundry,
      transport: http(proxy.url),
      pollingInterval: 100,
    }) as PublicClient
    await node.setAutomine(false)
    try {
      // Any call stands for delegate(…): the wait knows only the hash.
      const hash = await node.sendTransaction({
        account: from,
        to: anvilAccounts[4]?.address,
        data: '0x5c19a95c',
        chain: null,
      })
      const ended = transactionEnd(client, hash)
      await until(() => {
        const read = proxy.calls.findIndex(
          (call) => call.method === 'eth_getTransactionByHash' && call.params[0] === hash,
        )
        return (
          read >= 0 &&
          proxy.calls
            .slice(read)
            .some((call) => call.method === 'eth_getBlockByNumber' && call.params[1] === true)
        )
      }, 10_000)
      const sent = await node.getTransaction({ hash })
      await node.sendTransaction({
        account: from,
        chain: null,
        nonce: sent.nonce,
        gas: sent.gas,
        maxFeePerGas: (sent.maxFeePerGas ?? 0n) * 2n,
        maxPriorityFeePerGas: (sent.maxPriorityFeePerGas ?? 0n) * 2n + 1n,
        ...replacement({ from: sent.from, to: sent.to as Hex, input: sent.input }),
      })
      await node.mine({ blocks: 1 })
      expect(await ended).toBe(end)
    } finally {
      await node.setAutomine(true)
    }
  }, 30_000)
}

type Sent = { from: Hex; to: Hex; input: Hex }
