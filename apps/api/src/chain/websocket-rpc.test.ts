// The app against a node reached over a WebSocket (ADR 027): anvil serves ws:// on its HTTP port. The token
// index, the /rpc proxy and core's rpcTransport all talk to it over the socket, survive the socket closing
// and the node restarting, and a socket closed under a request reaches the member as a sentence.
import { type AddressInfo, connect, createServer, type Socket } from 'node:net'
import { LOCAL_CHAIN_ID, rpcTransport, WALLET_ERROR_MESSAGES, walletErrorMessage } from '@guildhall/core'
import { type AnvilInstance, startAnvil } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { FastifyInstance } from 'fastify'
import { BaseError, createPublicClient, http, SocketClosedError } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testSettings } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let app: FastifyInstance
let appUrl: string
let wsUrl: string

const wsOf = (httpUrl: string) => httpUrl.replace(/^http:/, 'ws:')

function rpc(body: unknown) {
  return fetch(`${appUrl}/rpc/${LOCAL_CHAIN_ID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  wsUrl = wsOf(anvil.url)
  database = await testDatabase()
  const settings = testSettings({ rpcUrl: wsUrl, deployment, env: { SIGN_IN: 'off' } })
  expect(settings.chains[0]).toMatchObject({ upstreamRpcUrl: wsUrl, proxied: true })
  app = await buildApp({ settings, database, logger: false })
  appUrl = await app.listen({ host: '127.0.0.1', port: 0 })
}, 60_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await anvil?.stop()
})

describe('a node on ws://', () => {
  test('behavior: the token index follows the token over the socket: every demo holder, up to the head', async () => {
    const holders = deployment.members.filter((member) => member.balance !== '0').length
    const head = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber())
    let answer: { holders: number; blockNumber: string } | undefined
    for (let attempt = 0; attempt < 50 && answer?.blockNumber !== String(head); attempt++) {
      const response = await fetch(`${appUrl}/api/token/holders`)
      if (response.ok) answer = (await response.json()) as typeof answer
      else await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(answer).toEqual({ holders, blockNumber: String(head) })
  })

  test('behavior: the /rpc proxy forwards a batch over the socket; node errors and refusals keep their caller ids', async () => {
    const response = await rpc([
      { jsonrpc: '2.0', id: 'chain', method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 7, method: 'eth_getBlockByNumber', params: ['not a block', false] },
      { jsonrpc: '2.0', id: 8, method: 'anvil_mine', params: [] },
      { jsonrpc: '2.0', id: 9, method: 'eth_blockNumber' },
    ])
    expect(response.status).toBe(200)
    const answers = (await response.json()) as { id: unknown; result?: unknown; error?: { code: number } }[]
    const head = await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()
    expect(answers.map((answer) => answer.id)).toEqual(['chain', 7, 8, 9])
    expect(answers[0]?.result).toBe(`0x${LOCAL_CHAIN_ID.toString(16)}`)
    expect(answers[1]?.error?.code).toBeTypeOf('number')
    expect(answers[2]?.error?.code).toBe(-32601)
    expect(answers[3]?.result).toBe(`0x${head.toString(16)}`)
  })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A TCP relay in front of anvil, as a network or a load balancer between the app and its node: it can hold
 * what clients send (their requests stay pending) and drop every connection through it.
 */
async function relayTo(port: number) {
  const open = new Set<Socket>()
  let connections = 0
  let holding = false
  const server = createServer((client) => {
    connections++
    open.add(client)
    const upstream = connect(port, '127.0.0.1')
    client.on('data', (chunk) => {
      if (!holding) upstream.write(chunk)
    })
    upstream.pipe(client)
    const close = () => {
      open.delete(client)
      client.destroy()
      upstream.destroy()
    }
    for (const socket of [client, upstream]) socket.on('close', close).on('error', close)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    hold: () => {
      holding = true
    },
    /** Drops every connection; new ones are relayed again. */
    drop: () => {
      for (const socket of open) socket.destroy()
      holding = false
    },
    close: () => {
      for (const socket of open) socket.destroy()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

describe('when the socket goes away', () => {
  test('behavior: a socket closed under a request reaches the member as a sentence ("Socket is closed."); the next call opens a new socket and is answered', async () => {
    const relay = await relayTo(Number(new URL(anvil.url).port))
    try {
      // No retries: the member's read fails as the socket closes, as it does once the retries are spent.
      const client = createPublicClient({
        transport: rpcTransport(relay.url, { timeout: 5_000, retryCount: 0 }),
      })
      expect(await client.getChainId()).toBe(LOCAL_CHAIN_ID)
      relay.hold()
      const failed = client.getBlockNumber({ cacheTime: 0 }).then(
        () => undefined,
        (error: unknown) => error,
      )
      await sleep(200)
      relay.drop()
      const error = await failed
      expect(error).toBeInstanceOf(BaseError)
      expect((error as BaseError).walk((cause) => cause instanceof SocketClosedError)).toBeInstanceOf(
        SocketClosedError,
      )
      expect(walletErrorMessage(error)).toBe(WALLET_ERROR_MESSAGES.socketClosed)
      expect(WALLET_ERROR_MESSAGES.socketClosed).toBe(
        'The connection to the network was closed. Try again: the app opens a new one.',
      )

      const head = await createPublicClient({ transport: http(anvil.url) }).getBlockNumber({ cacheTime: 0 })
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(head)
      expect(relay.connections()).toBe(2)
    } finally {
      await relay.close()
    }
  })

  // Last: the node comes back empty, and the token index then meets a chain it has not seen.
  test('behavior: the node restarts: the /rpc proxy answers 503 while it is down, then the node again; a client made before it went down reconnects', async () => {
    const client = createPublicClient({ transport: rpcTransport(wsUrl, { timeout: 5_000, retryCount: 0 }) })
    expect(await client.getChainId()).toBe(LOCAL_CHAIN_ID)
    const chainId = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }
    const port = Number(new URL(anvil.url).port)
    await anvil.stop()

    const down = await rpc(chainId)
    expect(down.status).toBe(503)
    expect(await down.json()).toMatchObject({ error: 'chain_unavailable' })
    const refused = await client.getChainId().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(walletErrorMessage(refused)).toMatch(
      /^The (network did not answer|connection to the network was closed)/,
    )

    anvil = await startAnvil({ port, chainId: LOCAL_CHAIN_ID, quiet: true })
    const up = await rpc(chainId)
    expect(up.status).toBe(200)
    expect(await up.json()).toEqual({ jsonrpc: '2.0', id: 1, result: `0x${LOCAL_CHAIN_ID.toString(16)}` })
    expect(await client.getChainId()).toBe(LOCAL_CHAIN_ID)
  })
})
