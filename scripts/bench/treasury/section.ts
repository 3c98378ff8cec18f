// The treasury section of `npm run bench` (issue 23): a treasury Safe with 100,000 real token transfers
// and one with 100, on one chain (chain.ts); then on PGlite and on PostgreSQL, against the API in a child
// process configured as `npm start` configures the demo:
// - the treasury index's catch-up from the Safe's creation block, in transfers per second, its history
//   checked against the chain by the CSV export (sync.ts);
// - history pages at 20 concurrent readers: the first, a filter's first, one 20 pages in (readers.ts);
// and on PGlite (as `npm start` runs), with the 100-transfer treasury's server beside the large one:
// - the Treasury page's cold load until its assets, history and chart show, 100,000 vs 100 (page.ts);
// - the JS the Overview and the Treasury page load: the treasury's chunks only on its page, and the
//   Overview's JS at load against the first page's budget.
// `TREASURY_TRANSFERS=2000 npm run bench -- treasury` runs the same at another size (the budget is judged
// at 100,000).
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { phaseAgents } from '../harness/http.ts'
import { startPostgres } from '../harness/postgres.ts'
import type { TreasuryBenchResult } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'
import type { Storage } from '../harness/storage.ts'
import { prepareTreasuryChain } from './chain.ts'
import { treasuryJs, treasuryLoads } from './page.ts'
import { SMALL_TRANSFERS, TRANSFERS } from './plan.ts'
import { readHistory } from './readers.ts'
import { formatTreasuryReport, treasuryBudget } from './report.ts'
import { syncTreasury } from './sync.ts'

async function runTreasuryBench(ctx: BenchContext): Promise<TreasuryBenchResult> {
  const log = ctx.step
  const loadAverageAtStart = round1(loadavg()[0] ?? 0)
  const webDist = await ctx.webDist()
  const cleanups: (() => Promise<unknown>)[] = []
  const phases = phaseAgents(100)
  cleanups.push(async () => phases.close())
  const serve = (server: ApiProcess) => {
    cleanups.push(() => stopApiProcess(server, 'SIGTERM'))
    return server
  }
  try {
    log(
      `treasury: ${TRANSFERS.toLocaleString('en-US')} and ${SMALL_TRANSFERS} transfers of two Safes on a fresh chain`,
    )
    const chain = await prepareTreasuryChain({ sizes: { large: TRANSFERS, small: SMALL_TRANSFERS }, log })
    cleanups.push(() => chain.anvil.stop())
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-treasury-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))

    const databases: TreasuryBenchResult['databases'] = []
    let browser: TreasuryBenchResult['browser'] | undefined
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) cleanups.push(postgres.stop)
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PostgreSQL' && 'skipped' in postgres) {
        databases.push({ database, skipped: postgres.skipped })
        continue
      }
      const storage: Storage =
        database === 'PGlite' || 'skipped' in postgres
          ? { dataDir: join(dataDir, 'large') }
          : { databaseUrl: postgres.url }
      log(`treasury: ${database}: the token index, then the server's treasury index`)
      const large = await syncTreasury(chain, chain.treasuries.large, storage, webDist, phases.current, log)
      serve(large.server)
      const url = new URL(large.server.origin)
      const history = await readHistory(phases, large.server, log)
      databases.push({ database, sync: large.run, history })
      if (database === 'PGlite') {
        log(`treasury: the ${SMALL_TRANSFERS}-transfer treasury's server beside it`)
        const small = await syncTreasury(
          chain,
          chain.treasuries.small,
          { dataDir: join(dataDir, 'small') },
          webDist,
          phases.next(),
          log,
        )
        serve(small.server)
        // A browser figure that cannot be had is reported as such; the figures above stand.
        const failures: string[] = []
        log('treasury: the Treasury page until shown, desktop and phone, large and small interleaved')
        const pageLoads = await treasuryLoads(
          await ctx.browser(),
          [
            { transfers: TRANSFERS, url: new URL('/treasury', url).toString() },
            { transfers: SMALL_TRANSFERS, url: new URL('/treasury', small.server.origin).toString() },
          ],
          ctx.outDir,
        ).catch((error: Error) => {
          failures.push(`page loads: ${error.message}`)
          return []
        })
        log('treasury: the JS the Overview and the Treasury page load')
        const js = await treasuryJs(await ctx.browser(), large.server.origin, webDist).catch(
          (error: Error) => {
            failures.push(`JS at load: ${error.message}`)
            return null
          },
        )
        browser = { database, smallSync: small.run, pageLoads, js, failures }
        await stopApiProcess(small.server, 'SIGTERM')
      }
      await stopApiProcess(large.server, 'SIGTERM')
    }
    if (!browser) throw new Error('no PGlite run')
    return {
      transfers: TRANSFERS,
      smallTransfers: SMALL_TRANSFERS,
      setupSeconds: round1(chain.setupSeconds),
      loadAverage: { start: loadAverageAtStart, end: round1(loadavg()[0] ?? 0) },
      databases,
      browser,
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

/** The `treasury` section. */
export async function treasurySection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runTreasuryBench(ctx)
  const misses = treasuryBudget(result).filter((line) => !line.pass).length
  return { json: { treasury: result }, report: formatTreasuryReport(result), misses }
}
