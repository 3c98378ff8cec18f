// The scale section's database, once per database: the chain indexed by a fresh TokenIndex, the proposals'
// signed votes seeded in bulk (seed.ts), the members directory counted and named, the deep page's cursor.

import { ballots } from '@guildhall/api/database'
import { voteListCursors } from '@guildhall/api/operations'
import { desc, eq, sql } from 'drizzle-orm'
import type { Address } from 'viem'
import { scaleProposalMessage, signScaleProposal, signScaleVotes } from '../harness/holder-votes.ts'
import type { ScaleChain } from '../harness/holders.ts'
import { round1 } from '../harness/stats.ts'
import { type Storage, withIndexedDatabase } from '../harness/storage.ts'
import { seedProposalVotes } from '../harness/vote-seed.ts'
import { seedNames } from './directory.ts'
import { DEEP_AFTER, HOLDERS, INDEX_MAX_RANGE, SMALL_VOTES } from './plan.ts'

export function prepareDatabase(
  chain: ScaleChain,
  small: Awaited<ReturnType<typeof smallProposal>>,
  storage: Storage,
  log: (message: string) => void,
) {
  return withIndexedDatabase(chain, storage, INDEX_MAX_RANGE, async (database, index) => {
    const indexStarted = performance.now()
    await index.syncOnce()
    const indexSeconds = (performance.now() - indexStarted) / 1000
    const { rows } = await database.db.execute<{ events: string }>(
      // What the index stored: a row per Transfer side, delegation and votes change (its own count of events).
      sql`select (select count(*) from token_balance_checkpoints) + (select count(*) from token_delegate_changes) + (select count(*) from token_vote_checkpoints) as events`,
    )
    log(`scale: indexed in ${round1(indexSeconds)} s; seeding ${HOLDERS.toLocaleString('en-US')} votes`)
    const seedStarted = performance.now()
    await seedProposalVotes(database, chain.proposal, chain.votes)
    await seedProposalVotes(database, small.proposal, small.votes)
    // The index counts a proposal into the members directory once it passes its snapshot (ADR 030), one
    // update of every eligible member: in a DAO that happens when the proposal is created, long before its
    // closing hour, so here it is done before the server starts rather than under the measured load.
    const countStarted = performance.now()
    await index.syncOnce()
    log(
      `scale: the members directory counted the proposals' eligible members in ${round1((performance.now() - countStarted) / 1000)} s`,
    )
    await seedNames(database)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    // The 50,000th ballot by power: the deep page's cursor, as the list writes it.
    const [deep] = await database.db
      .select({ power: ballots.power, voter: ballots.voter })
      .from(ballots)
      .where(eq(ballots.proposalId, chain.proposal.id))
      .orderBy(desc(ballots.power), desc(ballots.voter))
      .offset(DEEP_AFTER - 1)
      .limit(1)
    if (!deep) throw new Error('no 50,000th ballot')
    return {
      index: { events: Number(rows[0]?.events ?? 0), seconds: round1(indexSeconds) },
      seedSeconds: round1(seedSeconds),
      deepCursor: voteListCursors.power.encode([deep.power, deep.voter as Address]),
    }
  })
}

export async function smallProposal(chain: ScaleChain) {
  const proposal = await signScaleProposal(
    chain.domain,
    scaleProposalMessage(chain.proposal.message.snapshot, `Scale bench: ${SMALL_VOTES} votes`),
  )
  return { proposal, votes: await signScaleVotes(chain.domain, proposal, 0, SMALL_VOTES) }
}
