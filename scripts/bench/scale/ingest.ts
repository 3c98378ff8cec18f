// The scale section's vote POSTs: signed votes sent at a given concurrency, timed, every answer but 201 an
// error; the ingest itself, and each instance's warm-up in the cluster comparison.
import type { Agent } from 'node:http'
import { pool, post } from '../harness/http.ts'
import { latency } from '../harness/stats.ts'

/** `bodies` (signed votes) POSTed to `path` with at most `concurrency` in flight: every answer but 201 is an error. */
export async function voteBurst(
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
