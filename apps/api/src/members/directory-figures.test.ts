// The members directory's figures over HTTP against a real chain (anvil with the demo DAO) and a real database
// (PGlite, or PostgreSQL under scripts/with-postgres.sh): they equal the token's and a recount from the index,
// and stay in step through transfers, delegations, reorgs and the migrations' backfill.
import { readFileSync } from 'node:fs'
import type { ProposalMessage } from '@guildhall/core'
import { sql } from 'drizzle-orm'
import { createTestClient, getAddress, type Hex, http, type PrivateKeyAccount } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  allPages,
  anvil,
  app,
  chain,
  client,
  DAO_NAME,
  database,
  deployment,
  fromChain,
  mine,
  page,
  sync,
  useMembersBed,
} from '../../testbed/beds/members.ts'
import { delegate, demoAccount, transfer } from '../../testbed/demo-token.ts'
import { signInOnApp } from '../../testbed/sign-in.ts'
import { demoDomain, member, nowSeconds, signProposal, signVote } from '../../testbed/signers.ts'
import { ORIGIN, postJson } from '../../testbed/test-app.ts'
import { checkMemberStats } from '../member-stats/vote-moves.ts'
import { memberEligibilityCounted, memberStats, tokenIndexCursor } from '../platform/db/schema.ts'

// The demo DAO: Ada votes with her and Dev's tokens, Ben with his and Eve's; Finn, Gia and Hugo never
// delegated; Iris holds nothing.
const ada = member(1)
const ben = member(2)
const cleo = member(3)
const iris = member(9)

useMembersBed()

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

async function createProposal(author: PrivateKeyAccount, snapshot: number): Promise<Hex> {
  const now = nowSeconds()
  const fields: Partial<ProposalMessage> = { title: 'Plant an orchard', body: 'Apples.', end: now + 3600 }
  const { message, signature, id } = await signProposal(author, demoDomain(deployment), {
    snapshot,
    ...fields,
  })
  const response = await postJson(app, '/api/proposals', { message, signature })
  expect(response.statusCode, response.body).toBe(201)
  return id
}

async function vote(voter: PrivateKeyAccount, proposal: Hex, timestamp: number): Promise<number> {
  const { message, signature } = await signVote(voter, demoDomain(deployment), { proposal, timestamp })
  const response = await postJson(app, `/api/proposals/${proposal}/votes`, { message, signature })
  return response.statusCode
}

const signIn = (account: PrivateKeyAccount) =>
  signInOnApp(app, account, { origin: ORIGIN, daoName: DAO_NAME })
