// The ranked-choice section's reads, against one API server: the proposal's answer with its settled rounds
// (its size, raw and gzip), then its latency at 50 concurrent readers after untimed reads that warm the
// process, the API process's CPU per read meanwhile and its resident memory after.
import { gzipSync } from 'node:zlib'
import type { ApiProcess } from '@guildhall/api/testbed'
import { get, type phaseAgents, pool } from '../harness/http.ts'
import { cpuMs, rssMiB } from '../harness/processes.ts'
import { latency, round1 } from '../harness/stats.ts'
import { type DatabaseRun, READERS } from './plan.ts'

type Phases = ReturnType<typeof phaseAgents>

export async function readProposal(
  phases: Phases,
  server: ApiProcess,
  proposal: string,
  log: (message: string) => void,
): Promise<Pick<DatabaseRun, 'detail' | 'readers' | 'serverRssMiB'>> {
  const url = new URL(server.origin)
  const path = `/api/proposals/${proposal}`
  const first = await get(phases.current, url, path)
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.body.slice(0, 200)}`)
  log(`ranked-choice: ${READERS.warmUp} untimed reads of the proposal`)
  await pool(READERS.warmUp, 20, async () => {
    await get(phases.current, url, path)
  })
  log(`ranked-choice: the proposal at ${READERS.concurrency} concurrent readers`)
  const agent = phases.next()
  const samples: number[] = []
  let errors = 0
  const cpuBefore = await server.cpu()
  await pool(READERS.reads, READERS.concurrency, async () => {
    try {
      const reply = await get(agent, url, path)
      samples.push(reply.ms)
      if (reply.status !== 200) errors++
    } catch {
      errors++
    }
  })
  const cpu = cpuMs(await server.cpu()) - cpuMs(cpuBefore)
  return {
    detail: { bytes: Buffer.byteLength(first.body), gzipBytes: gzipSync(first.body).length },
    readers: {
      concurrency: READERS.concurrency,
      requests: READERS.reads,
      latencyMs: latency(samples),
      meanMs: round1(samples.reduce((sum, ms) => sum + ms, 0) / Math.max(1, samples.length)),
      errors,
      cpuMsPerRequest: round1(cpu / READERS.reads),
    },
    serverRssMiB: rssMiB(server.child.pid as number),
  }
}
