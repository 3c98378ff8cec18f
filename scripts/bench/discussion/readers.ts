// The discussion section's reads, against one API server: the large thread's first page (its size, raw and
// gzip), then its latency at 50 concurrent readers after untimed reads that warm the process, and the API
// process's CPU per read meanwhile (on a machine busy with other work, the part of a latency that is the
// server's own).
import { gzipSync } from 'node:zlib'
import type { ApiProcess } from '@guildhall/api/testbed'
import { get, type phaseAgents, pool } from '../harness/http.ts'
import { cpuMs } from '../harness/processes.ts'
import { latency, round1 } from '../harness/stats.ts'
import { type DatabaseRun, READERS } from './plan.ts'

type Phases = ReturnType<typeof phaseAgents>

/** The path of a thread's first page, as the proposal page asks for it. */
const firstPagePath = (thread: string) => `/api/threads/${thread}/items`

export async function readFirstPage(
  phases: Phases,
  server: ApiProcess,
  thread: string,
  log: (message: string) => void,
): Promise<DatabaseRun['firstPage']> {
  const url = new URL(server.origin)
  const path = firstPagePath(thread)
  const first = await get(phases.current, url, path)
  if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.body.slice(0, 200)}`)
  const items = (JSON.parse(first.body) as { items: unknown[] }).items.length
  log(`discussion: ${READERS.warmUp} untimed reads of the first page`)
  await pool(READERS.warmUp, 20, async () => {
    await get(phases.current, url, path)
  })
  log(`discussion: the first page at ${READERS.concurrency} concurrent readers`)
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
    items,
    bytes: Buffer.byteLength(first.body),
    gzipBytes: gzipSync(first.body).length,
    readers: {
      concurrency: READERS.concurrency,
      requests: READERS.reads,
      latencyMs: latency(samples),
      errors,
      cpuMsPerRequest: round1(cpu / READERS.reads),
    },
  }
}
