// GET /api/names/resolve over the whole app, against the local name service (ENS on anvil with chain id 1)
// through a recording proxy: a name to its address, the refusals as sentences, names off, the RPC down,
// the rate limit, and CCIP-Read not followed.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { apiErrorSchema, resolvedNameSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type NameService, startNameService } from '@guildhall/devchain/name-service'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  concat,
  createTestClient,
  encodeErrorResult,
  type Hex,
  http,
  parseAbi,
  publicActions,
  size,
  toHex,
} from 'viem'
import { mainnet } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { testSettings } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'

const ada = anvilAccounts[1]?.address as Address
const ben = anvilAccounts[2]?.address as Address
const apps: FastifyInstance[] = []
const databases: TestDatabase[] = []
const proxies: RecordingProxy[] = []
let nameService: NameService
/** A local HTTP server standing for what the server must never reach (its own network): it records hits. */
let internal: { url: string; hits: string[]; server: Server }

beforeAll(async () => {
  nameService = await startNameService()
  const hits: string[] = []
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`)
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"0x"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  internal = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server }
}, 60_000)
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
  for (const proxy of proxies.splice(0)) await proxy.close()
  for (const database of databases.splice(0)) await database.close()
})
afterAll(async () => {
  await new Promise((resolve) => internal?.server.close(resolve))
  await nameService?.stop()
})

/** The app resolving names through a recording proxy (or not at all: `names: false`). */
async function appWithNames({
  names = true,
  env = {},
}: {
  names?: boolean
  env?: Record<string, string>
} = {}) {
  const proxy = await startRecordingProxy(nameService.rpcUrl)
  proxies.push(proxy)
  const database = await testDatabase()
  databases.push(database)
  const settings = testSettings({
    origin: null,
    env: { ...(names && { ENS_RPC_URL: proxy.url, IPFS_GATEWAYS: nameService.ipfsGatewayUrl }), ...env },
  })
  const app = await buildApp({ settings, database })
  apps.push(app)
  await app.ready()
  return { app, proxy }
}

const resolveName = (app: FastifyInstance, name: string) =>
  app.inject({ method: 'GET', url: `/api/names/resolve?name=${encodeURIComponent(name)}` })

const messageOf = (response: { json(): unknown }) => apiErrorSchema.parse(response.json()).message

describe('GET /api/names/resolve', { timeout: 30_000 }, () => {
  test('default: ada.eth resolves to Ada, and a name typed in capitals or with spaces around to its normalised form; never cached', async () => {
    const { app, proxy } = await appWithNames()
    const response = await resolveName(app, 'ada.eth')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(resolvedNameSchema.parse(response.json())).toEqual({ name: 'ada.eth', address: ada })
    expect(proxy.calls.filter((call) => call.method === 'eth_call')).toHaveLength(1)
    expect((await resolveName(app, ' BEN.eth ')).json()).toEqual({ name: 'ben.eth', address: ben })
  })

  test('error: a name nobody registered is a 404 saying no address is set for it', async () => {
    const { app } = await appWithNames()
    const response = await resolveName(app, 'nobody.eth')
    expect(response.statusCode).toBe(404)
    expect(messageOf(response)).toBe('No address is set for nobody.eth.')
  })

  test('error: what ENS does not accept as a name is a 400 a person understands, and asks the chain nothing', async () => {
    const { app, proxy } = await appWithNames()
    for (const name of ['ben..eth', 'ben eth', 'a_b.eth', 'ben', '.eth', 'xn--ls8h.eth']) {
      const response = await resolveName(app, name)
      expect([name, response.statusCode]).toEqual([name, 400])
      expect(messageOf(response)).toBe(
        `“${name}” is not a name ENS accepts. Check the spelling, or enter the address (0x…).`,
      )
    }
    for (const query of ['', '?name=', '?name=%20', `?name=${'a'.repeat(252)}.eth`, '?name=ben.eth&x=1']) {
      const response = await app.inject({ method: 'GET', url: `/api/names/resolve${query}` })
      expect([query, response.statusCode]).toEqual([query, 400])
    }
    expect(proxy.calls).toEqual([])
  })

  test('error: with names off (no ENS_RPC_URL) a 503 says so, and nothing is asked', async () => {
    const { app, proxy } = await appWithNames({ names: false })
    const response = await resolveName(app, 'ada.eth')
    expect(response.statusCode).toBe(503)
    expect(messageOf(response)).toBe('This server does not look up names. Enter the address (0x…) instead.')
    expect(proxy.calls).toEqual([])
  })

  test('error: while the ENS RPC fails, a 503 with Retry-After asks to try again shortly', async () => {
    const { app, proxy } = await appWithNames()
    proxy.down = true
    const response = await resolveName(app, 'ada.eth')
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('5')
    expect(messageOf(response)).toBe(
      'The name service did not answer. Try again shortly, or enter the address (0x…).',
    )
    expect(proxy.calls.length).toBeGreaterThan(0)
  })

  test('error: past NAME_RESOLVE_RATE_LIMIT_PER_MINUTE a client gets 429 with Retry-After, and the RPC is not asked', async () => {
    const { app, proxy } = await appWithNames({ env: { NAME_RESOLVE_RATE_LIMIT_PER_MINUTE: '2' } })
    expect((await resolveName(app, 'ada.eth')).statusCode).toBe(200)
    expect((await resolveName(app, 'nobody.eth')).statusCode).toBe(404)
    const calls = proxy.calls.length
    const limited = await resolveName(app, 'ben.eth')
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(proxy.calls.length).toBe(calls)
  })

  test('error: a Universal Resolver answering OffchainLookup with a URL on the server’s network is not followed: 404, no request', async () => {
    const { app } = await appWithNames()
    const anvil = createTestClient({
      chain: mainnet,
      transport: http(nameService.rpcUrl),
      mode: 'anvil',
    }).extend(publicActions)
    const universalResolver = nameService.deployment.universalResolver
    // ENS's own Universal Resolver names the gateways itself, as the sender of the OffchainLookup.
    const revertData = encodeErrorResult({
      abi: parseAbi([
        'error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData)',
      ]),
      errorName: 'OffchainLookup',
      args: [universalResolver, [`${internal.url}/{sender}/{data}.json`], '0x', '0x12345678', '0x'],
    })
    // Runtime code that reverts with `revertData`: CODECOPY it from after the code, then REVERT.
    const length = toHex(size(revertData), { size: 2 })
    const code = concat(['0x61', length, '0x600e60003961', length, '0x6000fd', revertData as Hex])
    const original = await anvil.getCode({ address: universalResolver })
    if (!original) throw new Error('the local name service has no Universal Resolver')
    await anvil.setCode({ address: universalResolver, bytecode: code })
    try {
      const response = await resolveName(app, 'ada.eth')
      expect(response.statusCode).toBe(404)
      expect(messageOf(response)).toBe(
        'ada.eth is resolved off-chain, which this server does not follow. Enter the address (0x…) instead.',
      )
    } finally {
      await anvil.setCode({ address: universalResolver, bytecode: original })
    }
    expect(internal.hits).toEqual([])
    expect((await resolveName(app, 'ada.eth')).statusCode).toBe(200)
  })
})
