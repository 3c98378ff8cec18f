// The scale section of `npm run bench` (issue 14): one proposal with 100,000 signed votes and 100,000
// delegated holders on the chain (scale-chain.ts), indexed by the real TokenIndex and seeded in bulk
// (scale-seed.ts) into PGlite and into PostgreSQL; then, against the API in a child process on each:
// - the detail answer's size and its latency at 1, 20 and 100 concurrent readers;
// - the votes list's first page and a page after 50,000 votes;
// - vote POST latency while 20 readers loop on the detail and the first votes page;
// - vote ingest at 50 concurrent (re-votes of 1000 holders), PGlite beside PostgreSQL;
// - the bundle export's time and the API process's peak memory, at 100 votes and at 100,000; a log page;
// then on PostgreSQL the same ingest through 1 instance directly, 1 behind HAProxy and 3 behind HAProxy.

import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS, type VoteMessage, voteTypedData } from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { desc, eq, sql } from 'drizzle-orm'
import type { Browser } from 'playwright-core'
import type { Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { voteListCursors } from '../../apps/api/src/governance/vote-list.ts'
import { type Database, openDatabase } from '../../apps/api/src/platform/db/client.ts'
import { ballots } from '../../apps/api/src/platform/db/schema.ts'
import { TokenIndex } from '../../apps/api/src/token/token-index.ts'
import { type ApiProcess, startApiProcess, stopApiProcess } from '../../apps/api/testbed/api-process.ts'
import { type Haproxy, startHaproxy } from '../../apps/api/testbed/haproxy.ts'
import type { BenchContext, SectionResult } from '../bench.ts'
import { ensureHaproxy } from '../system-deps.ts'
import { table } from './report.ts'
import { prepareScaleChain, type ScaleChain } from './scale-chain.ts'
import { directoryLatency, seedNames } from './scale-directory.ts'
import { type BrowserRecount, browserRecount, type PageLoad, resultsLoads } from './scale-page.ts'
import { seedProposalVotes } from './scale-seed.ts'
import { scaleProposalMessage, scaleVoterKey, signScaleProposal, signScaleVotes } from './scale-votes.ts'
import type { DirectoryLatency, InstancesRun, Latency, ScaleInstances } from './schema.ts'
import { cpuMs, latency, pool, post, processCpuMs, round1, startPostgres } from './sign-in.ts'

/** Votes (and holders): SCALE_VOTES overrides it for a quicker run; the budget is judged at 100,000. */
const HOLDERS = Number(process.env.SCALE_VOTES ?? 100_000)
const SMALL_VOTES = 100
const READER_LEVELS = [1, 20, 100]
/** Requests per reader level: enough for a p99 (at least 100 samples) without minutes per level. */
const READS_PER_LEVEL: Record<number, number> = { 1: 100, 20: 600, 100: 3000 }
/**
 * Untimed reads first, at 20 concurrent: a server in a DAO's closing hour has been serving for hours, and a
 * fresh Node process needs a few thousand requests before its code is optimized (measured: 2,000 reads/s in
 * its first thousand at 100 concurrent, 9,500 after five thousand).
 */
const WARM_UP_READS = 3000
/** The deep page starts after this many votes: 50,000 of 100,000, half of a smaller run. */
const DEEP_AFTER = Math.min(50_000, Math.floor(HOLDERS / 2))
/**
 * The V8 heap (old space) of the capped export's server: below the bundle's size at 100,000 votes (80 MiB) and
 * above what the idle API holds (about 40 MiB: 40 does not start), so only a streaming export completes.
 */
const CAPPED_HEAP_MIB = 64
const LIST_READS = 100
const POSTS_WHILE_READING = { votes: 60, concurrency: 4, readers: 20 }
const INGEST = { votes: 1000, concurrency: 50 }
/**
 * The instances comparison re-sends the ingest's votes, signed anew, through each setup; each new instance
 * first takes a few votes of other holders directly (untimed), so no run pays for a process's first requests.
 */
const CLUSTER = { instances: 3, warmUpVotes: 100, warmUpConcurrency: 10 }
/** Re-voting holders, from the end of the list, a different set for each use: the POSTs under readers, the ingest, the warm-ups. */
const WHILE_READING_FROM = HOLDERS - POSTS_WHILE_READING.votes
const INGEST_FROM = WHILE_READING_FROM - INGEST.votes
const WARM_UP_FROM = INGEST_FROM - CLUSTER.instances * CLUSTER.warmUpVotes
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
  /** GET /api/members at the holders' count (scale-directory.ts). */
  directory?: DirectoryLatency
  /** PostgreSQL only: the large bundle from a server with a capped heap. */
  cappedExport?: { heapLimitMiB: number; completed: boolean; bytes: number; seconds: number }
  logPage: Latency
}
type ScaleBenchResult = {
  holders: number
  votes: number
  setupSeconds: { signing: number; holders: number }
  databases: (DatabaseRun | { database: string; skipped: string })[]
  /** On the PostgreSQL server (PGlite's when PostgreSQL is missing). */
  browser: { database: string; pageLoads: PageLoad[]; recount: BrowserRecount | null; failures: string[] }
  instances: ScaleInstances
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

/** Re-votes of holders [from, from + count) for `choice`: a timestamp later than their last vote's replaces it. */
async function signReVotes(
  chain: ScaleChain,
  from: number,
  count: number,
  { choice, timestamp }: { choice: number; timestamp: number },
) {
  const bodies: string[] = []
  for (let i = from; i < from + count; i++) {
    const account = privateKeyToAccount(scaleVoterKey(i))
    const message: VoteMessage = {
      voter: account.address,
      proposal: chain.proposal.id,
      choices: [choice],
      reason: 'Changed my mind.',
      timestamp,
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

/** `bodies` (signed votes) POSTed to `path` with at most `concurrency` in flight: every answer but 201 is an error. */
async function voteBurst(
  agent: Agent,
  url: URL,
  path: string,
  headers: Record<string, string>,
  bodies: string[],
  concurrency: number,
) {
  const samples: number[] = []
  let errors = 0
  const started = performance.now()
  await pool(bodies.length, concurrency, async (i) => {
    try {
      const reply = await post(agent, url, path, headers, bodies[i] as string)
      samples.push(reply.ms)
      if (reply.status !== 201) errors++
    } catch {
      errors++
    }
  })
  const seconds = (performance.now() - started) / 1000
  return { votesPerSecond: Math.round(bodies.length / seconds), latencyMs: latency(samples), errors }
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
    log(`scale: ${WARM_UP_READS} untimed reads of the detail`)
    await pool(WARM_UP_READS, 20, async () => {
      await get(agent, url, detailPath)
    })
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
    const ingest = await voteBurst(agent, url, votesPath, headers, bodies.ingest, INGEST.concurrency)

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
      ingest: { votes: bodies.ingest.length, concurrency: INGEST.concurrency, ...ingest },
      exports,
      logPage: latency(logSamples),
    }
  } finally {
    agent.destroy()
  }
}

/** CPU milliseconds used so far by the child process of this one named `name` (HAProxy); null when not found. */
function childCpuMs(name: string): number | null {
  try {
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
      .trim()
      .split(' ')
    const pid = children
      .map(Number)
      .find((child) => readFileSync(`/proc/${child}/comm`, 'utf8').trim() === name)
    return pid === undefined ? null : processCpuMs(pid)
  } catch {
    return null
  }
}

/** Mean counts of the other sessions on `database`, sampled every 50 ms while `work` runs. */
async function sampleSessions<T>(database: Database, work: () => Promise<T>) {
  type Sessions = InstancesRun['postgresSessions']
  const samples: Sessions[] = []
  let working = true
  const sampler = (async () => {
    while (working) {
      const { rows } = await database.db.execute<Record<keyof Sessions, string>>(
        sql`select count(*) filter (where state = 'active' and wait_event_type is distinct from 'Lock') as "running",
          count(*) filter (where wait_event_type = 'Lock' and query like '%"proposal_tallies"%for update%') as "waitingOnTallyRow",
          count(*) filter (where wait_event_type = 'Lock' and wait_event = 'advisory') as "waitingOnAdvisoryLock",
          count(*) filter (where wait_event_type = 'Lock' and wait_event <> 'advisory'
            and query not like '%"proposal_tallies"%for update%') as "waitingOnOtherLock",
          count(*) filter (where state = 'idle in transaction') as "idleInTransaction"
          from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      )
      const row = rows[0] as Record<keyof Sessions, string>
      samples.push({
        running: Number(row.running),
        waitingOnTallyRow: Number(row.waitingOnTallyRow),
        waitingOnAdvisoryLock: Number(row.waitingOnAdvisoryLock),
        waitingOnOtherLock: Number(row.waitingOnOtherLock),
        idleInTransaction: Number(row.idleInTransaction),
      })
      await new Promise((done) => setTimeout(done, 50))
    }
  })()
  let result: T
  try {
    result = await work()
  } finally {
    working = false
    await sampler
  }
  const mean = (key: keyof Sessions) =>
    round1(samples.reduce((sum, sample) => sum + sample[key], 0) / Math.max(1, samples.length))
  return {
    result,
    sessions: {
      running: mean('running'),
      waitingOnTallyRow: mean('waitingOnTallyRow'),
      waitingOnAdvisoryLock: mean('waitingOnAdvisoryLock'),
      waitingOnOtherLock: mean('waitingOnOtherLock'),
      idleInTransaction: mean('idleInTransaction'),
    },
  }
}

/**
 * The ingest's votes again on PostgreSQL, signed anew for each run (a later timestamp, another choice: every
 * vote replaces a ballot), through 1 instance directly, 1 behind HAProxy, then 3 behind HAProxy. The
 * instances are configured as `npm run cluster` configures them; the instances' CPU is summed.
 */
/**
 * The bundle from a second server on the same database whose V8 heap is capped below the bundle's size: it
 * completes only if the export streams (a server holding the bundle would die of an out-of-memory error).
 */
async function cappedExport(
  apiEnv: Record<string, string>,
  databaseUrl: string,
  proposal: string,
): Promise<NonNullable<DatabaseRun['cappedExport']>> {
  const server = await startApiProcess(
    { ...apiEnv, DATABASE_URL: databaseUrl },
    { nodeFlags: [`--max-old-space-size=${CAPPED_HEAP_MIB}`] },
  )
  const agent = new Agent({ keepAlive: false })
  try {
    const reply = await get(
      agent,
      new URL(server.origin),
      `/api/proposals/${proposal}/bundle`,
      () => {},
    ).catch(() => ({ status: 0, bytes: 0, ms: 0 }))
    return {
      heapLimitMiB: CAPPED_HEAP_MIB,
      completed: reply.status === 200,
      bytes: reply.bytes,
      seconds: round1(reply.ms / 1000),
    }
  } finally {
    agent.destroy()
    await stopApiProcess(server, 'SIGTERM')
  }
}

async function measureInstances(
  chain: ScaleChain,
  postgres: { url: string; serverCpuMs: (() => number) | null },
  apiEnv: Record<string, string>,
  lastSignedAt: number,
  log: (message: string) => void,
): Promise<ScaleInstances> {
  const proxyPort = await getFreePort()
  const proxyOrigin = `http://127.0.0.1:${proxyPort}`
  const env = { ...apiEnv, DATABASE_URL: postgres.url, PUBLIC_ORIGIN: proxyOrigin, TRUST_PROXY: '127.0.0.1' }
  const headers = { ...REQUEST_HEADERS, origin: proxyOrigin }
  const votesPath = `/api/proposals/${chain.proposal.id}/votes`
  const apis: ApiProcess[] = []
  let haproxy: Haproxy | undefined
  // The bench's own connection, for pg_stat_activity.
  const observer = await openDatabase({ databaseUrl: postgres.url })
  let signedAt = lastSignedAt
  const nextTimestamp = () => {
    signedAt = Math.max(Math.floor(Date.now() / 1000), signedAt + 1)
    return signedAt
  }

  const addInstance = async () => {
    const api = await startApiProcess(env)
    const from = WARM_UP_FROM + apis.length * CLUSTER.warmUpVotes
    apis.push(api)
    const bodies = await signReVotes(chain, from, CLUSTER.warmUpVotes, {
      choice: 2,
      timestamp: nextTimestamp(),
    })
    const agent = new Agent({ keepAlive: true })
    try {
      const warmUp = await voteBurst(
        agent,
        new URL(api.origin),
        votesPath,
        headers,
        bodies,
        CLUSTER.warmUpConcurrency,
      )
      if (warmUp.errors > 0)
        throw new Error(`warm-up of ${api.origin}: ${warmUp.errors} votes not stored:\n${api.output()}`)
    } finally {
      agent.destroy()
    }
  }
  const cpuSoFar = async () => ({
    apiServers: (await Promise.all(apis.map((api) => api.cpu()))).reduce(
      (sum, usage) => sum + cpuMs(usage),
      0,
    ),
    databaseServer: postgres.serverCpuMs?.() ?? null,
    proxy: haproxy ? childCpuMs('haproxy') : null,
    loadGenerator: cpuMs(process.cpuUsage()),
  })
  const runs: InstancesRun[] = []
  const run = async (target: string) => {
    const proxy = haproxy ? 'HAProxy' : 'none'
    const choice = runs.length % 2 === 0 ? 3 : 1
    const bodies = await signReVotes(chain, INGEST_FROM, INGEST.votes, { choice, timestamp: nextTimestamp() })
    log(`scale: ingest through ${apis.length} instance(s), proxy: ${proxy}`)
    const agent = new Agent({ keepAlive: true, maxSockets: 200 })
    try {
      const before = await cpuSoFar()
      const { result: burst, sessions } = await sampleSessions(observer, () =>
        voteBurst(agent, new URL(target), votesPath, headers, bodies, INGEST.concurrency),
      )
      const after = await cpuSoFar()
      const perVote = (spent: number) => round1(spent / bodies.length)
      const measured = (from: number | null, to: number | null) =>
        from === null || to === null ? null : perVote(to - from)
      runs.push({
        proxy,
        instances: apis.length,
        ...burst,
        cpuMsPerVote: {
          apiServers: perVote(after.apiServers - before.apiServers),
          databaseServer: measured(before.databaseServer, after.databaseServer),
          proxy: measured(before.proxy, after.proxy),
          loadGenerator: perVote(after.loadGenerator - before.loadGenerator),
        },
        postgresSessions: sessions,
      })
    } finally {
      agent.destroy()
    }
  }
  const proxyTo = async () => {
    await haproxy?.stop()
    haproxy = await startHaproxy({ port: proxyPort, instances: apis.map((api) => new URL(api.origin).host) })
  }

  try {
    await addInstance()
    await run((apis[0] as ApiProcess).origin)
    await proxyTo()
    await run(proxyOrigin)
    while (apis.length < CLUSTER.instances) await addInstance()
    await proxyTo()
    await run(proxyOrigin)
  } finally {
    await haproxy?.stop()
    await Promise.all(apis.map((api) => stopApiProcess(api, 'SIGTERM')))
    await observer.close()
  }
  return {
    database: 'PostgreSQL',
    cores: cpus().length,
    votes: INGEST.votes,
    concurrency: INGEST.concurrency,
    warmUpVotes: CLUSTER.warmUpVotes,
    runs,
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
      const storage: { dataDir: string } | { databaseUrl: string } =
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
  const capped = pg?.cappedExport
  if (capped)
    lines.push({
      // The heap a server needs to stream the bundle, against the bundle's own size: met only if it streams.
      budget: `PostgreSQL: heap that streams the ${r.votes.toLocaleString('en-US')}-vote bundle vs its size`,
      value: capped.completed ? capped.heapLimitMiB : Number.MAX_SAFE_INTEGER,
      limit: Math.floor(capped.bytes / 1024 / 1024),
      unit: 'MiB',
    })
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

function formatInstances(i: ScaleInstances): string {
  if ('skipped' in i) return `Vote ingest with 1 and 3 instances: skipped (${i.skipped})`
  const label = (run: InstancesRun) =>
    `${run.instances} instance${run.instances > 1 ? 's' : ''}${run.proxy === 'none' ? ', direct' : ` behind ${run.proxy}`}`
  const cpu = (n: number | null) => (n === null ? '–' : `${n} ms`)
  /** The cores the measured processes kept busy over the run: CPU per vote × votes per second. */
  const busy = (run: InstancesRun) => {
    const { apiServers, databaseServer, proxy, loadGenerator } = run.cpuMsPerVote
    return round1(
      ((apiServers + (databaseServer ?? 0) + (proxy ?? 0) + loadGenerator) * run.votesPerSecond) / 1000,
    )
  }
  const throughput = table([
    [
      `Vote ingest, ${i.database}: ${i.votes} re-votes at ${i.concurrency} concurrent`,
      'votes/s',
      'p50',
      'p99',
      'max',
      'non-201',
    ],
    ...i.runs.map((run) => [
      label(run),
      String(run.votesPerSecond),
      ...ms(run.latencyMs),
      String(run.errors),
    ]),
  ])
  const where = table([
    [
      'CPU per vote; PostgreSQL sessions (mean)',
      'API',
      i.database,
      'HAProxy',
      'load gen.',
      'cores busy',
      'running',
      'tally row',
      'advisory',
      'other lock',
      'idle in tx',
    ],
    ...i.runs.map((run) => [
      label(run),
      cpu(run.cpuMsPerVote.apiServers),
      cpu(run.cpuMsPerVote.databaseServer),
      cpu(run.cpuMsPerVote.proxy),
      cpu(run.cpuMsPerVote.loadGenerator),
      String(busy(run)),
      String(run.postgresSessions.running),
      String(run.postgresSessions.waitingOnTallyRow),
      String(run.postgresSessions.waitingOnAdvisoryLock),
      String(run.postgresSessions.waitingOnOtherLock),
      String(run.postgresSessions.idleInTransaction),
    ]),
  ])
  const one = i.runs.find((run) => run.instances === 1 && run.proxy !== 'none')
  const many = i.runs.find((run) => run.instances > 1)
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100
  const lockWaits = (run: InstancesRun) =>
    round1(
      run.postgresSessions.waitingOnTallyRow +
        run.postgresSessions.waitingOnAdvisoryLock +
        run.postgresSessions.waitingOnOtherLock,
    )
  const compared =
    one && many
      ? [
          `  Measured, ${label(many)} against 1: ${ratio(many.votesPerSecond, one.votesPerSecond)}× the votes/s, ${ratio(many.latencyMs.p99, one.latencyMs.p99)}× the p99, ${ratio(many.cpuMsPerVote.apiServers, one.cpuMsPerVote.apiServers)}× the API CPU per vote; lock waits ${lockWaits(one)} → ${lockWaits(many)}.`,
        ]
      : []
  return [
    throughput,
    where,
    `  ${i.cores} cores run every process above and whatever else the machine runs: more instances cannot add throughput`,
    `  here, the rows show what spreading one proposal's votes over processes costs.`,
    ...compared,
    `  Each new instance took ${i.warmUpVotes} votes first (untimed); every vote replaced a ballot; rate limits counted in ${i.database}.`,
    '  cores busy = the four CPU columns × votes/s.',
  ].join('\n')
}

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
  const instances = formatInstances(r.instances)
  const exportsTable = table([
    ['GET /api/proposals/:id/bundle', 'size', 'time', 'API RSS before → peak'],
    ...runs.flatMap((run) => [
      ...run.exports.map((e) => [
        `${run.database}: ${e.votes.toLocaleString('en-US')} votes`,
        `${round1(e.bytes / 1024 / 1024)} MiB`,
        `${e.seconds} s`,
        `${e.baseRssMiB} → ${e.peakRssMiB} MiB`,
      ]),
      ...(run.cappedExport
        ? [
            [
              `${run.database}: ${HOLDERS.toLocaleString('en-US')} votes, heap capped at ${run.cappedExport.heapLimitMiB} MiB`,
              `${round1(run.cappedExport.bytes / 1024 / 1024)} MiB`,
              run.cappedExport.completed ? `${run.cappedExport.seconds} s` : 'FAILED',
              '',
            ],
          ]
        : []),
    ]),
  ])
  const directory = table([
    [`GET /api/members (${r.holders.toLocaleString('en-US')} holders), one reader`, 'p50', 'p99', 'max'],
    ...runs.flatMap((run) =>
      run.directory
        ? [
            ...run.directory.sorted.flatMap((order) => [
              [`${run.database}: by ${order.sort}, first page`, ...ms(order.firstPage)],
              [`${run.database}: by ${order.sort}, 40 pages in`, ...ms(order.deepPage)],
            ]),
            [`${run.database}: searched by the start of an address`, ...ms(run.directory.searched)],
            [`${run.database}: searched, by participation`, ...ms(run.directory.searchedSorted)],
            ...(run.directory.searchedByName
              ? [[`${run.database}: searched by the start of a name`, ...ms(run.directory.searchedByName)]]
              : []),
          ]
        : [],
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
    '',
    instances,
    '',
    exportsTable,
    '',
    directory,
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
