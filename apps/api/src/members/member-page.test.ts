// A member's page over HTTP against the demo DAO on a real chain (anvil), the local name service and a real
// database (PGlite, or PostgreSQL under scripts/with-postgres.sh): the member's figures, name and statement,
// their votes, proposals, delegators and voting power over time, pages that stay whole, and what it refuses.
import {
  type MemberProfile,
  memberDelegatorListSchema,
  memberListSchema,
  memberProfileSchema,
  memberProposalListSchema,
  memberVoteListSchema,
  powerHistorySchema,
} from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type NameService, startNameService } from '@guildhall/devchain/name-service'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, createTestClient, http, type PublicClient, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { delegate, demoTokenIndex, transfer } from '../../testbed/demo-token.ts'
import { member as account, demoDomain, signStatement } from '../../testbed/signers.ts'
import { postJson, testApp, testSettings } from '../../testbed/test-app.ts'
import { seedDemoDatabase } from '../demo/governance-seed.ts'
import { nameServiceEnv, startDemoChain } from '../demo/local-chain.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import type { TokenIndex } from '../token/token-index.ts'

// The demo DAO: Ada votes with her and Dev's tokens, Ben with his and Eve's; Cleo with her own; Iris holds
// nothing. Ada wrote two of the seeded proposals and voted on three.
type Account = ReturnType<typeof account>
const [ada, ben, cleo, dev, eve, finn] = [1, 2, 3, 4, 5, 6].map(account) as [
  Account,
  Account,
  Account,
  Account,
  Account,
  Account,
]

let anvil: AnvilInstance
let deployment: DemoDeployment
let nameService: NameService
let database: TestDatabase
let app: FastifyInstance
let client: PublicClient
let index: TokenIndex

async function get<S extends z.core.$ZodType>(path: string, schema: S): Promise<z.infer<S>> {
  const response = await app.inject({ method: 'GET', url: `/api/members/${path}` })
  expect(response.statusCode, `${path}: ${response.body}`).toBe(200)
  return z.parse(schema, response.json())
}
const directoryPage = async (query: string) =>
  memberListSchema.parse((await app.inject({ method: 'GET', url: `/api/members${query}` })).json())
const refused = (path: string) => app.inject({ method: 'GET', url: `/api/members/${path}` })

/** Every page of a member's list, `limit` rows at a time. */
async function allPages<S extends z.core.$ZodType<{ next: string | null }>>(
  path: string,
  schema: S,
  limit: number,
) {
  const pages: z.infer<S>[] = []
  let next: string | null = null
  for (let n = 0; n < 100; n++) {
    const body: z.infer<S> = await get(`${path}?limit=${limit}${next ? `&cursor=${next}` : ''}`, schema)
    pages.push(body)
    next = body.next
    if (!next) return pages
  }
  throw new Error('more pages than rows')
}

/** Ada's page once her name is resolved (the leader's refresher runs within moments). */
async function resolvedProfile(address: string): Promise<MemberProfile> {
  const from = Date.now()
  for (;;) {
    const body = await get(address, memberProfileSchema)
    if (!body.profile.pending) return body
    if (Date.now() - from > 15_000) throw new Error('name still pending after 15 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const sync = () => index.syncOnce()
const chain = () => ({ client, url: anvil.url, token: deployment.token })

beforeAll(async () => {
  ;[{ anvil, deployment }, nameService] = await Promise.all([startDemoChain(), startNameService()])
  database = await testDatabase()
  const env = { ...nameServiceEnv(nameService), TOKEN_INDEX_CONFIRMATIONS: '0' }
  expect(await seedDemoDatabase(testSettings({ rpcUrl: anvil.url, deployment, env }), database)).toBe(8)
  app = await testApp({ anvil, deployment, database }, { env })
  client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  index = demoTokenIndex({ db: database.db, client, deployment })
  await sync()
}, 90_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await Promise.all([anvil?.stop(), nameService?.stop()])
})

describe('the member', () => {
  test('behavior: a member’s figures are their directory row, with their name, avatar and no statement yet; any case of the address is the same member', async () => {
    const profile = await resolvedProfile(ada.address.toLowerCase())
    const { members } = await directoryPage(`?q=${ada.address}`)
    const directory = await directoryPage('?limit=1')
    expect(profile).toEqual({
      ...members[0],
      listed: true,
      totalVotes: directory.totalVotes,
      blockNumber: directory.blockNumber,
      profile: {
        address: ada.address,
        name: 'ada.eth',
        avatarUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/ipfs\//),
        pending: false,
      },
      avatarProblem: null,
      statement: null,
    })
    expect(profile).toMatchObject({ votes: parseEther('1250').toString(), delegators: 1, votesCast: 4 })
  })

  test('behavior: a name whose avatar record the gateway cannot serve (dev.eth) comes with viem’s “Unable to resolve ENS avatar URI …” for that record; one with an image, none', async () => {
    const profile = await resolvedProfile(dev.address)
    expect(profile.profile).toMatchObject({ name: 'dev.eth', avatarUrl: null, pending: false })
    const record = nameService.deployment.members.find((entry) => entry.member === 'Dev')?.avatar
    expect(record).toMatch(/^ipfs:\/\//)
    expect(profile.avatarProblem).toBe(
      `Unable to resolve ENS avatar URI "${record}". The URI may be malformed, invalid, or does not respond with a valid image.`,
    )
    expect((await resolvedProfile(ada.address)).avatarProblem).toBeNull()
    expect((await resolvedProfile(eve.address)).avatarProblem).toBeNull()
  })

  test('behavior: an address the directory does not list answers zeros and `listed: false`, not a 404', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    expect(await get(stranger, memberProfileSchema)).toMatchObject({
      address: stranger,
      listed: false,
      votes: '0',
      share: 0,
      balance: '0',
      delegate: null,
      delegators: 0,
      votesCast: 0,
      participation: null,
      lastVoteAt: null,
      statement: null,
    })
  })

  test('behavior: a published statement comes with the member, the latest version', async () => {
    const domain = demoDomain(deployment)
    const now = Math.floor(Date.now() / 1000)
    for (const [offset, statement] of [
      [-20, 'Ben reads every proposal.'],
      [-10, 'Ben explains each vote.'],
    ] as const) {
      const { message, signature } = await signStatement(ben, domain, { statement, timestamp: now + offset })
      const response = await postJson(app, `/api/delegates/${ben.address}/statement`, { message, signature })
      expect(response.statusCode, response.body).toBe(201)
    }
    const body = await get(ben.address, memberProfileSchema)
    expect(body.statement?.message).toEqual({
      delegate: ben.address,
      statement: 'Ben explains each vote.',
      timestamp: now - 10,
    })
    const latest = await app.inject({ method: 'GET', url: `/api/delegates/${ben.address}/statement` })
    expect(body.statement).toEqual(latest.json())
  })

  test('behavior: a forward-checked name opens the same member, in any case, on every list; a name nobody has, or one whose reverse record lies (Eve claims ada.eth), is a 404 with a sentence', async () => {
    const byAddress = await resolvedProfile(ada.address)
    // Eve's reverse record says ada.eth, but ada.eth is Ada's: the refresher stores no name for Eve.
    expect((await resolvedProfile(eve.address)).profile.name).toBeNull()
    expect(await get('ada.eth', memberProfileSchema)).toEqual(byAddress)
    expect((await get('Ada.ETH', memberProfileSchema)).address).toBe(ada.address)
    expect(await get('ada.eth/votes', memberVoteListSchema)).toEqual(
      await get(`${ada.address}/votes`, memberVoteListSchema),
    )
    expect(await get('ada.eth/delegators', memberDelegatorListSchema)).toEqual(
      await get(`${ada.address}/delegators`, memberDelegatorListSchema),
    )
    for (const path of ['nobody.eth', 'nobody.eth/votes', 'nobody.eth/power']) {
      const response = await refused(path)
      expect(response.statusCode, path).toBe(404)
      expect(response.json()).toEqual({ error: 'unknown_member', message: 'No member is named nobody.eth.' })
    }
  })
})

describe('the lists', () => {
  test('behavior: her votes, newest first, with each proposal’s title, the choices’ labels, her power and reason; pages of one add up to the whole list', async () => {
    const { votes, next } = await get(`${ada.address}/votes`, memberVoteListSchema)
    expect(next).toBeNull()
    expect(
      votes.map(({ proposalTitle, choiceLabels, reason }) => ({ proposalTitle, choiceLabels, reason })),
    ).toEqual([
      {
        proposalTitle: 'Fund the documentation sprint (5,000 GHD)',
        choiceLabels: ['For'],
        reason: 'Newcomers get lost today.',
      },
      { proposalTitle: 'Which city hosts the next meetup?', choiceLabels: ['Nairobi'], reason: '' },
      {
        proposalTitle: 'Adopt the community code of conduct',
        choiceLabels: ['For'],
        reason: 'Long overdue.',
      },
      // A ranked-choice ballot: every choice, her first preference first.
      {
        proposalTitle: 'Which project gets this quarter’s community grant?',
        choiceLabels: [
          'Open-source tooling',
          'Translation of the docs',
          'Local meetups fund',
          'Accessibility audit',
        ],
        reason: 'Tooling helps every other project.',
      },
    ])
    expect(votes.map((vote) => vote.choices)).toEqual([[1], [2], [1], [3, 1, 2, 4]])
    expect(votes.every((vote) => vote.power === parseEther('1250').toString())).toBe(true)
    const times = votes.map((vote) => vote.timestamp)
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const paged = (await allPages(`${ada.address}/votes`, memberVoteListSchema, 1)).flatMap((p) => p.votes)
    expect(paged).toEqual(votes)
    expect((await get(`${finn.address}/votes`, memberVoteListSchema)).votes).toEqual([])
  })

  test('behavior: the proposals she wrote, latest start first, as the proposal list summarises them; pages of one add up', async () => {
    const { proposals, now } = await get(`${ada.address}/proposals`, memberProposalListSchema)
    expect(proposals.map((p) => [p.title, p.author, p.state])).toEqual([
      ['Fund the documentation sprint (5,000 GHD)', ada.address, 'active'],
      ['Adopt the community code of conduct', ada.address, 'final'],
    ])
    expect(now).toBeGreaterThan(0)
    const listed = await app.inject({ method: 'GET', url: '/api/proposals?limit=100' })
    for (const proposal of proposals) expect(listed.json().proposals).toContainEqual(proposal)
    const paged = await allPages(`${ada.address}/proposals`, memberProposalListSchema, 1)
    expect(paged.flatMap((p) => p.proposals)).toEqual(proposals)
    expect((await get(`${dev.address}/proposals`, memberProposalListSchema)).proposals).toEqual([])
  })

  test('behavior: who delegates to a member, most tokens first, the accounts `delegators` counts; she is not her own delegator; pages stay whole', async () => {
    expect(await get(`${ada.address}/delegators`, memberDelegatorListSchema)).toEqual({
      delegators: [{ address: dev.address, balance: parseEther('250').toString() }],
      next: null,
    })
    expect((await get(`${ben.address}/delegators`, memberDelegatorListSchema)).delegators).toEqual([
      { address: eve.address, balance: parseEther('100').toString() },
    ])
    expect((await get(`${cleo.address}/delegators`, memberDelegatorListSchema)).delegators).toEqual([])
    // Finn (50) and Gia (10) join Dev (250) behind Ada; Hugo (1) too.
    for (const account of [6, 7, 8]) await delegate(chain(), account, ada.address)
    await sync()
    const whole = await get(`${ada.address}/delegators`, memberDelegatorListSchema)
    expect(whole.delegators.map((row) => row.balance)).toEqual(
      ['250', '50', '10', '1'].map((amount) => parseEther(amount).toString()),
    )
    const pages = await allPages(`${ada.address}/delegators`, memberDelegatorListSchema, 1)
    expect(pages.flatMap((page) => page.delegators)).toEqual(whole.delegators)
    expect((await get(ada.address, memberProfileSchema)).delegators).toBe(4)
  })

  test('property: voting power over time ends at her current votes; with more changes than points it is sampled to at most that many, each point a real checkpoint of the token, dated with its block’s time', async () => {
    // Many changes: Finn, delegating to Ada, sends Iris (who never delegated) a token at a time.
    await delegate(chain(), 6, ada.address)
    for (let n = 0; n < 12; n++) await transfer(chain(), 6, account(9).address, '1')
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 1 })
    await sync()
    const profile = await get(ada.address, memberProfileSchema)
    const whole = await get(`${ada.address}/power`, powerHistorySchema)
    expect(whole.changes).toBeGreaterThan(12)
    expect(whole.points).toHaveLength(whole.changes)
    expect(whole.points.at(-1)?.votes).toBe(profile.votes)
    expect(whole.blockNumber).toBe(profile.blockNumber)
    for (const points of [2, 5, 7]) {
      const sampled = await get(`${ada.address}/power?points=${points}`, powerHistorySchema)
      expect(sampled.changes).toBe(whole.changes)
      expect(sampled.points.length, `points=${points}`).toBeLessThanOrEqual(points)
      expect(sampled.points.length).toBeGreaterThanOrEqual(2)
      expect(sampled.points.at(-1)).toEqual(whole.points.at(-1))
      const blocks = sampled.points.map((point) => point.block)
      expect(blocks).toEqual([...blocks].sort((a, b) => a - b))
      for (const point of sampled.points) expect(whole.points).toContainEqual(point)
      // Exactly the last change of each of `points` equal spans of blocks from the first change to the last.
      const first = whole.points[0]?.block ?? 0
      const width = Math.ceil(((whole.points.at(-1)?.block ?? 0) - first + 1) / points)
      const lastOfSpan = new Map(
        whole.points.map((point) => [Math.floor((point.block - first) / width), point]),
      )
      expect(sampled.points).toEqual([...lastOfSpan.values()])
    }
    const token = { address: deployment.token, abi: governanceTokenAbi } as const
    for (const point of whole.points) {
      const votes = await client.readContract({
        ...token,
        functionName: 'getPastVotes',
        args: [ada.address, BigInt(point.block)],
      })
      expect(String(votes), `block ${point.block}`).toBe(point.votes)
      const { timestamp } = await client.getBlock({ blockNumber: BigInt(point.block) })
      expect(point.time, `time of block ${point.block}`).toBe(Number(timestamp))
    }
    const indexed = await client.getBlock({ blockNumber: BigInt(whole.blockNumber ?? -1) })
    expect(whole.blockTime).toBe(Number(indexed.timestamp))
    expect(await get(`${account(9).address}/power`, powerHistorySchema)).toMatchObject({
      points: [],
      changes: 0,
    })
  })
})

describe('what it refuses', () => {
  test('behavior: a bad address or name, a forged cursor, another list’s cursor, a page of 0 or over 100, too few or too many points, an unknown parameter → 400 with a sentence', async () => {
    const votes = await get(`${ada.address}/votes?limit=1`, memberVoteListSchema)
    const delegators = await get(`${ada.address}/delegators?limit=1`, memberDelegatorListSchema)
    expect(votes.next).not.toBeNull()
    for (const path of [
      '0x1234',
      `0x${'g'.repeat(40)}`,
      'a..eth',
      '',
      `${ada.address}/votes?cursor=bm90LWEtY3Vyc29y`,
      `${ada.address}/votes?cursor=${delegators.next}`,
      `${ada.address}/delegators?cursor=${votes.next}`,
      `${ada.address}/proposals?cursor=${Buffer.from("1:0x' or 1=1 --").toString('base64url')}`,
      `${ada.address}/votes?limit=0`,
      `${ada.address}/delegators?limit=101`,
      `${ada.address}/proposals?page=2`,
      `${ada.address}/power?points=1`,
      `${ada.address}/power?points=201`,
      `${ada.address}?limit=1`,
    ]) {
      const response = await refused(path)
      expect(response.statusCode, path).toBe(400)
      expect(response.json().message, path).toMatch(/\w+ \w+/)
    }
  })
})
