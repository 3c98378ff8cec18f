// The open live streams of a server (streams.ts) over real TCP connections on loopback: the caps and their
// answers, a reader that stops reading cut off at a bounded backlog while another keeps receiving, one frame
// per event, and what the observer is told.
import { once } from 'node:events'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { ApiError } from '../../platform/http/errors.ts'
import { type LiveStreamEnd, type LiveStreamRefusal, silentObserver } from '../../platform/observer.ts'
import type { LiveEvent } from './live-events.ts'
import { frameOf, LiveStreams, MAX_UNREAD_BYTES } from './streams.ts'

/** What the streams told the observer, in order. */
function recording() {
  const heard: string[] = []
  return {
    heard,
    observer: {
      ...silentObserver,
      liveStreamOpened: () => heard.push('opened'),
      liveStreamClosed: (why: LiveStreamEnd) => heard.push(`closed:${why}`),
      liveStreamRefused: (why: LiveStreamRefusal) => heard.push(`refused:${why}`),
    },
  }
}

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A loopback TCP connection: the server's socket (a stream's sink) and the client's (its reader). */
async function connection(): Promise<{ sink: Socket; reader: Socket }> {
  const server = createServer()
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  const accepted = once(server, 'connection') as Promise<[Socket]>
  const reader = connect(address.port, '127.0.0.1')
  const [[sink]] = await Promise.all([accepted, once(reader, 'connect')])
  return { sink, reader }
}

const threadEvent = (seq: number): LiveEvent => ({
  event: 'thread',
  id: String(seq),
  data: { threadId: `0x${'ab'.repeat(32)}`, seq, kind: 'comment' },
})

/** Whether `run` throws the ApiError with this status, code, sentence and Retry-After. */
function refusal(run: () => unknown) {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    const { status, code, message, retryAfter } = error as ApiError
    return { status, code, message, retryAfter }
  }
  throw new Error('not refused')
}

describe('LiveStreams', () => {
  test('behavior: a client beyond LIVE_STREAMS_PER_CLIENT → 429 too_many_streams; the server beyond LIVE_MAX_STREAMS → 503 live_full with its sentence; a released stream frees its place; each told to the observer', async () => {
    const { heard, observer } = recording()
    const streams = new LiveStreams({ streamsPerClient: 2, maxStreams: 3, observer })
    const { sink } = await connection()
    const end = () => {}
    const first = streams.open('10.0.0.1', sink, end)
    streams.open('10.0.0.1', sink, end)
    expect(refusal(() => streams.open('10.0.0.1', sink, end))).toEqual({
      status: 429,
      code: 'too_many_streams',
      message: 'Too many live views are open from this address.',
      retryAfter: 10,
    })
    streams.open('10.0.0.2', sink, end)
    expect(streams.size).toBe(3)
    expect(refusal(() => streams.open('10.0.0.3', sink, end))).toEqual({
      status: 503,
      code: 'live_full',
      message:
        'This server is showing as many live views as it can. The page still updates when you reload it.',
      retryAfter: 30,
    })
    first.release('client')
    first.release('client') // once only
    expect(streams.size).toBe(2)
    streams.open('10.0.0.3', sink, end)
    expect(streams.size).toBe(3)
    expect(heard).toEqual([
      'opened',
      'opened',
      'refused:client_cap',
      'opened',
      'refused:instance_cap',
      'closed:client',
      'opened',
    ])
  })

  test('behavior: a reader that stops reading is cut off once MAX_UNREAD_BYTES wait for it, after the kernel’s buffers; a reader that reads gets every event; one frame per event whatever the streams', async () => {
    const { heard, observer } = recording()
    const streams = new LiveStreams({ streamsPerClient: 16, maxStreams: 100, observer })
    const stalled = await connection()
    const reading = await connection()
    stalled.reader.pause() // reads nothing from here on: the kernel's buffers fill, then Node's
    let ended = 0
    const stalledStream = streams.open('10.0.0.1', stalled.sink, () => {
      ended++
      stalled.sink.end()
    })
    const readingStream = streams.open('10.0.0.2', reading.sink, () => reading.sink.end())
    let received = ''
    reading.reader.setEncoding('latin1')
    reading.reader.on('data', (chunk: string) => (received += chunk))

    // Events until the stalled stream is cut (how much the kernel holds first varies), then as many again.
    let sent = 0
    let maxBacklog = 0
    let last = 0
    let cutAt = 0
    while (cutAt === 0 || last < 2 * cutAt) {
      const event = threadEvent(++last)
      stalledStream.send(event)
      maxBacklog = Math.max(maxBacklog, stalled.sink.writableLength)
      if (ended === 1 && cutAt === 0) cutAt = last
      readingStream.send(event)
      sent += frameOf(event).length
      expect(frameOf(event)).toBe(frameOf(event))
      if (last > 1_000_000) throw new Error('never cut off')
      // Yield now and then, as a server does between notices, so the reading side reads.
      if (last % 200 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(sent)
    expect(received.endsWith(frameOf(threadEvent(last)).toString('latin1'))).toBe(true)
    expect(ended).toBe(1)
    // What the server held for the stalled reader never grew past the bound and one frame.
    expect(maxBacklog).toBeGreaterThan(MAX_UNREAD_BYTES)
    expect(maxBacklog).toBeLessThanOrEqual(MAX_UNREAD_BYTES + frameOf(threadEvent(last)).length)
    // Read at last, the stalled stream ends, short of what the reading one got: nothing more was kept for it.
    stalled.reader.resume()
    let stalledBytes = 0
    stalled.reader.on('data', (chunk: Buffer) => (stalledBytes += chunk.length))
    await once(stalled.reader, 'end')
    expect(stalledBytes).toBeLessThan(sent)
    expect(heard).toEqual(['opened', 'opened', 'closed:stalled'])
    expect(streams.size).toBe(1)

    streams.closeAll()
    expect(heard.at(-1)).toBe('closed:server')
    expect(streams.size).toBe(0)
  })
})
