// The ranked-choice section of `npm run bench` (issue 25): one ranked-choice proposal of 20 choices whose
// 100,000 signed ballots each rank them all, drawn from a seeded stream (ballots.ts), seeded in bulk as the
// vote path stores them (harness/vote-seed.ts); then on PGlite and on PostgreSQL:
// - the time to settle its rounds (the API's settleRankedResult, in this process, before the server starts),
//   the rounds it took, the stored result's size and this process's resident memory (prepare.ts);
// - against the API in a child process configured as `npm start` configures the demo, GET /api/proposals/:id
//   with its rounds: its size, raw and gzip, and its mean and p99 at 50 concurrent readers, the API's CPU per
//   read and resident memory, then the same readers while a vote arrives every second (readers.ts).
// `RANKED_BALLOTS=2000 npm run bench -- ranked-choice` runs the same at another size (the budget is judged at
// 100,000).
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoEnv } from '@guildhall/api/demo'
import { startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { phaseAgents } from '../harness/http.ts'
import { startPostgres } from '../harness/postgres.ts'
import type { RankedChoiceBenchResult } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'
import type { Storage } from '../harness/storage.ts'
import { BALLOTS, CHOICES } from './plan.ts'
import { prepareDatabase, prepareRankedChain, type RankedChain } from './prepare.ts'
import { readProposal, readWhileVoting } from './readers.ts'
import { formatRankedReport, rankedBudget } from './report.ts'

/** The API server on `storage`, configured as `npm start` configures the demo's but for the web app (only the API is read). */
function startRankedServer(chain: RankedChain, storage: Storage) {
  const { WEB_DIST: _noWebApp, ...env } = demoEnv({
    anvilUrl: chain.anvil.url,
    deployment: chain.deployment,
    webDist: '',
    env: {},
  })
  return startApiProcess({
    ...env,
    ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
    LOG_LEVEL: 'silent',
    // The bench's votes come from one address: the per-client limit is for the open internet.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
  })
}

async function runRankedBench(ctx: BenchContext): Promise<RankedChoiceBenchResult> {
  const log = ctx.step
  const loadAverageAtStart = round1(loadavg()[0] ?? 0)
  const cleanups: (() => Promise<unknown>)[] = []
  const phases = phaseAgents(100)
  cleanups.push(async () => phases.close())
  try {
    log('ranked-choice: the demo DAO on a fresh chain, the proposal and every ballot signed')
    const chain = await prepareRankedChain(ctx.outDir, log)
    cleanups.push(() => chain.anvil.stop())
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-ranked-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))

    const databases: RankedChoiceBenchResult['databases'] = []
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) cleanups.push(postgres.stop)
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PostgreSQL' && 'skipped' in postgres) {
        databases.push({ database, skipped: postgres.skipped })
        continue
      }
      const storage: Storage =
        database === 'PGlite' || 'skipped' in postgres
          ? { dataDir: join(dataDir, 'api') }
          : { databaseUrl: postgres.url }
      const prepared = await prepareDatabase(chain, storage, log)
      const server = await startRankedServer(chain, storage)
      try {
        const reads = await readProposal(phases, server, chain.proposal.id, log)
        const whileVoting = await readWhileVoting(phases, server, chain.proposal.id, chain.memberVotes, log)
        databases.push({ database, ...prepared, ...reads, whileVoting })
      } catch (error) {
        throw new Error(
          `${error instanceof Error ? error.message : error}; the server wrote:\n${server.output()}`,
        )
      } finally {
        await stopApiProcess(server, 'SIGTERM')
      }
    }
    return {
      ballots: BALLOTS,
      choices: CHOICES,
      setupSeconds: { signing: chain.signingSeconds },
      loadAverage: { start: loadAverageAtStart, end: round1(loadavg()[0] ?? 0) },
      databases,
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

/** The `ranked-choice` section. */
export async function rankedChoiceSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runRankedBench(ctx)
  const misses = rankedBudget(result).filter((line) => !line.pass).length
  return { json: { rankedChoice: result }, report: formatRankedReport(result), misses }
}
