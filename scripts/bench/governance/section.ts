// The governance section of `npm run bench`:
// - vote ingest over HTTP against the real server in a child process (its CPU read there, PostgreSQL's from
//   /proc), on PGlite and on PostgreSQL: 1000 distinct voters, each funded and self-delegated on the chain,
//   vote on 2 proposals at 50 concurrent; every signature is made before the measured window;
// - tally time for 10k / 100k / 1M votes (core's ordering rule and bigint tally, in-process, pure);
// - index speed: a fresh TokenIndex.syncOnce() on PGlite over a synthetic history of 100k transfers, built on
//   anvil by a helper contract (contracts/BenchTransfers.sol, compiled here by solc-js) that makes 250
//   transfers per transaction; the index is then checked against the chain for a sample of accounts;
// - voting-power lookups (TokenIndex.votesAt) from that index.

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoDomain } from '@guildhall/api/testbed'
import { countingVotes, tally } from '@guildhall/core'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { startPostgres } from '../harness/postgres.ts'
import type { GovernanceBenchResult } from '../harness/schema.ts'
import { buildHistory, prepareChain, VOTERS } from './chain.ts'
import { indexRun, LOOKUPS } from './index-speed.ts'
import { CONCURRENCY, ingestRun, PROPOSALS, signBallots, WARM_UP } from './ingest.ts'
import { formatGovernanceReport } from './report.ts'

const TALLY_SIZES = [10_000, 100_000, 1_000_000]

/** Tally time: one voter per vote, the ordering rule over them, then the tally, as the server does it. */
function tallyTimes(): GovernanceBenchResult['tally'] {
  return TALLY_SIZES.map((votes) => {
    const list = Array.from({ length: votes }, (_, i) => ({
      voter: `0x${i.toString(16).padStart(40, '0')}`,
      id: `0x${(i * 2_654_435_761).toString(16).padStart(64, '0')}`,
      timestamp: i,
      choices: [1 + (i % 3)],
      power: BigInt(i % 1_000) * 10n ** 18n,
    }))
    const started = performance.now()
    tally(
      { kind: 'basic', choiceCount: 3, quorum: 10n ** 21n, abstainCountsToQuorum: true },
      countingVotes(list).values(),
    )
    return { votes, ms: Math.round(performance.now() - started) }
  })
}

async function runGovernanceBench({
  log,
}: {
  log: (message: string) => void
}): Promise<GovernanceBenchResult> {
  log('governance: tally of 10k, 100k and 1M votes')
  const tallyResult = tallyTimes()

  const cleanups: (() => Promise<void>)[] = []
  try {
    const chain = await prepareChain(cleanups, log)
    const domain = demoDomain(chain.deployment)
    const head = Number(await chain.client.getBlockNumber({ cacheTime: 0 }))
    const snapshot = head - 1
    log(`governance: signing ${PROPOSALS + 1} proposals and ${PROPOSALS * VOTERS + WARM_UP.votes} votes`)
    const ballots = await signBallots(chain, domain, snapshot)

    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-governance-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    log('governance: starting a throwaway PostgreSQL (scripts/with-postgres.sh)')
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) cleanups.push(postgres.stop)
    const ingest: GovernanceBenchResult['ingest'] = []
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PostgreSQL' && 'skipped' in postgres) {
        ingest.push({ database, skipped: postgres.skipped })
        continue
      }
      log(`governance: vote ingest on ${database}, ${ballots.votes.length} votes, ${CONCURRENCY} concurrent`)
      const run = await ingestRun({
        chain,
        ballots,
        indexedFrom: head,
        ...(database === 'PGlite' || 'skipped' in postgres
          ? { storage: { DATA_DIR: join(dataDir, 'api') }, databaseCpuMs: null }
          : { storage: { DATABASE_URL: postgres.url }, databaseCpuMs: postgres.serverCpuMs }),
      })
      ingest.push({ database, ...run })
    }

    const history = await buildHistory(chain, log)
    log(
      `governance: indexing from the deployment block with a fresh TokenIndex (PGlite), then ${LOOKUPS} lookups`,
    )
    const { index, lookup } = await indexRun(chain, history, join(dataDir, 'index'))
    return { ingest, tally: tallyResult, index, lookup }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

/**
 * The `governance` section: vote ingest (PGlite, PostgreSQL), tally time for 10k / 100k / 1M votes, index
 * speed on 100k transfers, voting-power lookups.
 */
export async function governanceSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runGovernanceBench({ log: ctx.step })
  return { json: { governance: result }, report: formatGovernanceReport(result), misses: 0 }
}
