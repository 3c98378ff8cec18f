// One setup of the closing hour: a database of its own (the holders indexed, the proposal stored), 1 or 3
// API instances (each with its /metrics on a loopback port of its own), each warmed up directly, then the
// timed votes at CONCURRENCY through the instance or HAProxy, with the processes' CPU, PostgreSQL's
// sessions, the log lock's figures and, when asked, the live streams on the proposal.
import { Agent } from 'node:http'
import { sharedMachineSignatureThreads } from '@guildhall/api'
import { governanceLog, openDatabase } from '@guildhall/api/database'
import {
  type ApiProcess,
  type Haproxy,
  startApiProcess,
  startHaproxy,
  stopApiProcess,
} from '@guildhall/api/testbed'
import { getFreePort } from '@guildhall/devchain/anvil'
import { and, eq } from 'drizzle-orm'
import type { ScaleChain } from '../harness/holders.ts'
import { JSON_HEADERS } from '../harness/http.ts'
import { cpuMs, rssKiB } from '../harness/processes.ts'
import type { ClosingHourRun } from '../harness/schema.ts'
import { sampleSessions } from '../harness/sessions.ts'
import { round1, round3 } from '../harness/stats.ts'
import { type Storage, withIndexedDatabase } from '../harness/storage.ts'
import { type VoteAnswer, voteBurst } from '../harness/vote-burst.ts'
import { type SeedVote, seedProposalVotes } from '../harness/vote-seed.ts'
import { readAllLockFigures } from './metrics.ts'
import { CONCURRENCY, INDEX_MAX_RANGE, STREAM_CATCH_UP_MS, WARM_UP } from './plan.ts'
import { openStreams, streamDelays, streamsCaughtUp } from './streams.ts'

/**
 * The database before the server: migrated, the holders indexed, the proposal stored, its members counted; so
 * the server does not spend the timed requests' CPU catching its token index up, as no server long before its
 * closing hour does.
 */
export function prepareDatabase(chain: ScaleChain, storage: Storage) {
  return withIndexedDatabase(chain, storage, INDEX_MAX_RANGE, async (database, index) => {
    await index.syncOnce()
    await seedProposalVotes(database, chain.proposal, [])
    // The index counts the proposal into the members directory once past its snapshot (ADR 030): done here,
    // as in a DAO long before its closing hour, not under the timed votes.
    await index.syncOnce()
  })
}

export async function measureSetup({
  setup,
  database,
  instances,
  storage,
  chain,
  votes,
  apiEnv,
  bodies,
  postgresCpuMs,
  serverFile,
  streams: streamCount,
  log,
}: {
  setup: string
  database: 'PostgreSQL' | 'PGlite'
  instances: number
  storage: Storage
  chain: ScaleChain
  /** The votes `bodies` hold, in the same order (their ids find their log entries). */
  votes: SeedVote[]
  apiEnv: Record<string, string>
  /** The timed votes and the warm-up votes (WARM_UP.votesPerInstance per instance), signed. */
  bodies: { timed: string[]; warmUp: string[] }
  postgresCpuMs: (() => number) | null
  /** The built server every instance runs (plain node). */
  serverFile: string
  /** Live streams to hold open on the proposal during the timed votes (0: none). */
  streams: number
  log: (message: string) => void
}): Promise<ClosingHourRun> {
  log(
    `closing hour: ${setup}: indexing ${bodies.timed.length + bodies.warmUp.length} holders, storing the proposal`,
  )
  await prepareDatabase(chain, storage)
  const proxyPort = instances > 1 ? await getFreePort() : undefined
  const proxyOrigin = proxyPort === undefined ? undefined : `http://127.0.0.1:${proxyPort}`
  const votesPath = `/api/proposals/${chain.proposal.id}/votes`
  const apis: ApiProcess[] = []
  const metricsPorts: number[] = []
  let haproxy: Haproxy | undefined
  const observer = 'databaseUrl' in storage ? await openDatabase(storage) : undefined
  const closeStreams: Array<() => void> = []
  try {
    for (let n = 0; n < instances; n++) {
      const metricsPort = await getFreePort()
      metricsPorts.push(metricsPort)
      const api = await startApiProcess(
        {
          ...apiEnv,
          // Instances sharing one machine share its cores (docs/deploy.md): each gets its part of them.
          SIGNATURE_THREADS: String(sharedMachineSignatureThreads(instances)),
          ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
          METRICS_PORT: String(metricsPort),
          ...(proxyOrigin && { PUBLIC_ORIGIN: proxyOrigin, TRUST_PROXY: '127.0.0.1' }),
        },
        { built: serverFile },
      )
      apis.push(api)
      const agent = new Agent({ keepAlive: true })
      try {
        const from = n * WARM_UP.votesPerInstance
        const warmUp = await voteBurst(
          agent,
          new URL(api.origin),
          votesPath,
          { ...JSON_HEADERS, origin: proxyOrigin ?? api.origin },
          bodies.warmUp.slice(from, from + WARM_UP.votesPerInstance),
          WARM_UP.concurrency,
        )
        if (warmUp.errors > 0)
          throw new Error(`warm-up of ${api.origin}: ${warmUp.firstError}\n${api.output()}`)
      } finally {
        agent.destroy()
      }
    }
    if (proxyPort !== undefined)
      haproxy = await startHaproxy({
        port: proxyPort,
        instances: apis.map((api) => new URL(api.origin).host),
      })
    const target = proxyOrigin ?? (apis[0] as ApiProcess).origin

    // The watchers, on the one instance (their memory is its): open before the votes, as in a closing hour.
    let opened: Awaited<ReturnType<typeof openStreams>> = []
    let apiRssMiB = { before: 0, open: 0 }
    if (streamCount > 0) {
      const pid = (apis[0] as ApiProcess).child.pid as number
      const before = rssKiB(pid)
      log(`closing hour: ${setup}: opening ${streamCount} live streams on the proposal`)
      opened = await openStreams(target, `/api/proposals/${chain.proposal.id}/events`, streamCount)
      for (const stream of opened) closeStreams.push(stream.close)
      const open = rssKiB(pid)
      apiRssMiB = { before: round1(before / 1024), open: round1(open / 1024) }
    }

    log(`closing hour: ${setup}: ${bodies.timed.length} votes at ${CONCURRENCY} concurrent`)
    const answers: VoteAnswer[] = []
    const cpuSoFar = async () => ({
      apiServers: (await Promise.all(apis.map((api) => api.cpu()))).reduce((sum, u) => sum + cpuMs(u), 0),
      databaseServer: postgresCpuMs?.() ?? null,
      loadGenerator: cpuMs(process.cpuUsage()),
    })
    const lockBefore = await readAllLockFigures(metricsPorts)
    const before = await cpuSoFar()
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    const headers = { ...JSON_HEADERS, origin: target }
    const burst = () =>
      voteBurst(agent, new URL(target), votesPath, headers, bodies.timed, CONCURRENCY, (i, answer) => {
        answers[i] = answer
      })
    const { result, sessions } = observer
      ? await sampleSessions(observer, burst)
      : { result: await burst(), sessions: null }
    agent.destroy()
    const after = await cpuSoFar()
    const lockAfter = await readAllLockFigures(metricsPorts)
    // To the microsecond: the cores-left limit and the API's share of the floor are computed from these.
    const perVote = (ms: number) => round3(ms / bodies.timed.length)

    const accepted = lockBefore && lockAfter ? lockAfter.accepted - lockBefore.accepted : 0
    const run: ClosingHourRun = {
      setup,
      database,
      instances,
      votes: bodies.timed.length,
      concurrency: CONCURRENCY,
      votesPerSecond: result.votesPerSecond,
      latencyMs: result.latencyMs,
      errors: result.errors,
      ...(result.firstError && { firstError: result.firstError }),
      cpuMsPerVote: {
        apiServers: perVote(after.apiServers - before.apiServers),
        databaseServer:
          before.databaseServer === null || after.databaseServer === null
            ? null
            : perVote(after.databaseServer - before.databaseServer),
        loadGenerator: perVote(after.loadGenerator - before.loadGenerator),
      },
      postgresSessions: sessions && {
        ...sessions,
        waitingOnAnyLock: round1(
          sessions.waitingOnTallyRow + sessions.waitingOnAdvisoryLock + sessions.waitingOnOtherLock,
        ),
      },
      logLock:
        lockBefore && lockAfter && accepted > 0
          ? {
              acceptedVotes: accepted,
              transactions: lockAfter.transactions - lockBefore.transactions,
              holdMsPerVote: ((lockAfter.holdSeconds - lockBefore.holdSeconds) * 1000) / accepted,
              waitMsPerVote: ((lockAfter.waitSeconds - lockBefore.waitSeconds) * 1000) / accepted,
            }
          : {
              skipped:
                lockBefore && lockAfter
                  ? 'no vote accepted'
                  : 'the API serves no guildhall_log_lock_hold_seconds on METRICS_PORT (metrics not on this branch)',
            },
    }

    if (streamCount > 0) {
      if (!observer) throw new Error('live streams are measured on PostgreSQL only')
      // Each vote's log entry, by its id: the tallies it is in are those at or past it.
      const logged = await observer.db
        .select({ messageId: governanceLog.messageId, seq: governanceLog.seq })
        .from(governanceLog)
        .where(and(eq(governanceLog.proposalId, chain.proposal.id), eq(governanceLog.kind, 'vote')))
      const seqOf = new Map(logged.map((row) => [row.messageId.toLowerCase(), row.seq]))
      const timed = votes.slice(0, bodies.timed.length).flatMap((vote, i) => {
        const seq = seqOf.get(vote.id.toLowerCase())
        const answer = answers[i]
        return seq !== undefined && answer?.status === 201 ? [{ seq, answer }] : []
      })
      const lastSeq = Math.max(0, ...timed.map((vote) => vote.seq))
      await streamsCaughtUp(opened, lastSeq, STREAM_CATCH_UP_MS)
      const lost = opened.filter((stream) => stream.lost)
      run.live = {
        streams: opened.length,
        lost: lost.length,
        ...(lost[0]?.lost && { firstLoss: lost[0].lost }),
        apiRssMiB,
        rssKiBPerStream: round1(((apiRssMiB.open - apiRssMiB.before) * 1024) / Math.max(1, opened.length)),
        ...streamDelays(opened, timed),
      }
    }
    return run
  } finally {
    for (const close of closeStreams) close()
    await haproxy?.stop()
    await Promise.all(apis.map((api) => stopApiProcess(api, 'SIGTERM')))
    await observer?.close()
  }
}
