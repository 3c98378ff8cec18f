// Proposals over HTTP, and the time limits on every governance message (GOVERNANCE_LIMITS,
// TIMESTAMP_MAX_AGE_SECONDS, TIMESTAMP_MAX_SKEW_SECONDS), against a real chain (anvil with the demo DAO) and a
// real database (PGlite, or PostgreSQL under scripts/with-postgres.sh); the setup is the kit's governance bed.
import {
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  type ProposalMessage,
  proposalId,
  proposalListSchema,
  signGovernanceMessage,
  type VoteMessage,
} from '@guildhall/core'
import { eq } from 'drizzle-orm'
import { createPublicClient, createTestClient, type Hex, http, type PrivateKeyAccount } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  ben,
  cleo,
  createProposal,
  database,
  domain,
  finn,
  post,
  postVote,
  proposalMessage,
  rowsOf,
  setSnapshot,
  signedVote,
  snapshot,
  stranger,
  useGovernanceBed,
  votesOn,
} from '../../testbed/beds/governance.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { proposals } from '../platform/db/schema.ts'

useGovernanceBed()

describe('proposals', () => {
  test('behavior: a valid proposal → 201 with its digest as id; the same signed proposal again → 200, one row', async () => {
    const { response, message, id } = await createProposal(ada)
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({ id })
    const { signature } = await signGovernanceMessage(ada, domain, { type: 'Proposal', message })
    const replay = await post('/api/proposals', { message, signature })
    expect(replay.statusCode).toBe(200)
    expect((await database.db.select().from(proposals).where(eq(proposals.id, id))).length).toBe(1)
  })

  test('behavior: an author below the threshold at the snapshot → 403 with the reason, nothing stored', async () => {
    const before = await rowsOf(proposals)
    const { response } = await createProposal(finn)
    expect(response.statusCode).toBe(403)
    expect(response.json().message).toMatch(/had not delegated them/)
    expect(await rowsOf(proposals)).toBe(before)
  })

  test('behavior: rules other than the DAO’s → 422; a snapshot that is not a recent past block → 422', async () => {
    expect((await createProposal(ada, { quorum: '1' })).response.statusCode).toBe(422)
    const future = await createProposal(ada, { snapshot: snapshot + 100 })
    expect(future.response.statusCode).toBe(422)
    expect(future.response.json().error).toBe('bad_snapshot')
  })

  test('boundary: the snapshot is one of the last DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS (25) blocks before the head: 26 blocks old → 422 naming the bound, 25 → 201, the head itself → 422', async () => {
    const bound = DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: bound + 2 })
    const head = Number(
      await createPublicClient({ transport: http(anvil.url) }).getBlockNumber({ cacheTime: 0 }),
    )
    const stale = await createProposal(ada, { title: 'Stale snapshot', snapshot: head - bound - 1 })
    expect(stale.response.statusCode).toBe(422)
    expect(stale.response.json()).toEqual({
      error: 'bad_snapshot',
      message: `The snapshot block ${head - bound - 1} is ${bound + 1} blocks old; it must be one of the last ${bound} blocks before the chain's current block (${head}). Sign the proposal again to take a recent snapshot.`,
    })
    expect(await database.db.select().from(proposals).where(eq(proposals.id, stale.id))).toEqual([])
    const current = await createProposal(ada, { title: 'Current block', snapshot: head })
    expect(current.response.statusCode).toBe(422)
    expect(current.response.json()).toEqual({
      error: 'bad_snapshot',
      message: `The snapshot block ${head} is not yet final: it must be before the chain's current block (${head}).`,
    })
    const oldest = await createProposal(ada, { title: 'Oldest allowed snapshot', snapshot: head - bound })
    expect(oldest.response.statusCode).toBe(201)
    const [stored] = await database.db.select().from(proposals).where(eq(proposals.id, oldest.id))
    expect(stored?.snapshot).toBe(head - bound)
    // The tests after this one sign with the block before the head, as the new-proposal page does.
    setSnapshot(head - 1)
  })

  test('behavior: rules that are not whole numbers of token units → 400 with the field, never a 500', async () => {
    for (const overrides of [{ quorum: 'a thousand' }, { threshold: '1.5' }, { quorum: '' }]) {
      const message = { ...proposalMessage(ada), ...overrides }
      const response = await post('/api/proposals', { message, signature: `0x${'11'.repeat(65)}` })
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400)
      expect(response.json().message).toMatch(/(quorum|threshold): must be a whole number of token units/)
    }
  })

  test('behavior: signed by another key → 401, nothing stored', async () => {
    const message = proposalMessage(ada, { title: 'Forged' })
    const { signature } = await signGovernanceMessage(stranger, domain, { type: 'Proposal', message })
    const response = await post('/api/proposals', { message, signature })
    expect(response.statusCode).toBe(401)
    expect(
      await database.db
        .select()
        .from(proposals)
        .where(eq(proposals.id, proposalId(domain, message))),
    ).toEqual([])
  })

  test('behavior: a list filtered by state, and a detail page with its tally', async () => {
    const { id } = await createProposal(ada, { title: 'Listed' })
    const pending = await createProposal(ada, {
      title: 'Later',
      start: nowSeconds() + 3600,
      end: nowSeconds() + 7200,
    })
    // The answers are the shapes packages/core declares and the web app validates.
    const active = proposalListSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/proposals?state=active' })).json(),
    )
    expect(active.proposals.map((p: { id: string }) => p.id)).toContain(id)
    expect(active.proposals.map((p: { id: string }) => p.id)).not.toContain(pending.id)
    const detail = (await app.inject({ method: 'GET', url: `/api/proposals/${id}` })).json()
    expect(detail).toMatchObject({
      id,
      title: 'Listed',
      state: 'active',
      tally: { outcome: 'no-quorum', voters: 0 },
    })
    expect((await app.inject({ method: 'GET', url: '/api/proposals?state=open' })).statusCode).toBe(400)
  })
})

describe('time limits (GOVERNANCE_LIMITS, TIMESTAMP_MAX_AGE_SECONDS, TIMESTAMP_MAX_SKEW_SECONDS)', () => {
  const DAY = 24 * 3600
  let proposal: Hex
  let proposalStart: number
  let longRunning: Hex
  beforeAll(async () => {
    const now = nowSeconds()
    proposalStart = now - 3600
    proposal = (
      await createProposal(ada, {
        title: 'Started an hour ago',
        start: proposalStart,
        timestamp: proposalStart - 60,
      })
    ).id
    // Started 7 days ago, so a vote may be 6 days old without predating the start.
    longRunning = (
      await createProposal(ada, {
        title: 'Long running',
        start: now - 7 * DAY,
        end: now + 3600,
        timestamp: now - 60,
      })
    ).id
  })

  interface Sent {
    response: Awaited<ReturnType<typeof post>>
    stored: () => Promise<boolean>
  }
  /** A proposal signed with these fields (from the time it is sent); `stored` says whether it was kept. */
  const propose =
    (title: string, fields: (now: number) => Partial<ProposalMessage>) => async (): Promise<Sent> => {
      const { response, id } = await createProposal(ada, { title, ...fields(nowSeconds()) })
      const stored = async () =>
        (await database.db.select().from(proposals).where(eq(proposals.id, id))).length > 0
      return { response, stored }
    }
  /** A vote on one of the two proposals above; `stored` says whether the proposal gained a vote. */
  const vote =
    (voter: PrivateKeyAccount, on: () => Hex, fields: (now: number) => Partial<VoteMessage>) =>
    async (): Promise<Sent> => {
      const before = await votesOn(on())
      const response = await postVote(
        `/api/proposals/${on()}/votes`,
        await signedVote(voter, on(), fields(nowSeconds())),
      )
      const stored = async () => (await votesOn(on())) > before
      return { response, stored }
    }
  const tooFarAhead = {
    status: 400,
    body: {
      error: 'bad_request',
      message: 'Invalid proposal:\n- message.start: A proposal may start at most 30 days after it is signed',
    },
  }
  const badTimestamp = (message: string) => ({ status: 422, body: { error: 'bad_timestamp', message } })

  // Each limit from both sides, in this order: just outside → refused naming the limit, nothing stored;
  // just inside → 201, stored.
  const cases: { name: string; send: () => Promise<Sent>; refused?: { status: number; body: unknown } }[] = [
    {
      name: 'a proposal starting 10 years after its signing',
      send: propose('Far ahead', (now) => ({
        start: now + 10 * 365 * DAY,
        end: now + 10 * 365 * DAY + 3600,
        timestamp: now,
      })),
      refused: tooFarAhead,
    },
    {
      name: 'a proposal starting 30 days and a second after its signing',
      send: propose('Far ahead', (now) => ({
        start: now + 30 * DAY + 1,
        end: now + 30 * DAY + 3601,
        timestamp: now,
      })),
      refused: tooFarAhead,
    },
    {
      name: 'a proposal starting 30 days after its signing',
      send: propose('Thirty days ahead', (now) => ({
        start: now + 30 * DAY,
        end: now + 30 * DAY + 3600,
        timestamp: now,
      })),
    },
    {
      name: 'a proposal signed over 6 days ago',
      send: propose('Stale', (now) => ({ timestamp: now - 6 * DAY - 60 })),
      refused: badTimestamp('This proposal was signed more than 6 days ago. Sign it again.'),
    },
    {
      name: 'a proposal dated over 5 minutes ahead',
      send: propose('Ahead', (now) => ({ timestamp: now + 5 * 60 + 60 })),
      refused: badTimestamp(
        "This proposal is dated more than 5 minutes ahead of the server's clock. Check your device clock.",
      ),
    },
    {
      name: 'a proposal signed just under 6 days ago',
      send: propose('Slow multisig', (now) => ({ timestamp: now - 6 * DAY + 60 })),
    },
    {
      name: 'a proposal dated just under 5 minutes ahead',
      send: propose('Fast clock', (now) => ({ timestamp: now + 5 * 60 - 60 })),
    },
    {
      name: 'a vote signed over 6 days ago',
      send: vote(
        ben,
        () => longRunning,
        (now) => ({ timestamp: now - 6 * DAY - 60 }),
      ),
      refused: badTimestamp('This vote was signed more than 6 days ago. Sign it again.'),
    },
    {
      name: 'a vote dated over 5 minutes ahead',
      send: vote(
        ben,
        () => longRunning,
        (now) => ({ timestamp: now + 5 * 60 + 60 }),
      ),
      refused: badTimestamp(
        "This vote is dated more than 5 minutes ahead of the server's clock. Check your device clock.",
      ),
    },
    {
      name: 'a vote signed over 5 minutes before the start',
      send: vote(
        ben,
        () => proposal,
        () => ({ timestamp: proposalStart - 5 * 60 - 60 }),
      ),
      refused: badTimestamp('This vote was signed before the voting period began. Sign it again.'),
    },
    {
      name: 'a vote signed just under 6 days ago',
      send: vote(
        ben,
        () => longRunning,
        (now) => ({ timestamp: now - 6 * DAY + 60 }),
      ),
    },
    {
      name: 'a vote dated just under 5 minutes ahead',
      send: vote(
        cleo,
        () => longRunning,
        (now) => ({ timestamp: now + 5 * 60 - 60 }),
      ),
    },
    {
      name: 'a vote signed just under 5 minutes before the start',
      send: vote(
        ben,
        () => proposal,
        () => ({ timestamp: proposalStart - 5 * 60 + 60 }),
      ),
    },
  ]
  for (const { name, send, refused } of cases) {
    test(`boundary: ${name} → ${refused ? `${refused.status} naming the limit, nothing stored` : '201'}`, async () => {
      const { response, stored } = await send()
      if (refused) {
        expect(response.statusCode).toBe(refused.status)
        expect(response.json()).toEqual(refused.body)
        expect(await stored()).toBe(false)
      } else {
        expect(response.statusCode).toBe(201)
        expect(await stored()).toBe(true)
      }
    })
  }
})
