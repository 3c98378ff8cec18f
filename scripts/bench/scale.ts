// The scale section of `npm run bench` (issue 14): one proposal with 100,000 signed votes and 100,000
// delegated holders on the chain (scale-chain.ts), indexed by the real TokenIndex and seeded in bulk
// (scale-seed.ts) into PGlite and into PostgreSQL; then, against the API in a child process on each:
// - the detail answer's size and its latency at 1, 20 and 100 concurrent readers;
// - the votes list's first page and a page after 50,000 votes;
// - vote POST latency while 20 readers loop on the detail and the first votes page;
// - vote ingest at 50 concurrent (re-votes of 1000 holders), PGlite beside PostgreSQL;
// - the bundle export's time and the API process's peak memory, at 100 votes and at 100,000; a log page.

import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS, type VoteMessage, voteTypedData } from '@guildhall/core'
import { desc, eq, sql } from 'drizzle-orm'
import type { Browser } from 'playwright-core'
import { privateKeyToAccount } from 'viem/accounts'
import { openDatabase } from '../../apps/api/src/db/client.ts'
import { ballots } from '../../apps/api/src/db/schema.ts'
import { TokenIndex } from '../../apps/api/src/indexer/token-index.ts'
import { encodeCursor } from '../../apps/api/src/services/cursor.ts'
import { type ApiProcess, startApiProcess, stopApiProcess } from '../../apps/api/test-support/api-process.ts'
import type { BenchContext, SectionResult } from '../bench.ts'
import { table } from './report.ts'
import { prepareScaleChain, type ScaleChain } from './scale-chain.ts'
import { directoryLatency } from './scale-directory.ts'
import { type BrowserRecount, browserRecount, type PageLoad, resultsLoads } from './scale-page.ts'
import { seedProposalVotes } from './scale-seed.ts'
import { scaleProposalMessage, scaleVoterKey, signScaleProposal, signScaleVotes } from './scale-votes.ts'
import type { Latency } from './schema.ts'
import { latency, pool, post, round1, startPostgres } from './sign-in.ts'

/** Votes (and holders): SCALE_VOTES overrides it for a quicker run; the budget is judged at 100,000. */
const HOLDERS = Number(process.env.SCALE_VOTES ?? 100_000)
const SMALL_VOTES = 100
const READER_LEVELS = [1, 20, 100]
/** Requests per reader level: enough for a p99 (at least 100 samples) without minutes per level. */
const READS_PER_LEVEL: Record<number, number> = { 1: 100, 20: 600, 100: 1000 }
/** The deep page starts after this many votes: 50,000 of 100,000, half of a smaller run. */
const DEEP_AFTER = Math.min(50_000, Math.floor(HOLDERS / 2))
const LIST_READS = 100
const POSTS_WHILE_READING = { votes: 60, concurrency: 4, readers: 20 }
const INGEST = { votes: 1000, concurrency: 50 }
/** Blocks per eth_getLogs in the index run: ≈ 750 events a block, so ≈ 7,500 logs a request. */
const INDEX_MAX_RANGE = 10
const REQUEST_HEADERS = { 'user-agent': 'guildhall-bench', 'content-type': 'application/json' }

const SCALE_BUDGET = {
  detailGzipBytes: 20 * 1024,
  p99PostgresMs: 100,
  p99PgliteMs: 300,
  postWhileReadingMs: 500,
  pageLoadRatio: 1.2,
  ingestRatio: 2,
}

type Timed = { status: number; bytes: number; ms: number }
type DatabaseRun = {
  database: string
  index: { events: number; seconds: number }
  seedSeconds: number
  detail: {
    bytes: number
    gzipBytes: number
    readers: { concurrency: number; requests: number; latencyMs: Latency; errors: number }[]
  }
  votesList: { firstPage: Latency; deepPage: Latency }
  postWhileReading: {
    votes: number
    latencyMs: Latency
    errors: number
    readerRequests: number
    readerLatencyMs: Latency
    readerErrors: number
  }
  ingest: { votes: number; concurrency: number; votesPerSecond: number; latencyMs: Latency; errors: number }
  exports: { votes: number; seconds: number; bytes: number; peakRssMiB: number; baseRssMiB: number }[]
  logPage: Latency
}
type ScaleBenchResult = {
  holders: number
  votes: number
  setupSeconds: { signing: number; holders: number }
  databases: (DatabaseRun | { database: string; skipped: string })[]
  /** On the PostgreSQL server (PGlite's when PostgreSQL is missing). */
  browser: { database: string; pageLoads: PageLoad[]; recount: BrowserRecount | null; failures: string[] }
  instances3: string
}

function get(agent: Agent, url: URL, path: string, onChunk?: () => void): Promise<Timed & { body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(new URL(path, url), { agent, headers: REQUEST_HEADERS }, (res) => {
      const chunks: Buffer[] = []
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        // Bodies of a few MB are kept; the bundle's only counted.
        if (!onChunk) chunks.push(chunk)
        else onChunk()
      })
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          ms: performance.now() - started,
          body: Buffer.concat(chunks).toString(),
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Resident memory of a process in MiB, from /proc (Linux). */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Math.round(Number(match[1]) / 1024) : 0
}

/** Re-votes of holders [from, from + count), signed now (a later timestamp replaces the seeded vote). */
async function signReVotes(chain: ScaleChain, from: number, count: number) {
  const now = Math.floor(Date.now() / 1000)
  const bodies: string[] = []
  for (let i = from; i < from + count; i++) {
    const account = privateKeyToAccount(scaleVoterKey(i))
    const message: VoteMessage = {
      voter: account.address,
      proposal: chain.proposal.id,
      choices: [2],
      reason: 'Changed my mind.',
      timestamp: now,
    }
    bodies.push(
      JSON.stringify({
        message,
        signature: await account.signTypedData(voteTypedData(chain.domain, message)),
      }),
    )
  }
  return bodies
}

async function prepareDatabase(
  chain: ScaleChain,
  small: Awaited<ReturnType<typeof smallProposal>>,
  storage: { dataDir: string } | { databaseUrl: string },
  log: (message: string) => void,
) {
  const database = await openDatabase(storage)
  try {
    await database.migrate()
    const index = new TokenIndex({
      db: database.db,
      client: chain.client,
      chainId: LOCAL_CHAIN_ID,
      token: chain.deployment.token,
      fromBlock: chain.deployment.deployBlock,
      confirmations: 0,
      multicall3: MULTICALL3_ADDRESS,
      maxRange: INDEX_MAX_RANGE,
    })
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
      deepCursor: encodeCursor(['power', deep.power, deep.voter]),
    }
  } finally {
    await database.close()
  }
}

async function smallProposal(chain: ScaleChain) {
  const proposal = await signScaleProposal(
    chain.domain,
    scaleProposalMessage(chain.proposal.message.snapshot, `Scale bench: ${SMALL_VOTES} votes`),
  )
  return { proposal, votes: await signScaleVotes(chain.domain, proposal, 0, SMALL_VOTES) }
}

async function measure(
  server: ApiProcess,
  chain: ScaleChain,
  small: { proposal: { id: string } },
  deepCursor: string,
  bodies: { whileReading: string[]; ingest: string[] },
  log: (message: string) => void,
) {
  const url = new URL(server.origin)
  // A fresh pool of connections for each phase: a connection left idle past the server's keep-alive timeout
  // (5 s) could be reused just as the server closes it (ECONNRESET), which would be the bench's fault.
  let agent = new Agent({ keepAlive: true, maxSockets: 200 })
  const nextPhase = () => {
    agent.destroy()
    agent = new Agent({ keepAlive: true, maxSockets: 200 })
  }
  const id = chain.proposal.id
  const detailPath = `/api/proposals/${id}`
  const firstPage = `/api/proposals/${id}/votes`
  try {
    const detail = await get(agent, url, detailPath)
    if (detail.status !== 200) throw new Error(`detail: ${detail.status} ${detail.body.slice(0, 200)}`)
    const gzipBytes = gzipSync(detail.body).length
    const readers: DatabaseRun['detail']['readers'] = []
    for (const concurrency of READER_LEVELS) {
      nextPhase()
      log(`scale: detail at ${concurrency} concurrent readers`)
      const requests = READS_PER_LEVEL[concurrency] ?? 100
      const samples: number[] = []
      let errors = 0
      await pool(requests, concurrency, async () => {
        try {
          const reply = await get(agent, url, detailPath)
          samples.push(reply.ms)
          if (reply.status !== 200) errors++
        } catch {
          errors++
        }
      })
      readers.push({ concurrency, requests, latencyMs: latency(samples), errors })
    }

    const listLatency = async (path: string) => {
      const samples: number[] = []
      for (let i = 0; i < LIST_READS; i++) {
        const reply = await get(agent, url, path)
        if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body.slice(0, 200)}`)
        samples.push(reply.ms)
      }
      return latency(samples)
    }
    nextPhase()
    log(`scale: votes list, first page and after ${DEEP_AFTER.toLocaleString('en-US')}`)
    const votesList = {
      firstPage: await listLatency(firstPage),
      deepPage: await listLatency(`${firstPage}?cursor=${deepCursor}`),
    }

    log(
      `scale: ${POSTS_WHILE_READING.votes} vote POSTs while ${POSTS_WHILE_READING.readers} readers load the proposal`,
    )
    const headers = { ...REQUEST_HEADERS, origin: url.origin }
    const votesPath = `/api/proposals/${id}/votes`
    nextPhase()
    let reading = true
    const readerSamples: number[] = []
    let readerErrors = 0
    const readerLoops = Array.from({ length: POSTS_WHILE_READING.readers }, async () => {
      while (reading) {
        for (const path of [detailPath, firstPage]) {
          try {
            const reply = await get(agent, url, path)
            readerSamples.push(reply.ms)
            if (reply.status !== 200) readerErrors++
          } catch {
            readerErrors++
          }
        }
      }
    })
    const postSamples: number[] = []
    let postErrors = 0
    await pool(bodies.whileReading.length, POSTS_WHILE_READING.concurrency, async (i) => {
      try {
        const reply = await post(agent, url, votesPath, headers, bodies.whileReading[i] as string)
        postSamples.push(reply.ms)
        if (reply.status !== 201) postErrors++
      } catch {
        postErrors++
      }
    })
    reading = false
    await Promise.all(readerLoops)

    nextPhase()
    log(`scale: vote ingest, ${INGEST.votes} votes at ${INGEST.concurrency} concurrent`)
    const ingestSamples: number[] = []
    let ingestErrors = 0
    const ingestStarted = performance.now()
    await pool(bodies.ingest.length, INGEST.concurrency, async (i) => {
      try {
        const reply = await post(agent, url, votesPath, headers, bodies.ingest[i] as string)
        ingestSamples.push(reply.ms)
        if (reply.status !== 201) ingestErrors++
      } catch {
        ingestErrors++
      }
    })
    const ingestSeconds = (performance.now() - ingestStarted) / 1000

    nextPhase()
    log('scale: bundle exports and a log page')
    const exports: DatabaseRun['exports'] = []
    for (const [votes, proposal] of [
      [SMALL_VOTES, small.proposal.id],
      [HOLDERS, id],
    ] as const) {
      const pid = server.child.pid as number
      const baseRssMiB = rssMiB(pid)
      let peak = baseRssMiB
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMiB(pid))
      }, 20)
      const reply = await get(agent, url, `/api/proposals/${proposal}/bundle`, () => {})
      clearInterval(sampler)
      peak = Math.max(peak, rssMiB(pid))
      if (reply.status !== 200) throw new Error(`bundle: ${reply.status}`)
      exports.push({
        votes,
        seconds: round1(reply.ms / 1000),
        bytes: reply.bytes,
        peakRssMiB: peak,
        baseRssMiB,
      })
    }
    const logSamples: number[] = []
    for (let i = 0; i < 20; i++) {
      const reply = await get(agent, url, `/api/governance/log?after=${DEEP_AFTER + i * 100}`)
      if (reply.status !== 200) throw new Error(`log page: ${reply.status} ${reply.body.slice(0, 200)}`)
      logSamples.push(reply.ms)
    }
    return {
      detail: { bytes: Buffer.byteLength(detail.body), gzipBytes, readers },
      votesList,
      postWhileReading: {
        votes: bodies.whileReading.length,
        latencyMs: latency(postSamples),
        errors: postErrors,
        readerRequests: readerSamples.length,
        readerLatencyMs: latency(readerSamples),
        readerErrors,
      },
      ingest: {
        votes: bodies.ingest.length,
        concurrency: INGEST.concurrency,
        votesPerSecond: Math.round(bodies.ingest.length / ingestSeconds),
        latencyMs: latency(ingestSamples),
        errors: ingestErrors,
      },
      exports,
      logPage: latency(logSamples),
    }
  } finally {
    agent.destroy()
  }
}

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
  const cleanups: (() => Promise<unknown>)[] = []
  try {
    const chain = await prepareScaleChain({ holders: HOLDERS, cacheDir: join(outDir, 'scale-cache'), log })
    cleanups.push(() => chain.anvil.stop())
    const small = await smallProposal(chain)
    // Re-votes signed now: holders from the end of the list, a different set for each measurement.
    const bodies = {
      whileReading: await signReVotes(chain, HOLDERS - POSTS_WHILE_READING.votes, POSTS_WHILE_READING.votes),
      ingest: await signReVotes(chain, HOLDERS - POSTS_WHILE_READING.votes - INGEST.votes, INGEST.votes),
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-scale-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) cleanups.push(postgres.stop)

    const databases: ScaleBenchResult['databases'] = []
    let browserFigures: ScaleBenchResult['browser'] | undefined
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PostgreSQL' && 'skipped' in postgres) {
        databases.push({ database, skipped: postgres.skipped })
        continue
      }
      const storage: { dataDir: string } | { databaseUrl: string } =
        database === 'PGlite' || 'skipped' in postgres
          ? { dataDir: join(dataDir, 'api') }
          : { databaseUrl: postgres.url }
      log(`scale: ${database}: indexing the chain with a fresh TokenIndex`)
      const prepared = await prepareDatabase(chain, small, storage, log)
      const server = await startApiProcess({
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
        ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
      })
      try {
        const figures = await measure(server, chain, small, prepared.deepCursor, bodies, log).then(
          async (m) => ({ ...m, directory: await directoryLatency(server.origin, log) }),
        )
        databases.push({ database, index: prepared.index, seedSeconds: prepared.seedSeconds, ...figures })
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
        }
      } finally {
        await stopApiProcess(server, 'SIGTERM')
      }
    }
    return {
      holders: HOLDERS,
      votes: chain.votes.length,
      setupSeconds: { signing: round1(chain.seconds.signing), holders: round1(chain.seconds.holders) },
      databases,
      browser: browserFigures as ScaleBenchResult['browser'],
      instances3: 'not measured: needs the multi-instance branch (leader lock, shared rate limits)',
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

type Line = { budget: string; value: number; limit: number; unit: string }
function scaleBudget(r: ScaleBenchResult): (Line & { pass: boolean; miss?: string })[] {
  const lines: Line[] = []
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const pg = runs.find((run) => run.database === 'PostgreSQL')
  for (const run of runs) {
    const hundred = run.detail.readers.find((level) => level.concurrency === 100)
    lines.push({
      budget: `${run.database}: detail answer gzip`,
      value: run.detail.gzipBytes,
      limit: SCALE_BUDGET.detailGzipBytes,
      unit: 'B',
    })
    if (hundred)
      lines.push({
        budget: `${run.database}: detail p99 at 100 concurrent readers`,
        value: hundred.latencyMs.p99,
        limit: run.database === 'PostgreSQL' ? SCALE_BUDGET.p99PostgresMs : SCALE_BUDGET.p99PgliteMs,
        unit: 'ms',
      })
    lines.push({
      budget: `${run.database}: vote POST p99 while 20 readers load`,
      value: run.postWhileReading.latencyMs.p99,
      limit: SCALE_BUDGET.postWhileReadingMs,
      unit: 'ms',
    })
  }
  for (const profile of ['desktop', 'phone'] as const) {
    const at = (votes: number) =>
      r.browser.pageLoads.find((load) => load.profile === profile && load.votes === votes)?.resultsMs.median
    const few = at(SMALL_VOTES)
    const many = at(r.votes)
    if (few !== undefined && many !== undefined)
      lines.push({
        budget: `${profile}: page until results, ${r.votes.toLocaleString('en-US')} votes vs 1.2× ${SMALL_VOTES}`,
        value: many,
        limit: Math.round(few * SCALE_BUDGET.pageLoadRatio),
        unit: 'ms',
      })
  }
  const pglite = runs.find((run) => run.database === 'PGlite')
  if (pglite && pg)
    lines.push({
      budget: 'PGlite ingest p99 at 50 concurrent vs 2× PostgreSQL',
      value: pglite.ingest.latencyMs.p99,
      limit: SCALE_BUDGET.ingestRatio * pg.ingest.latencyMs.p99,
      unit: 'ms',
    })
  return lines.map((line) => {
    const pass = line.value <= line.limit
    return pass
      ? { ...line, pass }
      : {
          ...line,
          pass,
          miss: `${line.value - line.limit} ${line.unit} over (${Math.round((line.value / line.limit) * 100) / 100}×)`,
        }
  })
}

const ms = (l: Latency) => [`${l.p50} ms`, `${l.p99} ms`, `${l.max} ms`]

function formatScaleReport(r: ScaleBenchResult): string {
  const runs = r.databases.filter((run): run is DatabaseRun => !('skipped' in run))
  const skipped = r.databases
    .filter((run) => 'skipped' in run)
    .map((run) => `  ${run.database}: skipped (${(run as { skipped: string }).skipped})`)
  const setup = `Scale: ${r.votes.toLocaleString('en-US')} signed votes on one proposal, ${r.holders.toLocaleString('en-US')} delegated holders (signing ${r.setupSeconds.signing} s, 0 when cached; holders on the chain ${r.setupSeconds.holders} s)`
  const prepared = table([
    ['Setup per database', 'index events', 'index time', 'seed time'],
    ...runs.map((run) => [
      run.database,
      run.index.events.toLocaleString('en-US'),
      `${run.index.seconds} s`,
      `${run.seedSeconds} s`,
    ]),
  ])
  const reads = table([
    [
      `GET /api/proposals/:id (${r.votes.toLocaleString('en-US')} votes)`,
      'requests',
      'p50',
      'p99',
      'max',
      'errors',
    ],
    ...runs.flatMap((run) => [
      [`${run.database}: ${run.detail.bytes} B, ${run.detail.gzipBytes} B gzip`, '', '', '', '', ''],
      ...run.detail.readers.map((level) => [
        `  ${level.concurrency} concurrent`,
        String(level.requests),
        ...ms(level.latencyMs),
        String(level.errors),
      ]),
    ]),
  ])
  const list = table([
    ['GET /api/proposals/:id/votes, one reader', 'p50', 'p99', 'max'],
    ...runs.flatMap((run) => [
      [`${run.database}: first page`, ...ms(run.votesList.firstPage)],
      [`${run.database}: after ${DEEP_AFTER.toLocaleString('en-US')}`, ...ms(run.votesList.deepPage)],
      [`${run.database}: log page (GET /api/governance/log)`, ...ms(run.logPage)],
    ]),
  ])
  const writes = table([
    ['Vote POSTs', 'votes', 'votes/s', 'p50', 'p99', 'max', 'non-201'],
    ...runs.flatMap((run) => [
      [
        `${run.database}: ${POSTS_WHILE_READING.concurrency} posting while ${POSTS_WHILE_READING.readers} readers loop`,
        String(run.postWhileReading.votes),
        '',
        ...ms(run.postWhileReading.latencyMs),
        String(run.postWhileReading.errors),
      ],
      [
        `  (the readers: ${run.postWhileReading.readerRequests} reads, ${run.postWhileReading.readerErrors} failed)`,
        '',
        '',
        ...ms(run.postWhileReading.readerLatencyMs),
        '',
      ],
      [
        `${run.database}: ingest at ${run.ingest.concurrency} concurrent, 1 instance`,
        String(run.ingest.votes),
        String(run.ingest.votesPerSecond),
        ...ms(run.ingest.latencyMs),
        String(run.ingest.errors),
      ],
    ]),
  ])
  const instances = `PostgreSQL, 3 instances: ${r.instances3}`
  const exportsTable = table([
    ['GET /api/proposals/:id/bundle', 'size', 'time', 'API RSS before → peak'],
    ...runs.flatMap((run) =>
      run.exports.map((e) => [
        `${run.database}: ${e.votes.toLocaleString('en-US')} votes`,
        `${round1(e.bytes / 1024 / 1024)} MiB`,
        `${e.seconds} s`,
        `${e.baseRssMiB} → ${e.peakRssMiB} MiB`,
      ]),
    ),
  ])
  const pages = table([
    [
      `Proposal page until the results show (${r.browser.database}, median of 3 cold loads)`,
      'median',
      'min',
      'max',
    ],
    ...r.browser.pageLoads.map((load) => [
      `${load.profile}, ${load.votes.toLocaleString('en-US')} votes`,
      `${load.resultsMs.median} ms`,
      `${load.resultsMs.min} ms`,
      `${load.resultsMs.max} ms`,
    ]),
  ])
  const recount = r.browser.recount
    ? `Browser recount ("Verify this result", desktop, ${r.votes.toLocaleString('en-US')}+ votes): ${r.browser.recount.seconds} s; progress shown: ${r.browser.recount.progressSeen.join(', ') || 'none'}; said: ${r.browser.recount.outcome}`
    : 'Browser recount: not measured (below)'
  const failed = r.browser.failures.map((failure) => `  FAILED ${failure}`)
  const budget = table([
    ['Budget (issue 14)', 'measured', 'limit', 'result'],
    ...scaleBudget(r).map((line) => [
      line.budget,
      `${line.value} ${line.unit}`,
      `${line.limit} ${line.unit}`,
      line.pass ? 'pass' : `MISS: ${line.miss}`,
    ]),
  ])
  return [
    setup,
    ...skipped,
    '',
    prepared,
    '',
    reads,
    '',
    list,
    '',
    writes,
    instances,
    '',
    exportsTable,
    '',
    pages,
    recount,
    ...failed,
    '',
    budget,
  ].join('\n')
}

/** The scale section: one run on PGlite and PostgreSQL. */
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
