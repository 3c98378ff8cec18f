// The treasury section's reads against one API server: history pages at 20 concurrent readers, after
// untimed reads that warm the process: the first page, the first page of a filter (outgoing), and a page
// DEEP_PAGES pages in (its cursor followed from the first page). Besides the latency, the server's CPU per
// request: on a machine shared with other jobs the latency is mostly the wait for a core, the CPU is not.

import type { ApiProcess } from '@guildhall/api/testbed'
import { get, type phaseAgents, pool } from '../harness/http.ts'
import { cpuMs } from '../harness/processes.ts'
import type { TreasuryBenchResult } from '../harness/schema.ts'
import { latency, round1 } from '../harness/stats.ts'
import { DEEP_PAGES, HISTORY_READERS } from './plan.ts'

type Phases = ReturnType<typeof phaseAgents>

type Run = Extract<TreasuryBenchResult['databases'][number], { history: unknown }>
type HistoryReads = Run['history'][number]

const HISTORY = '/api/treasury/history'

/** The path of the page `pages` pages after the first (following `next`). */
async function deepPath(phases: Phases, url: URL, pages: number): Promise<string> {
  let path = HISTORY
  for (let i = 0; i < pages; i++) {
    const reply = await get(phases.current, url, path)
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body.slice(0, 200)}`)
    const { next } = JSON.parse(reply.body) as { next: string | null }
    if (!next) throw new Error(`the history ended after ${i + 1} pages`)
    path = `${HISTORY}?cursor=${encodeURIComponent(next)}`
  }
  return path
}

export async function readHistory(
  phases: Phases,
  server: ApiProcess,
  log: (message: string) => void,
): Promise<HistoryReads[]> {
  const url = new URL(server.origin)
  const paths = {
    first: HISTORY,
    outgoing: `${HISTORY}?direction=outgoing`,
    deep: await deepPath(phases, url, DEEP_PAGES),
  }
  const { concurrency, warmUp, reads } = HISTORY_READERS
  log(`treasury: ${warmUp} untimed history reads`)
  const all = Object.values(paths)
  await pool(warmUp, concurrency, async (i) => {
    await get(phases.current, url, all[i % all.length] as string)
  })
  const results: HistoryReads[] = []
  for (const [page, path] of Object.entries(paths) as [HistoryReads['page'], string][]) {
    const agent = phases.next()
    log(`treasury: history, ${page} page, at ${concurrency} concurrent readers`)
    const samples: number[] = []
    let errors = 0
    const cpuBefore = await server.cpu()
    await pool(reads, concurrency, async () => {
      try {
        const reply = await get(agent, url, path)
        samples.push(reply.ms)
        if (reply.status !== 200) errors++
      } catch {
        errors++
      }
    })
    const cpu = cpuMs(await server.cpu()) - cpuMs(cpuBefore)
    results.push({
      page,
      path,
      requests: reads,
      latencyMs: latency(samples),
      errors,
      cpuMsPerRequest: round1(cpu / reads),
    })
  }
  return results
}
