// The scale section's cluster comparison on PostgreSQL: the ingest's votes through 1 instance directly, 1
// behind HAProxy and 3 behind HAProxy, with every process's CPU per vote and what the database's sessions
// were doing meanwhile.

import { Agent } from 'node:http'
import { cpus } from 'node:os'
import { openDatabase } from '@guildhall/api/database'
import {
  type ApiProcess,
  type Haproxy,
  startApiProcess,
  startHaproxy,
  stopApiProcess,
} from '@guildhall/api/testbed'
import { supersedingTimestamp } from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { signReVotes } from '../harness/holder-votes.ts'
import type { ScaleChain } from '../harness/holders.ts'
import { JSON_HEADERS } from '../harness/http.ts'
import { childCpuMs, cpuMs } from '../harness/processes.ts'
import type { InstancesRun, ScaleInstances } from '../harness/schema.ts'
import { sampleSessions } from '../harness/sessions.ts'
import { round1 } from '../harness/stats.ts'
import { voteBurst } from '../harness/vote-burst.ts'
import { CLUSTER, INGEST, INGEST_FROM, WARM_UP_FROM } from './plan.ts'

/**
 * The ingest's votes again on PostgreSQL, signed anew for each run (a later timestamp, another choice: every
 * vote replaces a ballot), through 1 instance directly, 1 behind HAProxy, then 3 behind HAProxy. The
 * instances are configured as `npm run cluster` configures them; the instances' CPU is summed.
 */
export async function measureInstances(
  chain: ScaleChain,
  postgres: { url: string; serverCpuMs: (() => number) | null },
  apiEnv: Record<string, string>,
  lastSignedAt: number,
  log: (message: string) => void,
): Promise<ScaleInstances> {
  const proxyPort = await getFreePort()
  const proxyOrigin = `http://127.0.0.1:${proxyPort}`
  const env = { ...apiEnv, DATABASE_URL: postgres.url, PUBLIC_ORIGIN: proxyOrigin, TRUST_PROXY: '127.0.0.1' }
  const headers = { ...JSON_HEADERS, origin: proxyOrigin }
  const votesPath = `/api/proposals/${chain.proposal.id}/votes`
  const apis: ApiProcess[] = []
  let haproxy: Haproxy | undefined
  // The bench's own connection, for pg_stat_activity.
  const observer = await openDatabase({ databaseUrl: postgres.url })
  let signedAt = lastSignedAt
  const nextTimestamp = () => {
    signedAt = supersedingTimestamp(Date.now(), { timestamp: signedAt })
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
