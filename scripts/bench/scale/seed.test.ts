import { ballots, governanceLog, memberStats, proposalTallies, votes } from '@guildhall/api/database'
import {
  castVote,
  type GovernanceDeps,
  ProposalReads,
  recountTally,
  silentObserver,
  storedTally,
  type TokenIndex,
  tallyRules,
} from '@guildhall/api/operations'
import { demoDomain, type TestDatabase, testDatabase } from '@guildhall/api/testbed'
import {
  DEFAULT_GOVERNANCE_RULES,
  type LogEntry,
  logChainProblem,
  proposalMessageSchema,
  proposalState,
  voteMessageSchema,
} from '@guildhall/core'
import { asc, eq } from 'drizzle-orm'
import type { Hex, PublicClient } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { scaleProposalMessage, signScaleProposal, signScaleVotes } from '../harness/holder-votes.ts'
import { seedProposalVotes } from '../harness/vote-seed.ts'

const VOTERS = 24
const domain = demoDomain({ token: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
const opened: TestDatabase[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

/** Everything a vote leaves in the database, without the columns the database's clock fills. */
async function governanceRows(database: TestDatabase) {
  const { db } = database
  const stored = await db.select().from(votes).orderBy(asc(votes.id))
  return {
    votes: stored.map(({ receivedAt: _, ...row }) => row),
    ballots: await db.select().from(ballots).orderBy(asc(ballots.voter)),
    tallies: await db.select().from(proposalTallies),
    members: await db.select().from(memberStats).orderBy(asc(memberStats.address)),
    log: (await db.select().from(governanceLog).orderBy(asc(governanceLog.seq))).map(
      ({ createdAt: _, ...row }) => row,
    ),
  }
}

test('behavior: the bulk seed leaves exactly what the vote path leaves for the same votes, and it recounts and verifies', async () => {
  const proposal = await signScaleProposal(domain, scaleProposalMessage(7))
  const signed = await signScaleVotes(domain, proposal, 0, VOTERS)
  const seeded = await testDatabase()
  const voted = await testDatabase()
  opened.push(seeded, voted)

  await seedProposalVotes(seeded, proposal, signed)

  // The same proposal, then the same votes one by one through castVote, power from a stand-in index.
  await seedProposalVotes(voted, proposal, [])
  const power = new Map(signed.map((vote) => [vote.message.voter, vote.power]))
  const deps: GovernanceDeps = {
    database: voted,
    // Never asked: every signature is an EOA's, recovered locally.
    client: {} as PublicClient,
    tokenIndex: {
      votingPower: async (account: Hex) => ({
        votes: power.get(account) ?? 0n,
        source: 'index',
        zeroReason: null,
      }),
    } as unknown as TokenIndex,
    domain,
    rules: DEFAULT_GOVERNANCE_RULES,
    snapshotMaxAgeBlocks: 64,
    categories: [],
    treasury: null,
    now: () => new Date(((signed.at(-1)?.message.timestamp ?? 0) + 1) * 1000),
    reads: new ProposalReads(),
    observer: silentObserver,
  }
  for (const vote of signed) {
    const answer = await castVote(deps, proposal.id, { message: vote.message, signature: vote.signature })
    expect(answer).toEqual({ id: vote.id, created: true, counts: true })
  }

  const rows = await governanceRows(seeded)
  expect(rows).toEqual(await governanceRows(voted))
  expect(rows.ballots).toHaveLength(VOTERS)
  expect(rows.members.map((row) => row.votesCast)).toEqual(Array(VOTERS).fill(1))
  expect(logChainProblem(rows.log.map(({ proposalId: _, ...entry }) => entry as LogEntry))).toBeNull()
  const rules = tallyRules(proposal.message)
  const stored = await storedTally(seeded.db, proposal.id, rules)
  expect(stored.voters).toBe(VOTERS)
  expect(await recountTally(seeded.db, proposal.id, rules)).toEqual(stored)
  const [tally] = await seeded.db
    .select({ lastSeq: proposalTallies.lastSeq })
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposal.id))
  expect(tally?.lastSeq).toBe(VOTERS + 1)
}, 60_000)

test('behavior: the scale proposal and its votes are messages the API accepts (schema and open now)', async () => {
  const proposal = await signScaleProposal(domain, scaleProposalMessage(7))
  expect(proposalMessageSchema.parse(proposal.message)).toEqual(proposal.message)
  const now = Math.floor(Date.now() / 1000)
  expect(proposalState(proposal.message, now)).toBe('active')
  const votes = await signScaleVotes(domain, proposal, 99_999, 100_000)
  for (const vote of votes) {
    expect(voteMessageSchema.parse(vote.message)).toEqual(vote.message)
    // Dated before now, so a vote signed now replaces it.
    expect(vote.message.timestamp).toBeLessThan(now)
  }
}, 30_000)

test('behavior: the bulk seed refuses a second vote of one voter (it does not apply the superseding rule)', async () => {
  const proposal = await signScaleProposal(domain, scaleProposalMessage(7))
  const [vote] = await signScaleVotes(domain, proposal, 0, 1)
  const database = await testDatabase()
  opened.push(database)
  await expect(
    seedProposalVotes(database, proposal, [vote, { ...vote, id: `0x${'1'.repeat(64)}` }] as never),
  ).rejects.toThrow(/one vote per voter/)
}, 30_000)
