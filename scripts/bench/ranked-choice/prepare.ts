// The ranked-choice section's setup: the demo DAO on a fresh anvil, Ada's ranked-choice proposal and every
// ballot signed before any timing (ballots.ts); then once per database, before its server starts: the proposal
// and its ballots seeded in bulk as the vote path stores them (harness/vote-seed.ts), and the result settled
// SETTLES times by the API's own settleRankedResult, timed, with this process's resident memory sampled.
import { join } from 'node:path'
import { openDatabase } from '@guildhall/api/database'
import { settleRankedResult, tallyRules } from '@guildhall/api/operations'
import { demoDomain } from '@guildhall/api/testbed'
import { tallyToJson } from '@guildhall/core'
import { startBenchChain } from '../harness/chain.ts'
import { round1, spread } from '../harness/stats.ts'
import type { Storage } from '../harness/storage.ts'
import { seedProposalVotes } from '../harness/vote-seed.ts'
import { signedBallots, signMemberVotes, signRankedProposal } from './ballots.ts'
import { BALLOTS, type DatabaseRun, SETTLES, WHILE_VOTING } from './plan.ts'

export type RankedChain = Awaited<ReturnType<typeof prepareRankedChain>>

export async function prepareRankedChain(outDir: string, log: (message: string) => void) {
  const chain = await startBenchChain()
  try {
    const domain = demoDomain(chain.deployment)
    // The demo's deployment takes the same blocks on every run: the same snapshot, the same proposal id.
    const snapshot = Number(await chain.client.getBlockNumber({ cacheTime: 0 })) - 1
    const proposal = await signRankedProposal(domain, snapshot)
    const { votes, signingSeconds } = await signedBallots(
      domain,
      proposal,
      BALLOTS,
      join(outDir, 'ranked-choice-cache'),
      log,
    )
    // Dated from now on: later than any seeded ballot, within the clock skew the server allows.
    const memberVotes = await signMemberVotes(
      domain,
      proposal,
      WHILE_VOTING.votes,
      Math.floor(Date.now() / 1000),
    )
    return { ...chain, domain, proposal, votes, memberVotes, signingSeconds: round1(signingSeconds) }
  } catch (error) {
    await chain.anvil.stop()
    throw error
  }
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024)

/** Migrates `storage`, seeds the proposal and its ballots, then settles its result SETTLES times. */
export async function prepareDatabase(
  chain: RankedChain,
  storage: Storage,
  log: (message: string) => void,
): Promise<Pick<DatabaseRun, 'seedSeconds' | 'settle'>> {
  const database = await openDatabase(storage)
  try {
    await database.migrate()
    log(`ranked-choice: seeding ${BALLOTS.toLocaleString('en-US')} ballots`)
    const seedStarted = performance.now()
    await seedProposalVotes(database, chain.proposal, chain.votes)
    const seedSeconds = round1((performance.now() - seedStarted) / 1000)

    log(`ranked-choice: settling the result ${SETTLES} times`)
    const rules = tallyRules(chain.proposal.message)
    // This process's memory: its RSS holds PGlite's database too (the same process), its JS heap the
    // settle's ballots and rounds. Sampled between the settle's pages and after each settle.
    const base = process.memoryUsage()
    const peak = { rss: base.rss, heapUsed: base.heapUsed }
    const sample = () => {
      const now = process.memoryUsage()
      peak.rss = Math.max(peak.rss, now.rss)
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed)
    }
    const sampler = setInterval(sample, 20)
    const samples: number[] = []
    let settled: Awaited<ReturnType<typeof settleRankedResult>> | undefined
    try {
      for (let i = 0; i < SETTLES; i++) {
        const started = performance.now()
        settled = await settleRankedResult(database.db, chain.proposal.id, rules)
        samples.push(performance.now() - started)
        sample()
      }
    } finally {
      clearInterval(sampler)
    }
    if (!settled) throw new Error('no settle ran')
    const { result } = settled
    return {
      seedSeconds,
      settle: {
        rounds: result.rounds?.length ?? 0,
        winners: result.leading,
        outcome: result.outcome,
        ms: spread(samples),
        resultBytes: Buffer.byteLength(JSON.stringify(tallyToJson(result))),
        rssMiB: { base: mib(base.rss), peak: mib(peak.rss) },
        heapMiB: { base: mib(base.heapUsed), peak: mib(peak.heapUsed) },
      },
    }
  } finally {
    await database.close()
  }
}
