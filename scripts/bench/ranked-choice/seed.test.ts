import { ballots, governanceLog, proposalTallies, votes } from '@guildhall/api/database'
import {
  castVote,
  type GovernanceDeps,
  ProposalReads,
  settleRankedResult,
  silentObserver,
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
  voteChoicesProblem,
  voteMessageSchema,
} from '@guildhall/core'
import { asc } from 'drizzle-orm'
import type { Hex, PublicClient } from 'viem'
import { afterEach, expect, test } from 'vitest'
import { seedProposalVotes } from '../harness/vote-seed.ts'
import { rankedBallot, signBallot, signRankedProposal } from './ballots.ts'
import { CHOICES } from './plan.ts'

const VOTERS = 30
const domain = demoDomain({ token: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
const opened: TestDatabase[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

/** Everything a ranked ballot leaves in the database, without the columns the database's clock fills. */
async function governanceRows(database: TestDatabase) {
  const { db } = database
  const stored = await db.select().from(votes).orderBy(asc(votes.id))
  return {
    votes: stored.map(({ receivedAt: _, ...row }) => row),
    ballots: await db.select().from(ballots).orderBy(asc(ballots.voter)),
    tallies: await db.select().from(proposalTallies),
    log: (await db.select().from(governanceLog).orderBy(asc(governanceLog.seq))).map(
      ({ createdAt: _, ...row }) => row,
    ),
  }
}

test('behavior: the bulk seed leaves exactly what the vote path leaves for the same ranked ballots (each ballot’s ranking included), and both settle to the same rounds', async () => {
  const proposal = await signRankedProposal(domain, 7)
  const signed = await Promise.all(Array.from({ length: VOTERS }, (_, i) => signBallot(domain, proposal, i)))
  const seeded = await testDatabase()
  const voted = await testDatabase()
  opened.push(seeded, voted)

  await seedProposalVotes(seeded, proposal, signed)

  // The same proposal, then the same ballots one by one through castVote, power from a stand-in index.
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
  expect(rows.ballots.map((ballot) => ballot.ranking)).toEqual(
    rows.ballots.map((ballot) => signed.find((vote) => vote.id === ballot.voteId)?.message.choices),
  )
  expect(logChainProblem(rows.log.map(({ proposalId: _, ...entry }) => entry as LogEntry))).toBeNull()

  const rules = tallyRules(proposal.message)
  const fromSeed = await settleRankedResult(seeded.db, proposal.id, rules)
  const fromVotes = await settleRankedResult(voted.db, proposal.id, rules)
  expect(fromSeed).toEqual(fromVotes)
  expect(fromSeed.asOfSeq).toBe(VOTERS + 1)
  expect(fromSeed.result.voters).toBe(VOTERS)
  expect(fromSeed.result.rounds?.length).toBeGreaterThan(1)
}, 60_000)

test('behavior: the bench’s proposal and ballots are messages the API accepts: open now, every ballot a full ranking', async () => {
  const proposal = await signRankedProposal(domain, 7)
  expect(proposalMessageSchema.parse(proposal.message)).toEqual(proposal.message)
  const now = Math.floor(Date.now() / 1000)
  expect(proposalState(proposal.message, now)).toBe('active')
  expect(proposal.message.choices).toHaveLength(CHOICES)
  const vote = await signBallot(domain, proposal, 99_999)
  expect(voteMessageSchema.parse(vote.message)).toEqual(vote.message)
  // Dated before now, as a closing hour's ballots are.
  expect(vote.message.timestamp).toBeLessThan(now)
  for (let i = 0; i < 1000; i++) {
    const ranking = rankedBallot(i)
    expect(voteChoicesProblem(proposal.message, ranking)).toBeNull()
    expect(ranking).toEqual(rankedBallot(i))
  }
  // Popular choices come first more often: the count has rounds to go through, not one landslide.
  const firsts = Array.from({ length: 2000 }, (_, i) => rankedBallot(i)[0])
  const share = (choice: number) => firsts.filter((first) => first === choice).length / firsts.length
  expect(share(1)).toBeGreaterThan(share(CHOICES))
  expect(share(1)).toBeLessThan(0.5)
}, 30_000)
