// The open live streams of one server (ADR 064): the caps on how many a client address and the server hold,
// one heartbeat for all of them, each event's frame written once however many streams get it, and a stream
// whose reader stopped reading cut off before the server buffers more for it.
import { ApiError } from '../../platform/http/errors.ts'
import type { LiveStreamEnd, Observer } from '../../platform/observer.ts'
import type { LiveEvent } from './live-events.ts'

/** A client this far behind on reading is cut off; it reconnects and resumes from its last event id. */
export const MAX_UNREAD_BYTES = 64 * 1024
/** A comment line this often keeps proxies from closing a quiet stream (below REQUEST_TIMEOUT_MS's 30 s). */
const HEARTBEAT_MS = 15_000
const HEARTBEAT = Buffer.from(': heartbeat\n\n')
/** Seconds a refused client is asked to wait; the page reads the result meanwhile. */
const CLIENT_RETRY_AFTER_S = 10
const FULL_RETRY_AFTER_S = 30

/** What a stream writes to: the response's socket side (Node's ServerResponse). */
export interface StreamSink {
  write(chunk: Buffer): boolean
  readonly writableLength: number
}

export interface LiveStream {
  /** Writes the event's frame, or cuts the stream off if its reader is MAX_UNREAD_BYTES behind. */
  send(event: LiveEvent): void
  /** Forgets the stream (its client's and the server's counts); `why` is told to the observer once. */
  release(why: LiveStreamEnd): void
}

/** An open stream: its sink, its release and how to end its response. */
type OpenStream = { sink: StreamSink; release: (why: LiveStreamEnd) => void; end: () => void }

export interface LiveStreamsOptions {
  streamsPerClient: number
  maxStreams: number
  observer: Observer
}

/**
 * The SSE frame of an event, built once per event: the hub hands one event object to every watcher of a
 * proposal, so a flush serialises it once whatever the number of streams. Same bytes as @fastify/sse's.
 */
const frames = new WeakMap<LiveEvent, Buffer>()
export function frameOf(event: LiveEvent): Buffer {
  let frame = frames.get(event)
  if (!frame) {
    frame = Buffer.from(`id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`)
    frames.set(event, frame)
  }
  return frame
}

export class LiveStreams {
  readonly #options: LiveStreamsOptions
  readonly #byClient = new Map<string, number>()
  readonly #open = new Set<OpenStream>()
  #heartbeat: NodeJS.Timeout | undefined

  constructor(options: LiveStreamsOptions) {
    this.#options = options
  }

  get size(): number {
    return this.#open.size
  }

  /**
   * Counts a new stream of `client`, or refuses it: 429 beyond the client's cap, 503 beyond the server's.
   * `end` closes its response; the caller releases the stream when the response is closed.
   */
  open(client: string, sink: StreamSink, end: () => void): LiveStream {
    const { streamsPerClient, maxStreams, observer } = this.#options
    const ofClient = this.#byClient.get(client) ?? 0
    if (ofClient >= streamsPerClient) {
      observer.liveStreamRefused('client_cap')
      throw new ApiError(
        429,
        'too_many_streams',
        'Too many live views are open from this address.',
        CLIENT_RETRY_AFTER_S,
      )
    }
    if (this.#open.size >= maxStreams) {
      observer.liveStreamRefused('instance_cap')
      throw new ApiError(
        503,
        'live_full',
        'This server is showing as many live views as it can. The page still updates when you reload it.',
        FULL_RETRY_AFTER_S,
      )
    }
    this.#byClient.set(client, ofClient + 1)
    let released = false
    const release = (why: LiveStreamEnd) => {
      if (released) return
      released = true
      this.#open.delete(stream)
      const left = (this.#byClient.get(client) ?? 1) - 1
      if (left > 0) this.#byClient.set(client, left)
      else this.#byClient.delete(client)
      observer.liveStreamClosed(why)
      if (this.#open.size === 0) this.#stopHeartbeat()
    }
    const stream: OpenStream = { sink, release, end }
    this.#open.add(stream)
    observer.liveStreamOpened()
    this.#startHeartbeat()
    return {
      send: (event) => {
        if (!released) LiveStreams.#write(stream, frameOf(event))
      },
      release,
    }
  }

  /** Ends every open stream (the server is closing). */
  closeAll(): void {
    this.#stopHeartbeat()
    for (const { release, end } of this.#open) {
      release('server')
      end()
    }
  }

  // One timer for every stream rather than one per stream: the beat is the same bytes for all.
  #startHeartbeat() {
    if (this.#heartbeat) return
    this.#heartbeat = setInterval(() => {
      for (const stream of this.#open) LiveStreams.#write(stream, HEARTBEAT)
    }, HEARTBEAT_MS)
    this.#heartbeat.unref()
  }

  /**
   * Bytes the reader has not taken stay in memory here (past what the kernel's socket buffers hold): beyond
   * MAX_UNREAD_BYTES the stream is cut off instead of buffered further.
   */
  static #write(stream: OpenStream, chunk: Buffer) {
    if (stream.sink.writableLength <= MAX_UNREAD_BYTES) stream.sink.write(chunk)
    else {
      stream.release('stalled')
      stream.end()
    }
  }

  #stopHeartbeat() {
    clearInterval(this.#heartbeat)
    this.#heartbeat = undefined
  }
}
