// The discussion section of `npm run bench` (issue 24): a proposal whose thread holds 10,000 signed comments
// and one whose thread holds 10, every comment signed by its author's authorised key before any timing
// (prepare.ts, messages.ts) and seeded in bulk as the comment path stores them (seed.ts); then on PGlite and
// on PostgreSQL, against the API in a child process configured as `npm start` configures the demo:
// - the large thread's first page: its size, raw and gzip, and its p99 at 50 concurrent readers (readers.ts);
// - comments POSTed over HTTP by the signed-in members with their keys, 1,000 at 50 concurrent, in comments
//   per second as the votes' ingest is counted (posting.ts);
// and on PGlite (as `npm start` runs) the proposal page's cold load until its thread shows, 10,000 comments
// against 10 (page.ts).
// `DISCUSSION_COMMENTS=500 npm run bench -- discussion` runs the same at another size (the budget is judged at
// 10,000).
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoEnv } from '@guildhall/api/demo'
import { type ApiProcess, startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import { phaseAgents } from '../harness/http.ts'
import { startPostgres } from '../harness/postgres.ts'
import type { DiscussionBenchResult } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'
import type { Storage } from '../harness/storage.ts'
import { signPosts } from './messages.ts'
import { threadLoads } from './page.ts'
import { COMMENTS, POSTS, SMALL_COMMENTS } from './plan.ts'
import { postComments, signInAuthors } from './posting.ts'
import { type DiscussionChain, prepareDatabase, prepareDiscussionChain } from './prepare.ts'
import { readFirstPage } from './readers.ts'
import { discussionBudget, formatDiscussionReport } from './report.ts'

/** The API server on `storage`, configured as `npm start` configures the demo's. */
function startDiscussionServer(chain: DiscussionChain, storage: Storage, webDist: string) {
  const env = demoEnv({ anvilUrl: chain.anvil.url, deployment: chain.deployment, webDist, env: {} })
  return startApiProcess({
    ...env,
    ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
    LOG_LEVEL: 'silent',
    // The bench's clients are one address: the per-client limits are for the open internet.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    EXPORT_RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    DISCUSSION_RATE_LIMIT_PER_MINUTE: '1000000',
  })
}

async function runDiscussionBench(ctx: BenchContext): Promise<DiscussionBenchResult> {
  const log = ctx.step
  const loadAverageAtStart = round1(loadavg()[0] ?? 0)
  const webDist = await ctx.webDist()
  const cleanups: (() => Promise<unknown>)[] = []
  const phases = phaseAgents(100)
  cleanups.push(async () => phases.close())
  try {
    log('discussion: the demo DAO on a fresh chain, the proposals and every signature')
    const chain = await prepareDiscussionChain(log)
    cleanups.push(() => chain.anvil.stop())
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-discussion-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))

    const databases: DiscussionBenchResult['databases'] = []
    let browser: DiscussionBenchResult['browser'] | undefined
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
      log(`discussion: ${database}: the token index, the proposals and the threads`)
      const seedSeconds = await prepareDatabase(chain, storage, log)
      const server: ApiProcess = await startDiscussionServer(chain, storage, webDist)
      try {
        const url = new URL(server.origin)
        const firstPage = await readFirstPage(phases, server, chain.proposals.large.id, log)
        if (database === 'PGlite') {
          // A browser figure that cannot be had is reported as such; the figures above stand.
          const failures: string[] = []
          log(
            'discussion: the proposal page until its thread shows, desktop and phone, large and small interleaved',
          )
          const page = (id: string) => new URL(`/proposals/${id}`, url).toString()
          const pageLoads = await threadLoads(
            await ctx.browser(),
            [
              { comments: COMMENTS, url: page(chain.proposals.large.id) },
              { comments: SMALL_COMMENTS, url: page(chain.proposals.small.id) },
            ],
            ctx.outDir,
          ).catch((error: Error) => {
            failures.push(`page loads: ${error.message}`)
            return []
          })
          browser = { database, pageLoads, failures }
        }
        log(
          `discussion: ${database}: the members sign in; ${POSTS.comments} comments at ${POSTS.concurrency} concurrent`,
        )
        const cookies = await signInAuthors(server, 'Guildhall Demo DAO')
        // Signed now, just before they are sent: the server refuses a message dated too far from its clock.
        const posts = await signPosts(
          chain.domain,
          chain.proposals.large.id,
          POSTS.comments,
          Math.floor(Date.now() / 1000),
        )
        const posting = await postComments(phases.next(), server, cookies, posts)
        databases.push({ database, seedSeconds, firstPage, posting })
      } catch (error) {
        throw new Error(
          `${error instanceof Error ? error.message : error}; the server wrote:\n${server.output()}`,
        )
      } finally {
        await stopApiProcess(server, 'SIGTERM')
      }
    }
    if (!browser) throw new Error('no PGlite run')
    return {
      comments: COMMENTS,
      smallComments: SMALL_COMMENTS,
      setupSeconds: { signing: chain.signingSeconds },
      loadAverage: { start: loadAverageAtStart, end: round1(loadavg()[0] ?? 0) },
      databases,
      browser,
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

/** The `discussion` section. */
export async function discussionSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runDiscussionBench(ctx)
  const misses = discussionBudget(result).filter((line) => !line.pass).length
  return { json: { discussion: result }, report: formatDiscussionReport(result), misses }
}
