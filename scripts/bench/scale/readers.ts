// The scale section's reads, against one API server: the proposal's detail at 1, 20 and 100 concurrent
// readers (after untimed reads that warm the process), the votes list's first page and a deep page, and
// vote POSTs while readers loop on the detail and the first votes page.
import { gzipSync } from 'node:zlib'
import { get, JSON_HEADERS, type phaseAgents, pool, post } from '../harness/http.ts'
import { latency } from '../harness/stats.ts'
import {
  type DatabaseRun,
  DEEP_AFTER,
  LIST_READS,
  POSTS_WHILE_READING,
  READER_LEVELS,
  READS_PER_LEVEL,
  WARM_UP_READS,
} from './plan.ts'

type Phases = ReturnType<typeof phaseAgents>
const detailPath = (proposal: string) => `/api/proposals/${proposal}`
const votesPath = (proposal: string) => `/api/proposals/${proposal}/votes`

/** The detail's size, then its latency at each reader level, a fresh agent per level. */
export async function readDetail(
  phases: Phases,
  url: URL,
  proposal: string,
  log: (message: string) => void,
): Promise<DatabaseRun['detail']> {
  const path = detailPath(proposal)
  const detail = await get(phases.current, url, path)
  if (detail.status !== 200) throw new Error(`detail: ${detail.status} ${detail.body.slice(0, 200)}`)
  const gzipBytes = gzipSync(detail.body).length
  const readers: DatabaseRun['detail']['readers'] = []
  log(`scale: ${WARM_UP_READS} untimed reads of the detail`)
  await pool(WARM_UP_READS, 20, async () => {
    await get(phases.current, url, path)
  })
  for (const concurrency of READER_LEVELS) {
    const agent = phases.next()
    log(`scale: detail at ${concurrency} concurrent readers`)
    const requests = READS_PER_LEVEL[concurrency] ?? 100
    const samples: number[] = []
    let errors = 0
    await pool(requests, concurrency, async () => {
      try {
        const reply = await get(agent, url, path)
        samples.push(reply.ms)
        if (reply.status !== 200) errors++
      } catch {
        errors++
      }
    })
    readers.push({ concurrency, requests, latencyMs: latency(samples), errors })
  }
  return { bytes: Buffer.byteLength(detail.body), gzipBytes, readers }
}

/** The votes list's first page and the page after DEEP_AFTER votes, one reader. */
export async function readVotesList(
  phases: Phases,
  url: URL,
  proposal: string,
  deepCursor: string,
  log: (message: string) => void,
): Promise<DatabaseRun['votesList']> {
  const agent = phases.next()
  const listLatency = async (path: string) => {
    const samples: number[] = []
    for (let i = 0; i < LIST_READS; i++) {
      const reply = await get(agent, url, path)
      if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body.slice(0, 200)}`)
      samples.push(reply.ms)
    }
    return latency(samples)
  }
  log(`scale: votes list, first page and after ${DEEP_AFTER.toLocaleString('en-US')}`)
  const firstPage = votesPath(proposal)
  return {
    firstPage: await listLatency(firstPage),
    deepPage: await listLatency(`${firstPage}?cursor=${deepCursor}`),
  }
}

/** `bodies` (signed votes) POSTed while POSTS_WHILE_READING.readers readers loop on the detail and the first votes page. */
export async function postWhileReading(
  phases: Phases,
  url: URL,
  proposal: string,
  bodies: string[],
  log: (message: string) => void,
): Promise<DatabaseRun['postWhileReading']> {
  log(
    `scale: ${POSTS_WHILE_READING.votes} vote POSTs while ${POSTS_WHILE_READING.readers} readers load the proposal`,
  )
  const headers = { ...JSON_HEADERS, origin: url.origin }
  const agent = phases.next()
  let reading = true
  const readerSamples: number[] = []
  let readerErrors = 0
  const readerLoops = Array.from({ length: POSTS_WHILE_READING.readers }, async () => {
    while (reading) {
      for (const path of [detailPath(proposal), votesPath(proposal)]) {
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
  await pool(bodies.length, POSTS_WHILE_READING.concurrency, async (i) => {
    try {
      const reply = await post(agent, url, votesPath(proposal), headers, bodies[i] as string)
      postSamples.push(reply.ms)
      if (reply.status !== 201) postErrors++
    } catch {
      postErrors++
    }
  })
  reading = false
  await Promise.all(readerLoops)
  return {
    votes: bodies.length,
    latencyMs: latency(postSamples),
    errors: postErrors,
    readerRequests: readerSamples.length,
    readerLatencyMs: latency(readerSamples),
    readerErrors,
  }
}
