// Vote POSTs (the scale and closing-hour sections): signed votes sent at a given concurrency, timed, every
// answer but 201 an error; the ingests, and each instance's warm-up.
import type { Agent } from 'node:http'
import { pool, post } from './http.ts'
import { latency } from './stats.ts'

/** One vote's answer: when it was sent and when its answer was read (performance.now()), and its status (0: none). */
export type VoteAnswer = { sentAt: number; answeredAt: number; status: number }

/**
 * `bodies` (signed votes) POSTed to `path` with at most `concurrency` in flight: every answer but 201 is an
 * error; `onAnswer` is told of each (by its index in `bodies`).
 */
export async function voteBurst(
  agent: Agent,
  url: URL,
  path: string,
  headers: Record<string, string>,
  bodies: string[],
  concurrency: number,
  onAnswer?: (index: number, answer: VoteAnswer) => void,
) {
  const samples: number[] = []
  let errors = 0
  let firstError: string | undefined
  const started = performance.now()
  await pool(bodies.length, concurrency, async (i) => {
    const sentAt = performance.now()
    try {
      const reply = await post(agent, url, path, headers, bodies[i] as string)
      samples.push(reply.ms)
      onAnswer?.(i, { sentAt, answeredAt: sentAt + reply.ms, status: reply.status })
      if (reply.status !== 201) {
        errors++
        firstError ??= `${reply.status} ${reply.body.slice(0, 200)}`
      }
    } catch (error) {
      onAnswer?.(i, { sentAt, answeredAt: performance.now(), status: 0 })
      errors++
      firstError ??= String(error).slice(0, 200)
    }
  })
  const seconds = (performance.now() - started) / 1000
  return {
    votesPerSecond: Math.round(bodies.length / seconds),
    latencyMs: latency(samples),
    errors,
    firstError,
  }
}
