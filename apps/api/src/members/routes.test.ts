// The members directory over HTTP against a real chain (anvil with the demo DAO) and a real database (PGlite,
// or PostgreSQL under scripts/with-postgres.sh): its figures equal the token's and a recount from the index,
// its orders, search and pages, and what it refuses.
import { readFileSync } from 'node:fs'
import {
  BASIC_CHOICES,
  buildSignInMessage,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type MemberList,
  memberListSchema,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  signInStatement,
  type VoteMessage,
  voteTypedData,
} from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createTestClient,
  getAddress,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  jsonHeaders,
  member,
  nowSeconds,
  ORIGIN,
  postJson,
  startTestbed,
  stopTestbed,
  testApp,
} from '../../testbed/app.ts'
import { delegate, demoAccount, transfer } from '../../testbed/token-index.ts'
import { checkMemberStats } from '../member-stats/vote-moves.ts'
import {
  memberEligibilityCounted,
  memberStats,
  nameProfiles,
  tokenIndexCursor,
} from '../platform/db/schema.ts'
import type { TestDatabase } from '../platform/db/test-database.ts'
import { TokenIndex } from '../token/token-index.ts'

const DAO_NAME = 'Guildhall Members Test DAO'
// The demo DAO: Ada votes with her and Dev's tokens, Ben with his and Eve's; Finn, Gia and Hugo never
// delegated; Iris holds nothing.
const ada = member(1)
const ben = member(2)
const cleo = member(3)
const iris = member(9)

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let app: FastifyInstance
let index: TokenIndex
let client: PublicClient
let chain: { client: PublicClient; url: string; token: Address }

const get = async (query: string) => app.inject({ method: 'GET', url: `/api/members${query}` })
const page = async (query: string): Promise<MemberList> => {
  const response = await get(query)
  expect(response.statusCode, response.body).toBe(200)
  return memberListSchema.parse(response.json())
}
/** Every page of `query`, `between` running after each. */
async function allPages(query: string, between?: (page: number) => Promise<void>) {
  const seen: MemberList['members'] = []
  let next: string | null = null
  for (let n = 0; n < 50; n++) {
    const body = await page(`${query}${next ? `&cursor=${next}` : ''}`)
    seen.push(...body.members)
    await between?.(n)
    next = body.next
    if (!next) return seen
  }
  throw new Error('more pages than members')
}

const mine = (blocks = 1) => createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks })
const sync = async () => {
  await index.syncOnce()
  expect(await checkMemberStats(database.db)).toMatchObject({ mismatches: [] })
}

beforeAll(async () => {
  ;({ anvil, deployment, database } = await startTestbed())
  app = await testApp(
    { anvil, deployment, database },
    { env: { DAO_NAME, TOKEN_INDEX_CONFIRMATIONS: '0', AUTH_RATE_LIMIT_PER_MINUTE: '100000' } },
  )
  client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  chain = { client, url: anvil.url, token: deployment.token }
  index = new TokenIndex({
    db: database.db,
    client,
    chainId: LOCAL_CHAIN_ID,
    token: deployment.token,
    fromBlock: deployment.deployBlock,
    confirmations: 0,
    // Participation counted a few members per transaction: several chunks per proposal (ADR 033).
    eligibilityChunk: 2,
  })
  await sync()
}, 60_000)

afterAll(() => stopTestbed({ anvil, database }, app))

/** Each demo account's figures from the token itself, at the head. */
async function fromChain(address: Address) {
  const token = { address: deployment.token, abi: governanceTokenAbi } as const
  const [votes, balance, delegatee] = await Promise.all([
    client.readContract({ ...token, functionName: 'getVotes', args: [address] }),
    client.readContract({ ...token, functionName: 'balanceOf', args: [address] }),
    client.readContract({ ...token, functionName: 'delegates', args: [address] }),
  ])
  return {
    votes: String(votes),
    balance: String(balance),
    delegate: /^0x0+$/.test(delegatee) ? null : delegatee,
  }
}

describe('the figures', () => {
  test('behavior: every holder and delegate is listed with the token’s votes, balance and delegate; Ada and Ben each have one delegator; shares add up to the whole', async () => {
    const all = await allPages('?limit=100')
    const holders = deployment.members.filter((m) => m.name !== 'Iris').map((m) => getAddress(m.address))
    for (const address of holders) {
      const listed = all.find((row) => row.address === address)
      expect(listed, address).toMatchObject(await fromChain(address))
    }
    expect(all.find((row) => row.address === ada.address)?.delegators).toBe(1)
    expect(all.find((row) => row.address === ben.address)?.delegators).toBe(1)
    expect(all.find((row) => row.address === cleo.address)?.delegators).toBe(0)
    const body = await page('?limit=100')
    expect(BigInt(body.totalVotes)).toBe(all.reduce((sum, row) => sum + BigInt(row.votes), 0n))
    expect(body.blockNumber).toBe(Number(await client.getBlockNumber({ cacheTime: 0 })))
    const shares = all.reduce((sum, row) => sum + row.share, 0)
    expect(shares).toBeGreaterThan(0.9999)
    expect(shares).toBeLessThanOrEqual(1)
  })

  test('behavior: a member who signs in without tokens gets no row and is not listed; a search by their full address and their page still find them, with nothing', async () => {
    const nothing = {
      address: iris.address,
      votes: '0',
      share: 0,
      balance: '0',
      delegate: null,
      delegators: 0,
      votesCast: 0,
      eligibleProposals: 0,
      participation: null,
      lastVoteAt: null,
    }
    const everyone = await allPages('?limit=100')
    expect((await page(`?q=${iris.address}`)).members).toEqual([nothing])
    await signIn(iris)
    expect(await allPages('?limit=100')).toEqual(everyone)
    expect(everyone.map((row) => row.address)).not.toContain(iris.address)
    // The start of her address lists nobody; the whole of it, in any case, finds her.
    expect((await page(`?q=${iris.address.slice(0, 41)}`)).members).toEqual([])
    expect((await page(`?q=${iris.address}`)).members).toEqual([nothing])
    expect((await page(`?q=${iris.address.toLowerCase()}&sort=delegators`)).members).toEqual([nothing])
    const profile = await app.inject({ method: 'GET', url: `/api/members/${iris.address}` })
    expect(profile.json()).toMatchObject({ ...nothing, listed: false })
    expect(
      await database.db.select().from(memberStats).where(sql`${memberStats.address} = ${iris.address}`),
    ).toEqual([])
    expect(await checkMemberStats(database.db)).toMatchObject({ mismatches: [] })
  })

  test('behavior: an account the index knows that holds nothing (tokens sent away) is not listed but is found by its full address with its figures; tokens list it again', async () => {
    const finn = member(6)
    await transfer(chain, 6, demoAccount(7), '50')
    await sync()
    expect((await allPages('?limit=100')).map((row) => row.address)).not.toContain(finn.address)
    expect((await page(`?q=${finn.address}`)).members).toMatchObject([
      { address: finn.address, balance: '0', votes: '0', delegators: 0, votesCast: 0 },
    ])
    const profile = await app.inject({ method: 'GET', url: `/api/members/${finn.address}` })
    expect(profile.json()).toMatchObject({ address: finn.address, balance: '0', listed: false })
    await transfer(chain, 7, finn.address, '50')
    await sync()
    expect((await allPages('?limit=100')).map((row) => row.address)).toContain(finn.address)
    expect((await app.inject({ method: 'GET', url: `/api/members/${finn.address}` })).json()).toMatchObject({
      balance: '50000000000000000000',
      listed: true,
    })
  })

  test('behavior: participation counts a proposal for the members with power at its snapshot once the index passes it; a vote counts once, a re-vote moves only the last vote', async () => {
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }))
    await mine(2)
    const id = await createProposal(ada, head)
    await sync()
    const before = await page('?sort=participation&limit=100')
    const eligible = before.members.filter((row) => row.eligibleProposals === 1).map((row) => row.address)
    expect(eligible.sort()).toEqual([ada.address, ben.address, cleo.address].sort())
    const firstAt = nowSeconds() - 20
    expect(await vote(ada, id, firstAt)).toBe(201)
    expect(await vote(ada, id, firstAt + 10)).toBe(201)
    const after = await page('?sort=participation&limit=100')
    expect(after.members[0]).toMatchObject({
      address: ada.address,
      votesCast: 1,
      eligibleProposals: 1,
      participation: 1,
      lastVoteAt: firstAt + 10,
    })
    expect(after.members.find((row) => row.address === ben.address)).toMatchObject({
      votesCast: 0,
      participation: 0,
    })
    // Members who could vote on nothing come after those who could and did not, each tie by power.
    const keys = after.members.map((row) => [row.participation ?? 0, BigInt(row.votes)] as const)
    for (let i = 1; i < keys.length; i++) {
      const [p0, v0] = keys[i - 1] as (typeof keys)[number]
      const [p1, v1] = keys[i] as (typeof keys)[number]
      expect(p0 > p1 || (p0 === p1 && v0 >= v1)).toBe(true)
    }
    expect(await checkMemberStats(database.db)).toMatchObject({ mismatches: [] })
  })
})

describe('orders, search and pages', () => {
  test('behavior: by power, by delegators, by participation: each page in its order, the address breaking ties, every member once', async () => {
    const everyone = (await allPages('?limit=100')).map((row) => row.address).sort()
    for (const sort of ['power', 'delegators', 'participation'] as const) {
      const rows = await allPages(`?sort=${sort}&limit=2`)
      expect(rows.map((row) => row.address).sort(), sort).toEqual(everyone)
      const key = (row: MemberList['members'][number]) => {
        const votes = BigInt(row.votes).toString().padStart(80, '0')
        const first =
          sort === 'power'
            ? ''
            : String(
                sort === 'delegators' ? row.delegators : Math.round((row.participation ?? 0) * 1e6),
              ).padStart(10, '0')
        // Ties by address are in the database's collation, which need not be JavaScript's order.
        return `${first}:${votes}`
      }
      const keys = rows.map(key)
      expect(keys, sort).toEqual([...keys].sort().reverse())
    }
    const byDelegators = await page('?sort=delegators&limit=2')
    expect(byDelegators.members.map((row) => row.address)).toEqual([ada.address, ben.address])
  })

  test('behavior: search by the start of an address in any case; "0x" is everyone', async () => {
    const prefix = ben.address.slice(0, 7).toUpperCase().replace('0X', '0x')
    const found = await page(`?q=${prefix}`)
    expect(found.members.map((row) => row.address)).toContain(ben.address)
    expect(found.members.every((row) => row.address.toLowerCase().startsWith(prefix.toLowerCase()))).toBe(
      true,
    )
    expect((await page(`?q=${ben.address.toLowerCase()}`)).members.map((row) => row.address)).toEqual([
      ben.address,
    ])
    expect((await allPages('?q=0x&limit=100')).length).toBe((await allPages('?limit=100')).length)
  })

  test('behavior: search by the start of a name in any case or by the full name; a reverse record whose forward check failed, a name of no member and an unnamed member are not found; pages under a name search keep their order', async () => {
    const resolvedAt = new Date()
    const profile = (
      address: Address,
      name: string | null,
      expiresAt = new Date(Date.now() + 3_600_000),
    ) => ({
      address,
      name,
      avatarRecord: null,
      avatarUrl: null,
      resolvedAt,
      expiresAt,
      requestedAt: null,
    })
    const [dev, eve, finn, gia] = [member(4), member(5), member(6), member(7)]
    const stranger = privateKeyToAccount(generatePrivateKey())
    // As the name refresher stores them: Eve's reverse record claims ada.eth, which resolves to Ada, so
    // Eve has no name; Gia's name expired and waits for its refresh, still answered meanwhile.
    await database.db
      .insert(nameProfiles)
      .values([
        profile(ada.address, 'ada.eth'),
        profile(ben.address, 'ben.eth'),
        profile(cleo.address, 'adalbert.eth'),
        profile(dev.address, 'ada-lovelace.eth'),
        profile(eve.address, null),
        profile(finn.address, 'finn.eth'),
        profile(gia.address, 'adam.eth', new Date(Date.now() - 60_000)),
        profile(stranger.address, 'adaline.eth'),
      ])
    try {
      const found = async (q: string) =>
        (await allPages(`?q=${encodeURIComponent(q)}&limit=100`)).map((row) => row.address).sort()
      expect(await found('ada.eth')).toEqual([ada.address])
      expect(await found('  ADA.eth ')).toEqual([ada.address])
      expect(await found('ada')).toEqual([ada.address, cleo.address, dev.address, gia.address].sort())
      expect(await found('ada-')).toEqual([dev.address])
      expect(await found('finn.eth')).toEqual([finn.address])
      // A LIKE wildcard in the search matches only itself.
      expect(await found('ada_')).toEqual([])
      expect(await found('eve')).toEqual([])
      expect(await found('hugo')).toEqual([])

      for (const sort of ['power', 'delegators', 'participation']) {
        const whole = (await page(`?q=ada&sort=${sort}&limit=100`)).members.map((row) => row.address)
        expect(whole, sort).toHaveLength(4)
        const paged = (await allPages(`?q=ada&sort=${sort}&limit=1`)).map((row) => row.address)
        expect(paged, sort).toEqual(whole)
      }
    } finally {
      await database.db.delete(nameProfiles)
    }
  })

  test('behavior: pages stay whole while the directory changes: every member whose figures stay is seen once; one seen before their power fell shows again with the new figures; a newcomer above the cursor is not inserted', async () => {
    const newcomer = privateKeyToAccount(generatePrivateKey())
    const before = (await allPages('?limit=100')).map((row) => row.address)
    const seen = await allPages('?sort=power&limit=2', async (n) => {
      if (n !== 0) return
      // Between the first and second page: Ada (on the first) delegates her tokens to a newcomer, who now
      // has the most power, and her own falls to Dev's.
      await delegate(chain, 1, newcomer.address)
      await sync()
    })
    const addresses = seen.map((row) => row.address)
    for (const address of before.filter((address) => address !== ada.address))
      expect(
        addresses.filter((seenAddress) => seenAddress === address),
        address,
      ).toHaveLength(1)
    expect(seen.filter((row) => row.address === ada.address).map((row) => row.votes)).toEqual([
      '1250000000000000000000',
      '250000000000000000000',
    ])
    expect(addresses).not.toContain(newcomer.address)
    expect((await page('?limit=1')).members[0]?.address).toBe(newcomer.address)
  })

  test('behavior: a bad sort, a forged cursor, a cursor of another order, a page over 100, an overlong search or one with characters no address or name has → 400 with a sentence, never a 500', async () => {
    const first = await page('?sort=power&limit=1')
    for (const query of [
      '?sort=name',
      '?cursor=bm90LWEtY3Vyc29y',
      `?sort=delegators&cursor=${first.next}`,
      `?cursor=${Buffer.from("power:1:0x' or 1=1 --").toString('base64url')}`,
      `?cursor=${Buffer.from(`power:${'9'.repeat(79)}:${ada.address}`).toString('base64url')}`,
      '?limit=101',
      '?limit=0',
      `?q=${'a'.repeat(65)}`,
      '?q=',
      '?q=ada%25',
      '?q=ada%20eth',
      `?q=${encodeURIComponent("ada' or 1=1")}`,
      '?q=0x12%5C',
      '?page=2',
    ]) {
      const response = await get(query)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().message, query).toMatch(/\w+ \w+/)
    }
    expect((await get(`?sort=delegators&cursor=${first.next}`)).json().error).toBe('bad_cursor')
  })
})

describe('keeping in step', () => {
  test('property: after transfers, delegations and a reorg that replaces them, every row equals the token and a recount from the index', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
    const fork = await test.snapshot()
    await transfer(chain, 3, demoAccount(6), '100')
    await delegate(chain, 6, ben.address)
    await delegate(chain, 1, cleo.address)
    await sync()
    expect((await page(`?q=${cleo.address}`)).members[0]).toMatchObject({ delegators: 1 })
    // The chain forgets those blocks and takes others: the index rewinds and the rows are rebuilt.
    await test.revert({ id: fork })
    await transfer(chain, 5, demoAccount(7), '50')
    await delegate(chain, 7, ada.address)
    await mine(4)
    await sync()
    for (const account of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const address = demoAccount(account)
      expect((await page(`?q=${address}`)).members[0], address).toMatchObject(await fromChain(address))
    }
    expect((await page(`?q=${cleo.address}`)).members[0]).toMatchObject({ delegators: 0 })
    // Gia now holds tokens and delegates to Ada, beside Dev.
    expect((await page(`?q=${ada.address}`)).members[0]).toMatchObject({ delegators: 2 })
    const [cursor] = await database.db.select().from(tokenIndexCursor)
    const sum = await database.db.execute<{ sum: string }>(
      sql`select sum(votes)::text as sum from member_stats`,
    )
    expect(String(cursor?.totalVotes)).toBe(sum.rows[0]?.sum)
  })

  test('behavior: the migrations’ backfill, then the removal of rows only a sign-in made, compute the same rows as the index and the votes moved them (a database from before the directory)', async () => {
    const before = await database.db.select().from(memberStats).orderBy(memberStats.address)
    const counted = await database.db.select().from(memberEligibilityCounted)
    expect(before.some((row) => row.votesCast > 0 && row.eligibleProposals > 0 && row.delegators > 0)).toBe(
      true,
    )
    expect(counted.length).toBeGreaterThan(0)
    const [cursorBefore] = await database.db.select().from(tokenIndexCursor)
    const statements = (file: string) =>
      readFileSync(new URL(`../../drizzle/${file}`, import.meta.url), 'utf8')
        .split('--> statement-breakpoint')
        .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    const backfill = statements('0008_member_directory.sql').filter((statement) =>
      /^(INSERT INTO "member_|UPDATE "token_index_cursor")/.test(statement),
    )
    expect(backfill).toHaveLength(3)
    // The backfill counted signed-in members (Iris signed in above); the migration that stopped sign-in from
    // adding members deletes the rows only a sign-in made.
    const signInRows = statements('0013_members_listed_by_holdings.sql').filter((statement) =>
      statement.startsWith('DELETE FROM "member_stats"'),
    )
    expect(signInRows).toHaveLength(1)
    await database.db.transaction(async (tx) => {
      await tx.delete(memberStats)
      await tx.delete(memberEligibilityCounted)
      await tx.update(tokenIndexCursor).set({ totalVotes: 0n })
      for (const statement of backfill) await tx.execute(sql.raw(statement))
      expect(
        (await tx.select().from(memberStats).where(sql`${memberStats.address} = ${iris.address}`)).length,
      ).toBe(1)
      for (const statement of signInRows) await tx.execute(sql.raw(statement))
    })
    expect(await database.db.select().from(memberStats).orderBy(memberStats.address)).toEqual(before)
    expect(await database.db.select().from(memberEligibilityCounted)).toEqual(counted)
    expect((await database.db.select().from(tokenIndexCursor))[0]?.totalVotes).toBe(cursorBefore?.totalVotes)
  })
})

const domain = () => governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })

async function createProposal(author: PrivateKeyAccount, snapshot: number): Promise<Hex> {
  const now = nowSeconds()
  const message: ProposalMessage = {
    author: author.address,
    title: 'Plant an orchard',
    body: 'Apples.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: now - 60,
    end: now + 3600,
    snapshot,
    quorum: '1000000000000000000000',
    threshold: '1000000000000000000',
    abstainCountsToQuorum: true,
    timestamp: now - 30,
  }
  const signature = await author.signTypedData(proposalTypedData(domain(), message))
  const response = await postJson(app, '/api/proposals', { message, signature })
  expect(response.statusCode, response.body).toBe(201)
  return proposalId(domain(), message)
}

async function vote(voter: PrivateKeyAccount, proposal: Hex, timestamp: number): Promise<number> {
  const message: VoteMessage = {
    voter: voter.address,
    proposal,
    choices: [1],
    reason: '',
    timestamp,
  }
  const signature = await voter.signTypedData(voteTypedData(domain(), message))
  const response = await postJson(app, `/api/proposals/${proposal}/votes`, { message, signature })
  return response.statusCode
}

async function signIn(account: PrivateKeyAccount) {
  const nonce = await app.inject({ method: 'POST', url: '/api/auth/nonce', headers: { origin: ORIGIN } })
  const preauth = nonce.cookies.find((c) => c.name === 'guildhall_preauth')
  const message = buildSignInMessage({
    address: account.address,
    chainId: LOCAL_CHAIN_ID,
    nonce: nonce.json().nonce,
    domain: new URL(ORIGIN).host,
    origin: ORIGIN,
    statement: signInStatement(DAO_NAME),
    issuedAt: new Date(),
  })
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/verify',
    headers: { ...jsonHeaders, cookie: `${preauth?.name}=${preauth?.value}` },
    payload: JSON.stringify({ message, signature: await account.signMessage({ message }) }),
  })
  expect(verify.statusCode, verify.body).toBe(200)
}
