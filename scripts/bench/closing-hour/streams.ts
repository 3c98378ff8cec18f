// The proposal's live watchers: STREAMS event streams opened over node:http, each from its own loopback
// source address (127.0.x.y, so the per-client cap of the live routes holds), every tally frame's log entry
// (its id) noted with the time the bench read it; then, per vote, the time until the last stream read a
// tally at or past the vote's log entry.
import { request } from 'node:http'
import { pool } from '../harness/http.ts'
import { latency } from '../harness/stats.ts'
import type { VoteAnswer } from '../harness/vote-burst.ts'

const OPEN_TIMEOUT_MS = 60_000

type Stream = {
  status: number
  /** Log entries of the tallies read, in order (the route never sends an older one), and when each was read. */
  seqs: number[]
  times: number[]
  /** Set when the stream ended before the bench closed it: refused, cut or closed by the server. */
  lost?: string
  close: () => void
}

/** 127.0.1.1, 127.0.1.2, … 127.0.1.250, 127.0.2.1, …: one address per stream, none the default 127.0.0.1. */
const loopback = (i: number) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`

function openStream(url: URL, path: string, i: number): Promise<Stream> {
  return new Promise((opened) => {
    const stream: Stream = { status: 0, seqs: [], times: [], close: () => req.destroy() }
    let closing = false
    stream.close = () => {
      closing = true
      req.destroy()
    }
    const lose = (why: string) => {
      if (closing) return
      stream.lost ??= why
      opened(stream)
    }
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        path,
        localAddress: loopback(i),
        agent: false,
        headers: { accept: 'text/event-stream', 'user-agent': 'guildhall-bench' },
      },
      (res) => {
        stream.status = res.statusCode ?? 0
        if (stream.status !== 200) lose(`answered ${stream.status}`)
        res.setEncoding('utf8')
        let buffer = ''
        res.on('data', (chunk: string) => {
          const at = performance.now()
          buffer += chunk
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            // Only the frame's id is read: parsing 1,000 copies of every tally would load the bench's CPU.
            if (!/^event: tally$/m.test(frame)) continue
            const id = /^id: (\d+)$/m.exec(frame)
            if (!id) continue
            stream.seqs.push(Number(id[1]))
            stream.times.push(at)
            // Open once its first tally (the current one) arrived.
            if (stream.seqs.length === 1) opened(stream)
          }
        })
        res.on('close', () => lose('ended by the server'))
      },
    )
    req.on('error', (error) => lose(error.message))
    req.end()
    // A stream that never shows its first tally is lost too; the timer ends with the process otherwise.
    setTimeout(() => {
      if (stream.seqs.length === 0) lose(`no tally within ${OPEN_TIMEOUT_MS / 1000} s`)
    }, OPEN_TIMEOUT_MS).unref()
  })
}

/** Opens `count` streams of `path`, 50 at a time, each resolved once its first tally arrived (or it was lost). */
export async function openStreams(origin: string, path: string, count: number) {
  const url = new URL(origin)
  const streams: Stream[] = []
  await pool(count, 50, async (i) => {
    streams[i] = await openStream(url, path, i)
  })
  return streams
}

/** Waits until every stream still open read a tally at or past `seq`, or `ms` passed. */
export async function streamsCaughtUp(streams: Stream[], seq: number, ms: number) {
  const deadline = performance.now() + ms
  const behind = () => streams.some((s) => !s.lost && (s.seqs.at(-1) ?? 0) < seq)
  while (behind() && performance.now() < deadline) await new Promise((done) => setTimeout(done, 100))
}

/**
 * Per vote (its log entry `seq` and its answer's times), the delay until the last stream read a tally that
 * includes it: from its 201's arrival (the commit happened before it: errs low) and from its POST (before
 * the commit: errs high). A delay below 0 (a stream read it before the 201 was read) counts as 0.
 */
export function streamDelays(streams: Stream[], votes: { seq: number; answer: VoteAnswer }[]) {
  const live = streams.filter((s) => !s.lost)
  const ordered = [...votes].sort((a, b) => a.seq - b.seq)
  // Per vote, the latest time any stream first read a tally at or past its seq: one sweep per stream.
  const lastSeen = new Array<number>(ordered.length).fill(0)
  const unseen = new Set<number>()
  for (const stream of live) {
    let frame = 0
    for (const [v, vote] of ordered.entries()) {
      while (frame < stream.seqs.length && (stream.seqs[frame] as number) < vote.seq) frame++
      if (frame === stream.seqs.length) unseen.add(v)
      else lastSeen[v] = Math.max(lastSeen[v] as number, stream.times[frame] as number)
    }
  }
  const fromAnswer: number[] = []
  const fromSend: number[] = []
  for (const [v, vote] of ordered.entries()) {
    if (unseen.has(v)) continue
    fromAnswer.push(Math.max(0, (lastSeen[v] as number) - vote.answer.answeredAt))
    fromSend.push((lastSeen[v] as number) - vote.answer.sentAt)
  }
  return {
    delayMs: { fromAnswer: latency(fromAnswer), fromSend: latency(fromSend) },
    unseenVotes: unseen.size,
    tallyFrames: streams.reduce((sum, s) => sum + s.seqs.length, 0),
  }
}
