// @vitest-environment node
// The receipt wait of a delegation against a real anvil behind a recording proxy: the spec's polling
// schedule (6 retries, from 200 ms, doubling) observed in the requests the app makes, not only its constants.
import {
  LOCAL_CHAIN_ID,
  POLLING_INTERVAL_MS,
  RECEIPT_RETRY_BASE_DELAY_MS,
  RECEIPT_RETRY_COUNT,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import { createPublicClient, createWalletClient, type Hex, http, keccak256, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { delegationConfirmed } from './delegation-transaction.ts'

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
  const confirmed = delegationConfirmed(client, hash)

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
  expect(await confirmed).toBe(true)
  expect(lookups().length).toBeGreaterThan(attempts)
}, 60_000)
