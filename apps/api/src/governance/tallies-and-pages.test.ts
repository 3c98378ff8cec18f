// Stored tallies and the pages that read them over HTTP (reads cost a page, not the history), against a real
// chain (anvil with the demo DAO) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh);
// the setup is the kit's governance bed (testbed/beds/governance.ts).
import { readFileSync } from 'node:fs'
import {
  BASIC_CHOICES,
  countingVotes,
  PROPOSAL_STATES,
  type ProposalMessage,
  proposalListSchema,
  tally,
  tallyToJson,
  voteListSchema,
} from '@guildhall/core'
import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { Hex, PrivateKeyAccount } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  appOn,
  ben,
  cleo,
  createProposal,
  database,
  governanceDeps,
  postVote,
  rowsOf,
  signedVote,
  useGovernanceBed,
} from '../../testbed/beds/governance.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { ballots, proposals, proposalTallies, votes } from '../platform/db/schema.ts'
import { findProposal } from './proposals.ts'
import { proposalResult } from './results.ts'
import { tallyRules } from './tallies.ts'
import { checkTallies, recountTally } from './tally-check.ts'
import { castVote } from './votes.ts'

useGovernanceBed()

describe('stored tallies and pages (reads cost a page, not the history)', () => {
  const voters = [ada, ben, cleo]
  const kinds = [
    { kind: 'basic', choices: [...BASIC_CHOICES] },
    { kind: 'single-choice', choices: ['Oak', 'Ash', 'Elm'] },
    { kind: 'approval', choices: ['Oak', 'Ash', 'Elm'] },
  ] as const

  /** Every stored vote of a proposal, counted from scratch by core (what any recount does). */
  async function recountedFromStoredVotes(proposal: Hex, message: ProposalMessage) {
    const rows = await database.db.select().from(votes).where(eq(votes.proposalId, proposal))
    const counting = countingVotes(rows.map((row) => ({ ...row, voter: row.voter })))
    return tallyToJson(
      tally(
        tallyRules(message),
        [...counting.values()].map((row) => ({ choices: row.message.choices, power: row.power })),
      ),
    )
  }

  test('property: after any interleaving of votes and re-votes, sent concurrently, the stored tally equals a full recount', async () => {
    const vote = fc.record({
      voter: fc.integer({ min: 0, max: voters.length - 1 }),
      // A narrow window of seconds, so equal timestamps (the lower id wins) come up often.
      age: fc.integer({ min: 0, max: 6 }),
      choices: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
    })
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: kinds.length - 1 }),
        fc.array(vote, { minLength: 1, maxLength: 12 }),
        async (kindIndex, sequence) => {
          const { kind, choices } = kinds[kindIndex] as (typeof kinds)[number]
          run += 1
          const created = await createProposal(ada, {
            title: `Interleaving ${run}`,
            kind,
            choices: [...choices],
          })
          expect(created.response.statusCode).toBe(201)
          const now = nowSeconds()
          const signed = await Promise.all(
            sequence.map((step) =>
              signedVote(voters[step.voter] as PrivateKeyAccount, created.id, {
                timestamp: now - step.age,
                choices: kind === 'approval' ? step.choices : step.choices.slice(0, 1),
              }),
            ),
          )
          const statuses = (
            await Promise.all(signed.map((one) => postVote(`/api/proposals/${created.id}/votes`, one)))
          ).map((response) => response.statusCode)
          expect(
            statuses.every((status) => [200, 201, 409].includes(status)),
            String(statuses),
          ).toBe(true)
          const stored = (await app.inject({ method: 'GET', url: `/api/proposals/${created.id}` })).json()
          expect(stored.tally).toEqual(await recountedFromStoredVotes(created.id, created.message))
          expect(
            tallyToJson(await recountTally(database.db, created.id, tallyRules(created.message))),
          ).toEqual(stored.tally)
        },
      ),
      { numRuns: 12, seed: 20261126 },
    )
  }, 120_000)

  test('behavior: `npm run tallies:check` finds every stored tally equal to a recount, and names a proposal whose row was altered', async () => {
    const clean = await checkTallies(database.db)
    expect(clean.proposals).toBe(await rowsOf(proposals))
    expect(clean.mismatches).toEqual([])
    const [victim] = await database.db.select().from(proposalTallies).limit(1)
    if (!victim) throw new Error('no tally row')
    await database.db
      .update(proposalTallies)
      .set({ voters: victim.voters + 1 })
      .where(eq(proposalTallies.proposalId, victim.proposalId))
    try {
      const altered = await checkTallies(database.db)
      expect(altered.mismatches.map((mismatch) => mismatch.proposalId)).toEqual([victim.proposalId])
      expect(altered.mismatches[0]?.stored.voters).toBe(victim.voters + 1)
      expect(altered.mismatches[0]?.recounted.voters).toBe(victim.voters)
    } finally {
      await database.db
        .update(proposalTallies)
        .set({ voters: victim.voters })
        .where(eq(proposalTallies.proposalId, victim.proposalId))
    }
  })

  test('behavior: the migration’s backfill computes the same totals as the votes moved them (a database from before stored tallies)', async () => {
    const before = await database.db.select().from(proposalTallies).orderBy(proposalTallies.proposalId)
    expect(before.length).toBeGreaterThan(3)
    const migration = readFileSync(new URL('../../drizzle/0004_stored_tallies.sql', import.meta.url), 'utf8')
    const backfill = migration
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
      .filter((statement) => /^(UPDATE "ballots"|INSERT INTO "proposal_tallies")/.test(statement))
    expect(backfill).toHaveLength(2)
    await database.db.transaction(async (tx) => {
      await tx.delete(proposalTallies)
      await tx.execute(sql`update ballots set power = 0`)
      for (const statement of backfill) await tx.execute(sql.raw(statement))
    })
    const after = await database.db.select().from(proposalTallies).orderBy(proposalTallies.proposalId)
    expect(after).toEqual(before)
    const ballotRows = await database.db
      .select({ ballot: ballots.power, vote: votes.power })
      .from(ballots)
      .innerJoin(votes, eq(votes.id, ballots.voteId))
    expect(ballotRows.every((row) => row.ballot === row.vote)).toBe(true)
  })

  test('behavior: a detail read still running when a vote is stored is not shared with the reader who asks after the vote (ADR 025)', async () => {
    const deps = governanceDeps()
    const { id } = await createProposal(ada, { title: 'Read after a vote' })
    const proposal = await findProposal(deps, id)
    if (!proposal) throw new Error('no proposal')
    // A read of the totals that began before the vote and is still running.
    type Result = Awaited<ReturnType<typeof proposalResult>>
    let finishEarlyRead!: (result: Result) => void
    const early = deps.reads.shared(
      id,
      'tally',
      () => new Promise<Result>((done) => (finishEarlyRead = done)),
    )
    const before = await recountTally(database.db, id, tallyRules(proposal.message))
    expect(await castVote(deps, id, await signedVote(ben, id))).toMatchObject({ created: true })
    const after = await proposalResult(deps, proposal)
    expect(after.voters).toBe(before.voters + 1)
    finishEarlyRead(before)
    expect((await early).voters).toBe(before.voters)
  })

  describe('the votes list', () => {
    let id: Hex
    const list = async (query: string) =>
      app.inject({ method: 'GET', url: `/api/proposals/${id}/votes${query}` })
    const allPages = async (query: string, between?: (page: number) => Promise<void>) => {
      const seen: { voter: string; power: string; timestamp: number }[] = []
      let next: string | null = null
      for (let page = 0; page < 20; page += 1) {
        const response = await list(`${query}${next ? `&cursor=${next}` : ''}`)
        expect(response.statusCode).toBe(200)
        const body = voteListSchema.parse(response.json())
        seen.push(...body.votes)
        await between?.(page)
        next = body.next
        if (!next) return seen
      }
      throw new Error('More pages than votes')
    }

    beforeAll(async () => {
      id = (await createProposal(ada, { title: 'Paged', kind: 'approval', choices: ['Oak', 'Ash', 'Elm'] }))
        .id
      await postVote(
        `/api/proposals/${id}/votes`,
        await signedVote(ada, id, { choices: [1, 2], reason: 'Both' }),
      )
      await postVote(`/api/proposals/${id}/votes`, await signedVote(cleo, id, { choices: [3] }))
    })

    test('behavior: by power, one vote per page, while a new voter and a re-vote arrive: every vote once, in order', async () => {
      const seen = await allPages('?order=power&limit=1', async (page) => {
        if (page === 0) {
          await postVote(`/api/proposals/${id}/votes`, await signedVote(ben, id, { choices: [2] }))
          await postVote(
            `/api/proposals/${id}/votes`,
            await signedVote(cleo, id, { choices: [1], timestamp: nowSeconds() + 1 }),
          )
        }
      })
      expect(seen.map((vote) => vote.voter)).toEqual([ada.address, ben.address, cleo.address])
      expect(seen.map((vote) => vote.power)).toEqual([
        '1250000000000000000000',
        '850000000000000000000',
        '500000000000000000000',
      ])
    })

    test('behavior: by time, newest first, pages cover every counting vote once', async () => {
      const seen = await allPages('?order=time&limit=2')
      expect(new Set(seen.map((vote) => vote.voter)).size).toBe(3)
      expect(seen).toHaveLength(3)
      const times = seen.map((vote) => vote.timestamp)
      expect([...times].sort((a, b) => b - a)).toEqual(times)
    })

    test('behavior: filter by choice and search by the start of the voter’s address, in any case', async () => {
      const oak = voteListSchema.parse((await list('?choice=1')).json())
      expect(oak.votes.map((vote) => vote.voter).sort()).toEqual([ada.address, cleo.address].sort())
      const elm = voteListSchema.parse((await list('?choice=3')).json())
      expect(elm.votes).toEqual([])
      const prefix = ben.address.slice(0, 8).toUpperCase().replace('0X', '0x')
      const found = voteListSchema.parse((await list(`?voter=${prefix}`)).json())
      expect(found.votes.map((vote) => vote.voter)).toEqual([ben.address])
      expect(found.votes[0]).toMatchObject({ choices: [2], reason: '' })
    })

    test('behavior: a cursor from another order, a forged cursor, or a page over 100 → 400 with a sentence, never a 500', async () => {
      const first = voteListSchema.parse((await list('?order=power&limit=1')).json())
      for (const query of [
        `?order=time&cursor=${first.next}`,
        '?cursor=bm90LWEtY3Vyc29y',
        `?cursor=${Buffer.from("power:1:0x' or 1=1 --").toString('base64url')}`,
        '?limit=101',
        '?choice=0',
        '?voter=ada.eth',
        '?order=random',
      ]) {
        const response = await list(query)
        expect(response.statusCode, query).toBe(400)
        expect(response.json().message, query).toMatch(/\w+ \w+/)
      }
      expect((await list(`?order=time&cursor=${first.next}`)).json().error).toBe('bad_cursor')
    })
  })

  test('behavior: the proposal list pages by start and filters each state in SQL exactly as proposalState decides, at any clock', async () => {
    const base = nowSeconds()
    for (const [offset, duration] of [
      [600, 3600],
      [1200, 7200],
    ] as const) {
      await createProposal(ada, {
        title: `Later ${offset}`,
        start: base + offset,
        end: base + offset + duration,
      })
    }
    for (const clock of [base, base + 900, base + 3 * 3600 + 60, base + 3 * 3600 + 600, base + 86_400]) {
      const viewer = await appOn(anvil.url, {}, () => new Date(clock * 1000))
      try {
        const everything: { id: string; state: string; start: number }[] = []
        let next: string | null = null
        do {
          const query: string = `/api/proposals?limit=3${next ? `&cursor=${next}` : ''}`
          const page = proposalListSchema.parse((await viewer.inject({ method: 'GET', url: query })).json())
          everything.push(...page.proposals)
          next = page.next
        } while (next)
        expect(everything.length).toBe(await rowsOf(proposals))
        expect(new Set(everything.map((p) => p.id)).size).toBe(everything.length)
        expect(everything.map((p) => p.start)).toEqual(everything.map((p) => p.start).sort((a, b) => b - a))
        for (const state of PROPOSAL_STATES) {
          const page = proposalListSchema.parse(
            (await viewer.inject({ method: 'GET', url: `/api/proposals?state=${state}&limit=100` })).json(),
          )
          expect(
            page.proposals.map((p) => p.id),
            `${state} at ${clock}`,
          ).toEqual(everything.filter((p) => p.state === state).map((p) => p.id))
        }
      } finally {
        await viewer.close()
      }
    }
  })
})
