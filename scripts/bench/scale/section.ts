// The scale section of `npm run bench` (issue 14): one proposal with 100,000 signed votes and 100,000
// delegated holders on the chain (chain.ts), indexed by the real TokenIndex and seeded in bulk
// (harness/vote-seed.ts) into PGlite and into PostgreSQL; then, against the API in a child process on each:
// - the detail answer's size and its latency at 1, 20 and 100 concurrent readers;
// - the votes list's first page and a page after 50,000 votes;
// - vote POST latency while 20 readers loop on the detail and the first votes page;
// - vote ingest at 50 concurrent (re-votes of 1000 holders), PGlite beside PostgreSQL;
// - the bundle export's time and the API process's peak memory, at 100 votes and at 100,000; a log page;
// then on PostgreSQL the same ingest through 1 instance directly, 1 behind HAProxy and 3 behind HAProxy.
// Each job is a module of this folder: plan (sizes, budget, figures' shape), prepare (one database),
// readers, exports, measure (one server), directory, page (the browser), cluster, budget and report; the
// holders' chain and votes, the vote POSTs and the session sampling are the harness's (holders.ts,
// holder-votes.ts, vote-burst.ts, sessions.ts), shared with the closing-hour section.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS } from '@guildhall/core'
import type { Browser } from 'playwright-core'
import { ensureHaproxy } from '../../system-deps.ts'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { signReVotes } from '../harness/holder-votes.ts'
import { prepareScaleChain } from '../harness/holders.ts'
import { startPostgres } from '../harness/postgres.ts'
import type { ScaleInstances } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'
import type { Storage } from '../harness/storage.ts'
import { scaleBudget } from './budget.ts'
import { measureInstances } from './cluster.ts'
import { directoryLatency } from './directory.ts'
import { cappedExport } from './exports.ts'
import { measure } from './measure.ts'
import { browserRecount, resultsLoads } from './page.ts'
import {
  type DatabaseRun,
  HOLDERS,
  INGEST,
  INGEST_FROM,
  POSTS_WHILE_READING,
  type ScaleBenchResult,
  SMALL_VOTES,
  WARM_UP_FROM,
  WHILE_READING_FROM,
} from './plan.ts'
import { prepareDatabase, smallProposal } from './prepare.ts'
import { formatScaleReport } from './report.ts'

async function runScaleBench({
  outDir,
  webDist,
  browser,
  log,
}: {
  outDir: string
  webDist: string
  browser: () => Promise<Browser>
  log: (message: string) => void
}): Promise<ScaleBenchResult> {
  if (WARM_UP_FROM < 0) throw new Error(`SCALE_VOTES must be at least ${HOLDERS - WARM_UP_FROM}`)
  const cleanups: (() => Promise<unknown>)[] = []
  try {
    const chain = await prepareScaleChain({ holders: HOLDERS, cacheDir: join(outDir, 'scale-cache'), log })
    cleanups.push(() => chain.anvil.stop())
    const small = await smallProposal(chain)
    // Re-votes signed now (the seeded votes are dated in the past).
    const signedAt = Math.floor(Date.now() / 1000)
    const bodies = {
      whileReading: await signReVotes(chain, WHILE_READING_FROM, POSTS_WHILE_READING.votes, {
        choice: 2,
        timestamp: signedAt,
      }),
      ingest: await signReVotes(chain, INGEST_FROM, INGEST.votes, { choice: 2, timestamp: signedAt }),
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-scale-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) {
      cleanups.push(postgres.stop)
      // Needed at the end, for the instances comparison: missing, it should stop the run before the long part.
      ensureHaproxy()
    }
    const apiEnv = {
      CHAIN_IDS: String(LOCAL_CHAIN_ID),
      [`RPC_URL_${LOCAL_CHAIN_ID}`]: chain.anvil.url,
      [`MULTICALL3_ADDRESS_${LOCAL_CHAIN_ID}`]: MULTICALL3_ADDRESS,
      TOKEN_ADDRESS: chain.deployment.token,
      TOKEN_DEPLOY_BLOCK: String(chain.deployment.deployBlock),
      WALLETS: 'injected',
      SIGN_IN: 'off',
      WEB_DIST: webDist,
      GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
      EXPORT_RATE_LIMIT_PER_MINUTE: '1000000',
    }

    const databases: ScaleBenchResult['databases'] = []
    let browserFigures: ScaleBenchResult['browser'] | undefined
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PostgreSQL' && 'skipped' in postgres) {
        databases.push({ database, skipped: postgres.skipped })
        continue
      }
      const storage: Storage =
        database === 'PGlite' || 'skipped' in postgres
          ? { dataDir: join(dataDir, 'api') }
          : { databaseUrl: postgres.url }
      log(`scale: ${database}: indexing the chain with a fresh TokenIndex`)
      const prepared = await prepareDatabase(chain, small, storage, log)
      const server = await startApiProcess({
        ...apiEnv,
        ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
      })
      try {
        const figures = await measure(server, chain, small, prepared.deepCursor, bodies, log).then(
          async (m) => ({ ...m, directory: await directoryLatency(server.origin, log) }),
        )
        const run: DatabaseRun = {
          database,
          index: prepared.index,
          seedSeconds: prepared.seedSeconds,
          ...figures,
        }
        databases.push(run)
        if (database === 'PostgreSQL' || 'skipped' in postgres) {
          const page = (id: string) => new URL(`/proposals/${id}`, server.origin).toString()
          log('scale: proposal page loads until the results show, desktop and phone')
          // A browser figure that cannot be had is reported as such; the figures above stand.
          const failures: string[] = []
          const pageLoads = await resultsLoads(
            await browser(),
            [
              { votes: SMALL_VOTES, url: page(small.proposal.id) },
              { votes: HOLDERS, url: page(chain.proposal.id) },
            ],
            outDir,
          ).catch((error: Error) => {
            failures.push(`page loads: ${error.message}`)
            return []
          })
          log(`scale: browser recount of ${HOLDERS.toLocaleString('en-US')} votes ("Verify this result")`)
          const recount = await browserRecount(await browser(), page(chain.proposal.id)).catch(
            (error: Error) => {
              failures.push(`recount: ${error.message}`)
              return null
            },
          )
          browserFigures = { database, pageLoads, recount, failures }
          // A second server on the same database: PostgreSQL only (PGlite's files belong to one process).
          if ('databaseUrl' in storage) {
            log(
              `scale: the ${HOLDERS.toLocaleString('en-US')}-vote bundle from a server whose heap is capped`,
            )
            run.cappedExport = await cappedExport(apiEnv, storage.databaseUrl, chain.proposal.id)
          }
        }
      } finally {
        await stopApiProcess(server, 'SIGTERM')
      }
    }
    const instances: ScaleInstances =
      'skipped' in postgres
        ? { skipped: `needs PostgreSQL (${postgres.skipped})` }
        : await measureInstances(chain, postgres, apiEnv, signedAt, log)
    return {
      holders: HOLDERS,
      votes: chain.votes.length,
      setupSeconds: { signing: round1(chain.seconds.signing), holders: round1(chain.seconds.holders) },
      databases,
      browser: browserFigures as ScaleBenchResult['browser'],
      instances,
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

/** The `scale` section: one run on PGlite and PostgreSQL. */
export async function scaleSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runScaleBench({
    outDir: ctx.outDir,
    webDist: await ctx.webDist(),
    browser: ctx.browser,
    log: ctx.step,
  })
  const misses = scaleBudget(result).filter((line) => !line.pass).length
  return { json: { scale: result }, report: formatScaleReport(result), misses }
}
