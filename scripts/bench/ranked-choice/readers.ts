// The ranked-choice section's reads, against one API server: the proposal's answer with its settled rounds
// (its size, raw and gzip), then its latency at 50 concurrent readers after untimed reads that warm the
// process, the API process's CPU per read meanwhile and its resident memory after; then the same readers while
// a vote arrives every second, each making the stored result stale.
import { gzipSync } from 'node:zlib'
import type { ApiProcess } from '@guildhall/api/testbed'
import { get, JSON_HEADERS, type phaseAgents, pool, post } from '../harness/http.ts'
import { cpuMs, rssMiB } from '../harness/processes.ts'
import { latency, round1 } from '../harness/stats.ts'
import { type DatabaseRun, READERS, WHILE_VOTING } from './plan.ts'

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

/**
 * READERS.concurrency readers loop on the proposal while `bodies` (signed votes) are POSTed one every
 * WHILE_VOTING.everyMs: the pace of a closing hour's votes, not a wait for anything.
 */
export async function readWhileVoting(
  phases: Phases,
  server: ApiProcess,
  proposal: string,
  bodies: string[],
  log: (message: string) => void,
): Promise<DatabaseRun['whileVoting']> {
  log(
    `ranked-choice: ${READERS.concurrency} readers while ${bodies.length} votes arrive, one every ${WHILE_VOTING.everyMs} ms`,
  )
  const url = new URL(server.origin)
  const path = `/api/proposals/${proposal}`
  const agent = phases.next()
  let voting = true
  const readSamples: number[] = []
  let readErrors = 0
  let firstError: string | undefined
  const failed = (what: string) => {
    firstError ??= what.slice(0, 300)
  }
  const readers = Array.from({ length: READERS.concurrency }, async () => {
    while (voting) {
      try {
        const reply = await get(agent, url, path)
        readSamples.push(reply.ms)
        if (reply.status !== 200) {
          readErrors++
          failed(`GET ${reply.status} after ${Math.round(reply.ms)} ms: ${reply.body}`)
        }
      } catch (error) {
        readErrors++
        failed(`GET: ${error instanceof Error ? error.message : error}`)
      }
    }
  })
  const voteSamples: number[] = []
  let voteErrors = 0
  const headers = { ...JSON_HEADERS, origin: url.origin }
  const started = performance.now()
  for (const [i, body] of bodies.entries()) {
    const due = started + i * WHILE_VOTING.everyMs
    await new Promise((next) => setTimeout(next, Math.max(0, due - performance.now())))
    try {
      const reply = await post(agent, url, `${path}/votes`, headers, body)
      voteSamples.push(reply.ms)
      if (reply.status !== 201) {
        voteErrors++
        failed(`POST ${reply.status} after ${Math.round(reply.ms)} ms: ${reply.body}`)
      }
    } catch (error) {
      voteErrors++
      failed(`POST: ${error instanceof Error ? error.message : error}`)
    }
  }
  voting = false
  await Promise.all(readers)
  return {
    votes: bodies.length,
    voteLatencyMs: latency(voteSamples),
    voteErrors,
    reads: readSamples.length,
    readLatencyMs: latency(readSamples),
    readMeanMs: round1(readSamples.reduce((sum, ms) => sum + ms, 0) / Math.max(1, readSamples.length)),
    readErrors,
    ...(firstError && { firstError }),
  }
}
