// POST /rpc/<chainId> over real HTTP against a real anvil: what it forwards, what it answers itself.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testSettings } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { startChain } from '../demo/local-chain.ts'

const EVIL = 'http://evil.example'

let anvil: AnvilInstance
let app: FastifyInstance
let proxyUrl: string
/** Straight to anvil, to see what really happened on the node. */
let node: PublicClient

const member = anvilAccounts[1]?.address as Address

async function rawNode(method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

/** A POST of `text` to the proxy as a visitor from another site would send it: no cookie, a foreign Origin. */
function send(text: string) {
  return fetch(proxyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: EVIL },
    body: text,
  })
}
const rpc = (body: unknown) => send(JSON.stringify(body))

beforeAll(async () => {
  // A chain longer than the eth_getLogs limit, so that 'earliest'..'latest' is too wide.
  anvil = await startChain({ genesisBlockNumber: 20_000 })
  node = createPublicClient({ chain: foundry, transport: http(anvil.url) }) as PublicClient
  const settings = testSettings({ rpcUrl: anvil.url, env: { SIGN_IN: 'off' } })
  app = await buildApp({ settings })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  proxyUrl = `${address}/rpc/${LOCAL_CHAIN_ID}`
}, 30_000)

afterAll(async () => {
  await app?.close()
  await anvil?.stop()
})

describe('methods', () => {
  test('security: a visitor from another site cannot change the node or use its keys: each such method answers -32601 and nothing changes', async () => {
    const balance = await node.getBalance({ address: member })
    const block = await node.getBlockNumber()
    const unlocked = anvilAccounts[0]?.address as Address
    const calls: [string, unknown[]][] = [
      ['anvil_setBalance', [member, numberToHex(parseEther('1000000'))]],
      ['hardhat_setBalance', [member, numberToHex(parseEther('1000000'))]],
      ['anvil_impersonateAccount', [member]],
      ['evm_snapshot', []],
      ['evm_revert', ['0x0']],
      ['evm_mine', []],
      ['anvil_mine', ['0x10']],
      ['anvil_setLoggingEnabled', [false]],
      ['anvil_setCode', [member, '0x00']],
      ['anvil_dumpState', []],
      ['debug_traceCall', [{ from: unlocked, to: member }, 'latest']],
      ['eth_sendTransaction', [{ from: unlocked, to: member, value: '0x1' }]],
      ['eth_accounts', []],
      ['personal_sign', ['0x68656c6c6f', member]],
      ['eth_sign', [member, '0x68656c6c6f']],
      ['eth_signTypedData_v4', [member, '{}']],
      ['eth_newFilter', [{}]],
      ['txpool_content', []],
    ]
    for (const [index, [method, params]] of calls.entries()) {
      const response = await rpc({ jsonrpc: '2.0', id: index, method, params })
      expect(response.status, method).toBe(200)
      const answer = (await response.json()) as { id: number; error?: { code: number; message: string } }
      expect(answer, method).toMatchObject({ jsonrpc: '2.0', id: index, error: { code: -32601 } })
      expect(answer.error?.message, method).toContain(method)
    }
    expect(await node.getBalance({ address: member })).toBe(balance)
    expect(await node.getBlockNumber()).toBe(block)
    expect(await rawNode('anvil_nodeInfo')).toBeTruthy()
  })

  test('behavior: the reads viem makes and a signed raw transaction are forwarded; the transaction is mined', async () => {
    const client = createPublicClient({ chain: foundry, transport: http(proxyUrl) })
    expect(await client.getChainId()).toBe(LOCAL_CHAIN_ID)
    const balance = await client.getBalance({ address: member })
    expect(balance).toBe(await node.getBalance({ address: member }))
    await client.getGasPrice()
    await client.estimateFeesPerGas()
    await client.getBlock()
    const account = privateKeyToAccount(anvilAccounts[2]?.privateKey as Hex)
    const wallet = createWalletClient({ account, chain: foundry, transport: http(proxyUrl) })
    const hash = await wallet.sendTransaction({ to: member, value: 1234n })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    expect(await node.getBalance({ address: member })).toBe(balance + 1234n)
    expect(await client.getTransaction({ hash })).toMatchObject({ from: account.address.toLowerCase() })
  })

  test('behavior: a batch mixing served and refused methods answers every call in place, under its own id', async () => {
    const response = await rpc([
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 'a', method: 'anvil_setBalance', params: [member, '0x1'] },
      { jsonrpc: '2.0', id: null, method: 'net_version', params: [] },
      { jsonrpc: '2.0', id: 7, method: 'eth_getBalance', params: [member, 'latest'] },
    ])
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 'a', result: numberToHex(LOCAL_CHAIN_ID) },
      {
        jsonrpc: '2.0',
        id: 'a',
        error: { code: -32601, message: expect.stringContaining('anvil_setBalance') },
      },
      { jsonrpc: '2.0', id: null, result: String(LOCAL_CHAIN_ID) },
      { jsonrpc: '2.0', id: 7, result: expect.stringMatching(/^0x[0-9a-f]+$/) },
    ])
  })
})

describe('limits', () => {
  test('security: a batch of more than 100 calls is refused with 413; 100 are served', async () => {
    const batch = (length: number) =>
      Array.from({ length }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))
    for (const length of [101, 5000]) {
      const response = await rpc(batch(length))
      expect(response.status, String(length)).toBe(413)
      expect(await response.json()).toEqual({
        error: 'batch_too_large',
        message: `A JSON-RPC batch holds at most 100 calls; this one has ${length}.`,
      })
    }
    const served = await rpc(batch(100))
    expect(served.status).toBe(200)
    expect(await served.json()).toHaveLength(100)
  })

  test('security: eth_getLogs over more than 10,000 blocks is refused with -32005, block tags resolved against the head', async () => {
    // Uncached (viem's getBlockNumber keeps an answer for seconds).
    const head = BigInt((await rawNode('eth_blockNumber')) as string)
    const logs = async (filter: Record<string, unknown>) => {
      const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [filter] })
      expect(response.status).toBe(200)
      return (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
    }
    for (const filter of [
      { fromBlock: '0x0', toBlock: numberToHex(10_000) },
      { fromBlock: 'earliest' },
      { fromBlock: 'earliest', toBlock: 'latest' },
      { fromBlock: '0x0', toBlock: 'pending' },
      { fromBlock: numberToHex(head - 10_000n), toBlock: 'finalized' },
    ]) {
      const answer = await logs(filter)
      expect(answer.error, JSON.stringify(filter)).toMatchObject({ code: -32005 })
      expect(answer.error?.message).toContain('at most 10000 blocks')
    }
    for (const filter of [
      { fromBlock: '0x0', toBlock: numberToHex(9_999) },
      { fromBlock: numberToHex(head - 9_999n) },
      { fromBlock: numberToHex(head - 9_999n), toBlock: 'latest' },
      {},
      { toBlock: '0x5', fromBlock: '0x9' },
    ]) {
      expect(await logs(filter), JSON.stringify(filter)).toEqual({ jsonrpc: '2.0', id: 1, result: [] })
    }
    for (const filter of [{ fromBlock: 'yesterday' }, { fromBlock: 12 }, { toBlock: '0x' }]) {
      expect((await logs(filter)).error, JSON.stringify(filter)).toMatchObject({ code: -32602 })
    }
  })
})

describe('bodies', () => {
  test('behavior: a body that is not JSON-RPC 2.0 is a 400 with a message', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }
    const bodies: unknown[] = [
      {},
      [],
      'eth_chainId',
      42,
      null,
      true,
      [1, 2],
      [call, 'x'],
      { ...call, jsonrpc: '1.0' },
      { ...call, jsonrpc: 2 },
      { id: 1, method: 'eth_chainId' },
      { ...call, method: 5 },
      { ...call, method: '' },
      { ...call, method: 'x'.repeat(101) },
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { ...call, id: {} },
      { ...call, id: [1] },
      { ...call, params: 'latest' },
      { ...call, params: 1 },
      { ...call, extra: true },
    ]
    for (const body of bodies) {
      const response = await rpc(body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      const answer = (await response.json()) as { error: string; message: string }
      expect(answer.error).toBe('bad_request')
      expect(answer.message, JSON.stringify(body)).toMatch(/JSON-RPC/)
    }
  })

  test('behavior: malformed JSON is a 400 with a message', async () => {
    for (const text of ['{"jsonrpc":', '', 'nope', '{"a":1}}', '[']) {
      const response = await send(text)
      expect(response.status, text).toBe(400)
      expect(await response.json()).toMatchObject({ error: 'bad_request', message: expect.any(String) })
    }
  })

  test('security: a 400,000-deep JSON body is a 400, not a 503', async () => {
    const depth = 400_000
    const deepArray = '['.repeat(depth) + ']'.repeat(depth)
    const deepParams = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${deepArray}}`
    // Objects take more bytes per level: as deep as fits the 1 MiB body limit.
    const objects = 150_000
    const deepObject = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[${'{"a":'.repeat(objects)}1${'}'.repeat(objects)}]}`
    for (const text of [deepArray, deepParams, deepObject]) {
      const response = await send(text)
      expect(response.status, text.slice(0, 60)).toBe(400)
      const answer = (await response.json()) as { error: string; message: string }
      expect(answer.error).toBe('bad_request')
      expect(answer.message).toMatch(/JSON-RPC|nest deeper/)
    }
    // Still serving.
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).status).toBe(200)
  })
})
