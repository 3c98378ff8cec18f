// The name table and its refresher against the real local name service (ENS on anvil with chain id 1,
// packages/devchain/src/name-service.ts) through a recording proxy, so every RPC call is counted; a clock
// is injected. On PGlite, and on PostgreSQL under scripts/with-postgres.sh.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { demoSeed } from '@guildhall/devchain/demo-dao'
import { type NameService, startNameService } from '@guildhall/devchain/name-service'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import { eq } from 'drizzle-orm'
import {
  type Address,
  concat,
  createTestClient,
  createWalletClient,
  encodeErrorResult,
  type Hex,
  http,
  namehash,
  parseAbi,
  size,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { memberStats, nameProfiles } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { NAME_TTL_MS, NameRefresher, NO_NAME_TTL_MS, nameLookupClient } from './name-refresher.ts'
import { NameProfiles } from './profiles.ts'

let nameService: NameService
let proxy: RecordingProxy
let database: TestDatabase
/** A local HTTP server standing for what a server must never reach (its own network): it records hits. */
let internal: { url: string; hits: string[]; server: Server }
let clock: Date
let profiles: NameProfiles
let refresher: NameRefresher

const address = (member: string): Address => {
  const seed = demoSeed.find((m) => m.name === member)
  const account = seed && anvilAccounts[seed.account]
  if (!account) throw new Error(`no demo member ${member}`)
  return account.address
}
const members = demoSeed.map((m) => m.name)
const ethCalls = () => proxy.calls.filter((call) => call.method === 'eth_call').length
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms)
}
/** Rows of the members directory: holders of one token unit (listed), or with nothing (not listed). */
const becomeMembers = (addresses: Address[], balance = 1n) =>
  database.db
    .insert(memberStats)
    .values(addresses.map((member) => ({ address: member, balance })))
    .onConflictDoUpdate({ target: memberStats.address, set: { balance } })
const strangers = (n: number) => Array.from({ length: n }, () => privateKeyToAddress(generatePrivateKey()))
const rowOf = async (member: Address) =>
  (await database.db.select().from(nameProfiles).where(eq(nameProfiles.address, member)))[0]

beforeAll(async () => {
  nameService = await startNameService()
  proxy = await startRecordingProxy(nameService.rpcUrl)
  database = await testDatabase()
  const hits: string[] = []
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`)
    response.writeHead(200, { 'content-type': 'image/png' }).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  internal = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server }
  clock = new Date('2026-12-01T00:00:00Z')
  const gateways = { ipfs: [nameService.ipfsGatewayUrl], arweave: [] }
  refresher = new NameRefresher({
    db: database.db,
    client: nameLookupClient(proxy.url),
    gateways,
    now: () => clock,
  })
  profiles = new NameProfiles({ db: database.db, now: () => clock, gateways })
  // Only members' names are looked up: the demo members are in the directory (as holders, or signed in).
  await becomeMembers(members.map(address))
}, 60_000)

afterAll(async () => {
  await new Promise((resolve) => internal?.server.close(resolve))
  await proxy?.close()
  await nameService?.stop()
  await database?.close()
})

beforeEach(() => {
  proxy.calls.length = 0
  proxy.down = false
})

const byMember = async () => {
  const answers = await profiles.lookup(members.map(address))
  return Object.fromEntries(members.map((member, i) => [member, answers[i]]))
}

describe('the name table', () => {
  test('default: members the table lacks answer pending and are queued; one pass resolves the nine members in one eth_call of names and one of avatar records', async () => {
    const before = await byMember()
    expect(Object.values(before).every((answer) => answer?.pending && answer.name === null)).toBe(true)
    // Reading queues; it never asks the chain.
    expect(proxy.calls).toEqual([])

    expect(await refresher.refreshQueued()).toEqual({ resolved: 9, failed: 0 })
    // Nine reverse lookups in one call, then the five names' avatar records in another.
    expect(ethCalls()).toBe(2)

    const ada = nameService.deployment.members.find((m) => m.member === 'Ada')
    const answers = await byMember()
    expect(answers).toMatchObject({
      Ada: {
        name: 'ada.eth',
        avatarUrl: `${nameService.ipfsGatewayUrl}/ipfs/${ada?.avatar?.slice('ipfs://'.length)}`,
        pending: false,
      },
      Ben: { name: 'ben.eth', pending: false },
      Cleo: { name: 'cleo.eth', pending: false },
      // Its record names a CID the gateway does not have: the gateway says 404, so no avatar URL.
      Dev: { name: 'dev.eth', avatarUrl: null, pending: false },
      // Eve's reverse record claims ada.eth, whose address is Ada's: the forward check refuses it.
      Eve: { name: null, avatarUrl: null, pending: false },
      Finn: { name: 'finn.eth', avatarUrl: null, pending: false },
      Gia: { name: null, avatarUrl: null, pending: false },
      Hugo: { name: null, pending: false },
      Iris: { name: null, pending: false },
    })
    expect(answers.Ben?.avatarUrl).toMatch(new RegExp(`^${nameService.ipfsGatewayUrl}/ipfs/b[a-z2-7]+$`))
    // What the gateway said is stored; reading again asks nothing.
    proxy.calls.length = 0
    await byMember()
    expect(await refresher.refreshQueued()).toEqual({ resolved: 0, failed: 0 })
    expect(proxy.calls).toEqual([])
  })

  test('behavior: a negative (Gia) is cached for an hour: no RPC call within its life; after it, asked again', async () => {
    later(NO_NAME_TTL_MS - 1_000)
    await byMember()
    expect(await refresher.refreshQueued()).toEqual({ resolved: 0, failed: 0 })
    expect(proxy.calls).toEqual([])

    later(2_000)
    const stale = await byMember()
    // Expired answers are given while they wait, not shown as pending.
    expect(stale.Gia).toMatchObject({ name: null, pending: false })
    // The four without a name are asked again; the five names are good for twelve hours.
    expect(await refresher.refreshQueued()).toEqual({ resolved: 4, failed: 0 })
    expect(ethCalls()).toBe(1)
  })

  test('behavior: a name expires after twelve hours and is looked up again; meanwhile the old answer stands', async () => {
    later(NAME_TTL_MS)
    const stale = await byMember()
    expect(stale.Ada).toMatchObject({ name: 'ada.eth', pending: false })
    expect(await refresher.refreshQueued()).toEqual({ resolved: 9, failed: 0 })
    expect((await byMember()).Ada?.name).toBe('ada.eth')
  })

  test('error: while the RPC fails, the old answers stay, the addresses stay queued, and the next pass resolves them', async () => {
    later(NAME_TTL_MS + 1_000)
    await byMember()
    proxy.down = true
    expect(await refresher.refreshQueued()).toEqual({ resolved: 0, failed: 9 })
    expect((await byMember()).Ada).toMatchObject({ name: 'ada.eth', pending: false })
    proxy.down = false
    expect(await refresher.refreshQueued()).toEqual({ resolved: 9, failed: 0 })
  })

  test('behavior: 40 reverse lookups go in one eth_call, the 41st in a second (NAME_LOOKUP_BATCH_BYTES)', async () => {
    const forty = strangers(40)
    await becomeMembers(forty)
    await profiles.lookup(forty)
    expect(await refresher.refreshQueued()).toEqual({ resolved: 40, failed: 0 })
    expect(ethCalls()).toBe(1)
    proxy.calls.length = 0
    const fortyOne = strangers(41)
    await becomeMembers(fortyOne)
    await profiles.lookup(fortyOne)
    expect(await refresher.refreshQueued()).toEqual({ resolved: 41, failed: 0 })
    expect(ethCalls()).toBe(2)
  })

  test('behavior: without gateways configured (names off), every answer is empty and nothing is queued', async () => {
    const off = new NameProfiles({ db: database.db, now: () => clock, gateways: null })
    const stranger = privateKeyToAddress(generatePrivateKey())
    expect(await off.lookup([stranger, stranger])).toEqual([
      { address: stranger, name: null, avatarUrl: null, pending: false },
    ])
    expect(await refresher.refreshQueued()).toEqual({ resolved: 0, failed: 0 })
  })
})

describe('only members', () => {
  test('behavior: an address that is not a listed member (no row, or a row with nothing: signed in, touched by a transfer of nothing) answers no name, not pending, and queues nothing (no row, no RPC call); once it holds tokens it is queued and resolved', async () => {
    const [stranger, other] = strangers(2) as [Address, Address]
    const answer = { address: stranger, name: null, avatarUrl: null, pending: false }
    expect(await profiles.lookup([stranger, stranger, other])).toEqual([
      answer,
      { ...answer, address: other },
    ])
    expect(await rowOf(stranger)).toBeUndefined()
    await becomeMembers([stranger], 0n)
    expect(await profiles.lookup([stranger])).toEqual([answer])
    expect(await rowOf(stranger)).toBeUndefined()
    expect(await refresher.refreshQueued()).toEqual({ resolved: 0, failed: 0 })
    expect(proxy.calls).toEqual([])

    // Holds tokens (or has voting power or delegators, or voted): a listed member.
    await becomeMembers([stranger])
    expect(await profiles.lookup([stranger])).toEqual([{ ...answer, pending: true }])
    expect(await refresher.refreshQueued()).toEqual({ resolved: 1, failed: 0 })
    expect(await profiles.lookup([stranger])).toEqual([answer])
    expect(await rowOf(stranger)).toMatchObject({ requestedAt: null, resolvedAt: clock })
  })

  test('behavior: rows of addresses that are not members are never looked up and are deleted once expired; members’ rows stay', async () => {
    const [queued, resolved] = strangers(2) as [Address, Address]
    // What a table from before the bound holds: a stranger queued, another resolved until an hour from now.
    await database.db.insert(nameProfiles).values([
      { address: queued, expiresAt: clock, requestedAt: clock },
      {
        address: resolved,
        name: null,
        resolvedAt: clock,
        expiresAt: new Date(clock.getTime() + NO_NAME_TTL_MS),
      },
    ])
    expect(await refresher.refreshQueued()).toEqual({ resolved: 0, failed: 0 })
    expect(proxy.calls).toEqual([])
    const membersRows = await database.db.$count(nameProfiles)
    expect(await refresher.pruneNonMembers()).toBe(1)
    expect(await rowOf(queued)).toBeUndefined()
    expect(await rowOf(resolved)).toBeDefined()
    // A day on, every answer has expired: the stranger's row goes, every member's stays.
    later(24 * 60 * 60 * 1000)
    expect(await refresher.pruneNonMembers()).toBe(1)
    expect(await rowOf(resolved)).toBeUndefined()
    expect(await database.db.$count(nameProfiles)).toBe(membersRows - 2)
    expect(await rowOf(address('Ada'))).toMatchObject({ name: 'ada.eth' })
  })
})

describe('the SSRF guard', () => {
  const finn = () => address('Finn')
  const setAvatar = async (record: string) => {
    const wallet = createWalletClient({ chain: mainnet, transport: http(nameService.rpcUrl) })
    const hash = await wallet.writeContract({
      account: finn(),
      address: nameService.deployment.publicResolver,
      abi: parseAbi(['function setText(bytes32 node, string key, string value)']),
      functionName: 'setText',
      args: [namehash('finn.eth'), 'avatar', record],
    })
    const test = createTestClient({ chain: mainnet, transport: http(nameService.rpcUrl), mode: 'anvil' })
    await test.mine({ blocks: 1 })
    return hash
  }

  test('error: avatar records naming the server’s own network, files, data, script or escaping paths give no URL, and the server requests none of them', async () => {
    const records = [
      `${internal.url}/admin.png`,
      `http://127.0.0.1:${new URL(internal.url).port}/../secret`,
      'file:///etc/passwd',
      'data:image/svg+xml;base64,PHN2Zy8+',
      'javascript:alert(1)',
      `eip155:1/erc721:${nameService.deployment.publicResolver}/1`,
      'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku/../../admin',
      'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku?filename=a.png',
      `ipfs://${new URL(internal.url).host}/x`,
    ]
    for (const record of records) {
      await setAvatar(record)
      later(NAME_TTL_MS + 1_000)
      await profiles.lookup([finn()])
      await refresher.refreshQueued()
      // The record was read and kept as written; only no URL came of it.
      const [row] = await database.db.select().from(nameProfiles).where(eq(nameProfiles.address, finn()))
      expect(row?.avatarRecord).toBe(record)
      const [answer] = await profiles.lookup([finn()])
      expect([record, answer]).toEqual([
        record,
        { address: finn(), name: 'finn.eth', avatarUrl: null, pending: false },
      ])
    }
    expect(internal.hits).toEqual([])
  })

  test('error: CCIP-Read is off: a contract answering OffchainLookup with a URL on the server’s network is not followed', async () => {
    const sender = '0x00000000000000000000000000000000000cc1b0' as Address
    const revertData = encodeErrorResult({
      abi: parseAbi([
        'error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData)',
      ]),
      errorName: 'OffchainLookup',
      args: [sender, [`${internal.url}/{sender}/{data}.json`], '0x', '0x12345678', '0x'],
    })
    // Runtime code that reverts with `revertData`: CODECOPY it from after the code, then REVERT.
    const length = toHex(size(revertData), { size: 2 })
    const code = concat(['0x61', length, '0x600e60003961', length, '0x6000fd', revertData as Hex])
    const test = createTestClient({ chain: mainnet, transport: http(nameService.rpcUrl), mode: 'anvil' })
    await test.setCode({ address: sender, bytecode: code })
    const client = nameLookupClient(nameService.rpcUrl)
    await expect(client.call({ to: sender, data: '0x12345678' })).rejects.toThrow()
    expect(internal.hits).toEqual([])
  })
})
