import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { readAllLockFigures, readLockFigures } from './metrics.ts'
import { openStreams, streamDelays } from './streams.ts'

const answer = (sentAt: number, answeredAt: number) => ({ sentAt, answeredAt, status: 201 })

test('behavior: a vote is shown when the last stream reads a tally at or past its log entry; from its 201 (floored at 0) and from its POST', () => {
  const stream = (seqs: number[], times: number[]) => ({ status: 200, seqs, times, close: () => {} })
  const streams = [
    stream([1, 3, 5], [100, 200, 300]),
    stream([2, 5], [150, 400]),
    // A lost stream is not waited for.
    { ...stream([1], [100]), lost: 'ended by the server' },
  ]
  const votes = [
    // Entry 2: first stream at 200 (seq 3), second at 150: shown at 200.
    { seq: 2, answer: answer(50, 120) },
    // Entry 4: first at 300 (seq 5), second at 400: shown at 400.
    { seq: 4, answer: answer(100, 250) },
    // Entry 1: shown at 150 on the second stream (its first tally is past it), before its 201 was read.
    { seq: 1, answer: answer(90, 180) },
    // Entry 6: no stream read a tally that far.
    { seq: 6, answer: answer(300, 350) },
  ]
  const delays = streamDelays(streams, votes)
  expect(delays.unseenVotes).toBe(1)
  expect(delays.tallyFrames).toBe(6)
  // From the 201: 80, 150, and 0 (shown before it was read); from the POST: 150, 300, 60.
  expect(delays.delayMs.fromAnswer).toEqual({ p50: 80, p99: 150, max: 150 })
  expect(delays.delayMs.fromSend).toEqual({ p50: 150, p99: 300, max: 300 })
})

test('behavior: the log lock figures are read from each /metrics and summed; an instance without them gives null', async () => {
  const exposition = (hold: number, wait: number, count: number, accepted: number) =>
    [
      '# HELP guildhall_votes_total Votes answered, by outcome.',
      '# TYPE guildhall_votes_total counter',
      `guildhall_votes_total{outcome="accepted"} ${accepted}`,
      'guildhall_votes_total{outcome="replayed"} 7',
      '# TYPE guildhall_log_lock_hold_seconds histogram',
      'guildhall_log_lock_hold_seconds_bucket{le="0.001"} 1',
      `guildhall_log_lock_hold_seconds_sum ${hold}`,
      `guildhall_log_lock_hold_seconds_count ${count}`,
      `guildhall_log_lock_wait_seconds_sum ${wait}`,
      `guildhall_log_lock_wait_seconds_count ${count}`,
      '',
    ].join('\n')
  const bodies = [
    exposition(0.25, 0.5, 10, 400),
    exposition(0.05, 0.125, 3, 100),
    'process_cpu_seconds_total 1\n',
  ]
  const servers = bodies.map((body) =>
    createServer((request, response) => {
      response.writeHead(request.url === '/metrics' ? 200 : 404, { 'content-type': 'text/plain' })
      response.end(request.url === '/metrics' ? body : '')
    }),
  )
  await Promise.all(servers.map((server) => new Promise<void>((done) => server.listen(0, '127.0.0.1', done))))
  const ports = servers.map((server) => (server.address() as AddressInfo).port)
  try {
    expect(await readLockFigures(ports[0] as number)).toEqual({
      holdSeconds: 0.25,
      waitSeconds: 0.5,
      transactions: 10,
      accepted: 400,
    })
    expect(await readAllLockFigures(ports.slice(0, 2))).toEqual({
      holdSeconds: 0.3,
      waitSeconds: 0.625,
      transactions: 13,
      accepted: 500,
    })
    expect(await readLockFigures(ports[2] as number)).toBeNull()
    expect(await readAllLockFigures(ports)).toBeNull()
  } finally {
    for (const server of servers) server.close()
  }
  // Nothing listening: null, not an error.
  expect(await readLockFigures(ports[0] as number)).toBeNull()
})

test('behavior: streams open from distinct loopback addresses, note each tally frame id, and a refused one is lost', async () => {
  const sources: string[] = []
  let refused = false
  const server = createServer((request, response) => {
    sources.push(request.socket.remoteAddress ?? '')
    if (!refused) {
      refused = true
      response.writeHead(429).end()
      return
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    // A heartbeat, a tally split across writes, another kind of event, a second tally.
    response.write(': heartbeat\n\nid: 4\nevent: ta')
    response.write('lly\ndata: {"seq":4}\n\nid: 5\nevent: execution\ndata: {}\n\n')
    response.write('id: 7\nevent: tally\ndata: {"seq":7}\n\n')
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const streams = await openStreams(origin, '/events', 3)
    expect(streams.filter((stream) => stream.lost).map((stream) => stream.lost)).toEqual(['answered 429'])
    const open = streams.filter((stream) => !stream.lost)
    await expect
      .poll(() => open.map((stream) => stream.seqs))
      .toEqual([
        [4, 7],
        [4, 7],
      ])
    expect(new Set(sources).size).toBe(3)
    expect(sources.every((address) => address.startsWith('127.0.') && address !== '127.0.0.1')).toBe(true)
    for (const stream of streams) stream.close()
  } finally {
    server.closeAllConnections()
    server.close()
  }
})
