// @vitest-environment node
// The development wallet against the app's real /rpc proxy and a real anvil: it signs with its own keys
// and sends raw transactions, so it works through a proxy that refuses the node's unlocked accounts.
import { buildApp, parseEnv } from '@guildhall/api'
import { governanceDomain, LOCAL_CHAIN_ID, voteTypedData } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import type { AnvilProvider } from '@guildhall/devchain/browser'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  stringToHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDevWalletProvider } from './dev-wallet.ts'

let anvil: AnvilInstance
let app: FastifyInstance
let proxyUrl: string
let node: PublicClient
let wallet: AnvilProvider

const ada = anvilAccounts[1]?.address as Address
const ben = anvilAccounts[2]?.address as Address

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  node = createPublicClient({ chain: foundry, transport: http(anvil.url) }) as PublicClient
  const port = await getFreePort()
  const settings = parseEnv({
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    CHAIN_IDS: String(LOCAL_CHAIN_ID),
    [`RPC_URL_${LOCAL_CHAIN_ID}`]: anvil.url,
    WALLETS: 'injected',
    SIGN_IN: 'off',
    DEV_WALLET_ACCOUNTS: `${ada}:Ada,${ben}:Ben`,
  })
  app = await buildApp({ settings })
  await app.listen({ host: '127.0.0.1', port })
  const { devWallet, chains } = settings.publicConfig
  proxyUrl = chains[0]?.rpcUrl as string
  expect(proxyUrl).toBe(`http://127.0.0.1:${port}/rpc/${LOCAL_CHAIN_ID}`)
  wallet = createDevWalletProvider({ accounts: devWallet?.accounts ?? [], chains })
  expect(await wallet.request({ method: 'eth_requestAccounts' })).toEqual([ada, ben])
}, 30_000)

afterAll(async () => {
  await app?.close()
  await anvil?.stop()
})

test('security: the proxy the wallet talks to refuses the node-signed methods', async () => {
  for (const [method, params] of [
    ['eth_sendTransaction', [{ from: ada, to: ben, value: '0x1' }]],
    ['personal_sign', ['0x00', ada]],
  ] as const) {
    const response = await fetch(proxyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    expect(await response.json(), method).toMatchObject({ error: { code: -32601 } })
  }
})

test('behavior: personal_sign is signed by the wallet, and the signature verifies', async () => {
  const message = 'Sign in to the Guildhall demo\nNonce: 12345678'
  const signature = (await wallet.request({
    method: 'personal_sign',
    params: [stringToHex(message), ada],
  })) as Hex
  expect(await verifyMessage({ address: ada, message, signature })).toBe(true)
  expect(await verifyMessage({ address: ben, message, signature })).toBe(false)
})

test('behavior: eth_signTypedData_v4 is signed by the wallet, and the signature verifies', async () => {
  const typed = voteTypedData(governanceDomain({ chainId: LOCAL_CHAIN_ID, token: ben }), {
    voter: ben,
    proposal: `0x${'ab'.repeat(32)}`,
    choices: [1],
    reason: 'Because',
    timestamp: 1_700_000_000,
  })
  const json = JSON.stringify(typed, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))
  const signature = (await wallet.request({ method: 'eth_signTypedData_v4', params: [ben, json] })) as Hex
  expect(await verifyTypedData({ ...typed, address: ben, signature })).toBe(true)
})

test('behavior: eth_sendTransaction is signed by the wallet, sent raw through the proxy and mined', async () => {
  const before = await node.getBalance({ address: ben })
  const nonce = await node.getTransactionCount({ address: ada })
  const hash = (await wallet.request({
    method: 'eth_sendTransaction',
    params: [{ from: ada, to: ben, value: '0x3039' }],
  })) as Hex
  const receipt = await node.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  expect(receipt).toMatchObject({ status: 'success', from: ada.toLowerCase(), to: ben.toLowerCase() })
  expect(await node.getBalance({ address: ben })).toBe(before + 12_345n)
  expect(await node.getTransactionCount({ address: ada })).toBe(nonce + 1)
})

test('behavior: a transaction the chain would revert fails with the node error, nothing sent', async () => {
  const nonce = await node.getTransactionCount({ address: ada })
  // More ether than the account holds.
  const error = await wallet
    .request({
      method: 'eth_sendTransaction',
      params: [{ from: ada, to: ben, value: `0x${'f'.repeat(40)}` }],
    })
    .then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    )
  expect(error?.code).toEqual(expect.any(Number))
  expect(error?.message).toMatch(/funds|balance/i)
  expect(await node.getTransactionCount({ address: ada })).toBe(nonce)
})

test('behavior: an account the wallet holds no key for is refused with 4100', async () => {
  const stranger = '0x000000000000000000000000000000000000dEaD'
  wallet.control.setAccounts([stranger, ada])
  try {
    const error = await wallet.request({ method: 'personal_sign', params: ['0x00', stranger] }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    )
    expect(error).toMatchObject({ code: 4100, message: expect.stringContaining(stranger) })
  } finally {
    wallet.control.setAccounts([ada, ben])
  }
})
