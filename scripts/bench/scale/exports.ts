// The scale section's exports: each proposal's bundle with the API process's resident memory sampled
// meanwhile, a page of the governance log, and the large bundle from a server whose heap is capped below
// its size.
import { Agent } from 'node:http'
import { type ApiProcess, startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import { get } from '../harness/http.ts'
import { rssMiB } from '../harness/processes.ts'
import { latency, round1 } from '../harness/stats.ts'
import { CAPPED_HEAP_MIB, type DatabaseRun, DEEP_AFTER } from './plan.ts'

/** Each of `bundles` (votes, proposal id) exported in turn, timed, with the server's RSS before and at its peak; then 20 log pages. */
export async function exportBundles(
  agent: Agent,
  server: ApiProcess,
  bundles: ReadonlyArray<readonly [number, string]>,
): Promise<Pick<DatabaseRun, 'exports' | 'logPage'>> {
  const url = new URL(server.origin)
  const exports: DatabaseRun['exports'] = []
  for (const [votes, proposal] of bundles) {
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
  return { exports, logPage: latency(logSamples) }
}

/**
 * The bundle from a second server on the same database whose V8 heap is capped below the bundle's size: it
 * completes only if the export streams (a server holding the bundle would die of an out-of-memory error).
 */
export async function cappedExport(
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
