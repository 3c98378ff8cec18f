// The closing-hour section of `npm run bench` (issue 26): everything of the budget in one run, each
// line beside its limit:
// - the signature floors (floors.ts): a vote's check and a sign-in's, per core-second on one thread;
// - VOTERS holders with real power at the proposal's snapshot (harness/holders.ts, scale's setup at a
//   smaller size), each vote signed before timing; then on databases of their own (runs.ts): PostgreSQL with
//   1 instance and 1,000 live streams on the proposal (streams.ts), PostgreSQL with 3 instances behind
//   HAProxy, PGlite; votes/s, latency, CPU, PostgreSQL's sessions waiting on locks, the log lock's hold from
//   each instance's /metrics (metrics.ts);
// - sign-in verifies/s at 200 concurrent (sign-in.ts); the production server's start (build's server-start.ts).
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '@guildhall/api/database'
import { testEnv } from '@guildhall/api/demo'
import { sql } from 'drizzle-orm'
import { buildServer } from '../../build-server.ts'
import { ensureHaproxy } from '../../system-deps.ts'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { prepareScaleChain, type ScaleChain } from '../harness/holders.ts'
import { startPostgres } from '../harness/postgres.ts'
import type { ClosingHourResult } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'
import { signatureFloors } from './floors.ts'
import { CONCURRENCY, FLOOR_ROUNDS, FLOOR_SAMPLES, HOLDERS, INSTANCES, STREAMS, VOTERS } from './plan.ts'
import { closingHourBudget, formatClosingHourReport } from './report.ts'
import { measureSetup, prepareDatabase } from './runs.ts'
import { measureServerStart } from './server-start.ts'
import { measureSignIn } from './sign-in.ts'
import { signTodaysVotes } from './votes.ts'

/** build's measureServerStart: tsx against the built server. */
async function serverStart(log: (message: string) => void): Promise<ClosingHourResult['serverStart']> {
  log('closing hour: the server start, tsx against the built server (median of 3)')
  return measureServerStart()
}

/** A database of its own on the bench's PostgreSQL server, for one run. */
async function freshDatabase(url: string, name: string) {
  const admin = await openDatabase({ databaseUrl: url })
  try {
    await admin.db.execute(sql.raw(`create database ${name}`))
  } finally {
    await admin.close()
  }
  const fresh = new URL(url)
  fresh.pathname = `/${name}`
  return fresh.toString()
}

/** The sign-in server's database, its token index caught up first as the votes' are (runs.ts). */
async function signInDatabase(url: string, chain: ScaleChain, log: (message: string) => void) {
  const databaseUrl = await freshDatabase(url, 'closing_hour_sign_in')
  log('closing hour: sign-in: indexing the holders')
  await prepareDatabase(chain, { databaseUrl })
  return databaseUrl
}

async function runClosingHour(
  outDir: string,
  log: (message: string) => void,
): Promise<Omit<ClosingHourResult, 'budget'>> {
  const started = performance.now()
  const loadAtStart = loadavg()[0] as number
  const cleanups: (() => Promise<unknown>)[] = []
  try {
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) {
      cleanups.push(postgres.stop)
      ensureHaproxy()
    }
    const chain = await prepareScaleChain({
      holders: HOLDERS,
      cacheDir: join(outDir, 'closing-hour-cache'),
      log,
      title: 'Closing hour: one hot proposal',
    })
    cleanups.push(() => chain.anvil.stop())
    const todays = await signTodaysVotes(chain, join(outDir, 'closing-hour-cache'), log)
    const votes = todays.votes
    log(
      `closing hour: the signature floors (${FLOOR_SAMPLES} checks each, the best of ${FLOOR_ROUNDS} rounds, one thread)`,
    )
    const floors = await signatureFloors(
      chain.domain,
      votes.slice(0, FLOOR_SAMPLES),
      chain.client,
      'http://127.0.0.1:1',
    )
    const bodies = votes.map((vote) => JSON.stringify({ message: vote.message, signature: vote.signature }))
    const signed = { timed: bodies.slice(0, VOTERS), warmUp: bodies.slice(VOTERS) }
    const apiEnv = {
      ...testEnv(chain.anvil.url, chain.deployment),
      SIGN_IN: 'off',
      // One load generator: the per-client limit is not what is measured.
      GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    } as Record<string, string>
    // The production server (ADR 066), built into bench-results/ (inside the repository: its external
    // packages resolve from node_modules), so a rebuild of apps/api/dist meanwhile changes nothing measured.
    log('closing hour: building the production server')
    const { serverFile } = await buildServer({ outDir: join(outDir, 'server-dist') })
    const common = { chain, votes, apiEnv, bodies: signed, serverFile, log }
    const runs: ClosingHourResult['runs'] = []
    if ('skipped' in postgres) {
      runs.push({ setup: 'PostgreSQL', skipped: postgres.skipped })
    } else {
      for (const instances of [1, INSTANCES]) {
        const setup =
          instances === 1 ? 'PostgreSQL, 1 instance' : `PostgreSQL, ${instances} instances behind HAProxy`
        runs.push(
          await measureSetup({
            ...common,
            setup,
            database: 'PostgreSQL',
            instances,
            storage: { databaseUrl: await freshDatabase(postgres.url, `closing_hour_${instances}`) },
            postgresCpuMs: postgres.serverCpuMs,
            streams: instances === 1 ? STREAMS : 0,
          }),
        )
      }
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-closing-hour-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    runs.push(
      await measureSetup({
        ...common,
        setup: 'PGlite, 1 instance',
        database: 'PGlite',
        instances: 1,
        storage: { dataDir },
        postgresCpuMs: null,
        streams: 0,
      }),
    )
    const signIn =
      'skipped' in postgres
        ? { skipped: `needs PostgreSQL (${postgres.skipped})` }
        : await measureSignIn(
            apiEnv,
            await signInDatabase(postgres.url, chain, log),
            postgres.serverCpuMs,
            serverFile,
            log,
          )
    return {
      voters: VOTERS,
      concurrency: CONCURRENCY,
      cores: cpus().length,
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      loadAverage: { start: round1(loadAtStart), end: round1(loadavg()[0] as number) },
      setupSeconds: {
        signing: round1(chain.seconds.signing + todays.seconds),
        holders: round1(chain.seconds.holders),
      },
      floors,
      runs,
      signIn,
      serverStart: await serverStart(log),
      totalSeconds: Math.round((performance.now() - started) / 1000),
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

/** The `closing-hour` section: the budget, measured in one run. */
export async function closingHourSection(ctx: BenchContext): Promise<SectionResult> {
  const measured = await runClosingHour(ctx.outDir, ctx.step)
  const result: ClosingHourResult = { ...measured, budget: closingHourBudget(measured) }
  return {
    json: { closingHour: result },
    report: formatClosingHourReport(result),
    misses: result.budget.filter((line) => line.pass === false).length,
  }
}
