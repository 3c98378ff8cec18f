// One app's Prometheus series (ADR 065): what the areas report through the Observer, the HTTP requests
// (metrics-http.ts counts them), which leader jobs run here and the token index's lag, and the process's
// own series. Counting is a few additions in memory; the text is made only when Prometheus asks.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { Leadership } from '../jobs/leader.ts'
import type { LiveStreamEnd, LiveStreamRefusal, Observer } from '../observer.ts'

let processSeries: Registry | undefined

/**
 * prom-client's default series (CPU, memory, event-loop delay, GC, handles) describe the process, and their
 * event-loop monitor and GC observer cannot be stopped: made once per process and read by every app's
 * registry (tests build several apps in one process).
 */
function processRegistry(): Registry {
  if (!processSeries) {
    processSeries = new Registry()
    collectDefaultMetrics({ register: processSeries })
  }
  return processSeries
}

/** One appending transaction holds the log's lock for a fraction of a millisecond to tens of them. */
const LOCK_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
]
/** A signature check runs about 1–5 ms on a worker; its wait for one grows with a burst. */
const SIGNATURE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
/** Requests: from an answer read in memory to a slow export. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const LIVE_ENDS: LiveStreamEnd[] = ['client', 'stalled', 'server']
const LIVE_REFUSALS: LiveStreamRefusal[] = ['client_cap', 'instance_cap']

/**
 * `guildhall_token_index_lag_blocks`, with no sample while it is unknown here (prom-client's unlabelled
 * gauges otherwise say 0, which reads as "caught up").
 */
class LagGauge extends Gauge {
  readonly #lag: () => number | undefined

  constructor(lag: () => number | undefined, registers: Registry[]) {
    super({
      name: 'guildhall_token_index_lag_blocks',
      help: 'Chain head − the token index’s block at its last sync, on the instance that runs the index (TOKEN_INDEX_CONFIRMATIONS when caught up).',
      registers,
    })
    this.#lag = lag
  }

  override async get() {
    const lag = this.#lag()
    if (lag !== undefined) this.set(lag)
    const series = await super.get()
    return lag === undefined ? { ...series, values: [] } : series
  }
}

export class Metrics implements Observer {
  /** The app's series and the process's, as one text. */
  readonly registry: Registry
  readonly #requests: Counter<'method' | 'route' | 'status'>
  readonly #requestSeconds: Histogram<'method' | 'route'>
  readonly #votes: Counter<'outcome'>
  readonly #logEntries: Counter
  readonly #lockWait: Histogram
  readonly #lockHold: Histogram
  readonly #signatureQueue: Histogram
  readonly #signatureRun: Histogram
  readonly #liveStreams: Gauge
  readonly #liveClosed: Counter<'why'>
  readonly #liveRefused: Counter<'why'>
  /** Chain head − indexed block at the token index's last report; undefined before one. */
  #indexLag: number | undefined
  /** Whether this instance runs the leader jobs (the token index among them); one process leads until watchLeadership says otherwise. */
  #leading: () => boolean = () => true

  constructor() {
    const own = new Registry()
    const registers = [own]
    this.#requests = new Counter({
      name: 'guildhall_http_requests_total',
      help: 'HTTP requests answered, by method, route template (none: no route matched) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    })
    this.#requestSeconds = new Histogram({
      name: 'guildhall_http_request_duration_seconds',
      help: 'Time from a request’s arrival to its answer sent (a live stream: its whole life), by method and route template.',
      labelNames: ['method', 'route'],
      buckets: REQUEST_BUCKETS,
      registers,
    })
    this.#votes = new Counter({
      name: 'guildhall_votes_total',
      help: 'Votes answered: accepted (stored), replayed (already stored), or the code of the refusal.',
      labelNames: ['outcome'],
      registers,
    })
    this.#logEntries = new Counter({
      name: 'guildhall_log_appends_total',
      help: 'Entries appended to the governance log.',
      registers,
    })
    this.#lockWait = new Histogram({
      name: 'guildhall_log_lock_wait_seconds',
      help: 'Per appending transaction: time waited for the governance log’s lock.',
      buckets: LOCK_BUCKETS,
      registers,
    })
    this.#lockHold = new Histogram({
      name: 'guildhall_log_lock_hold_seconds',
      help: 'Per appending transaction: time the governance log’s lock was held, from taking it to the commit.',
      buckets: LOCK_BUCKETS,
      registers,
    })
    this.#signatureQueue = new Histogram({
      name: 'guildhall_signature_check_queue_seconds',
      help: 'Per signature check: time waited for a worker thread.',
      buckets: SIGNATURE_BUCKETS,
      registers,
    })
    this.#signatureRun = new Histogram({
      name: 'guildhall_signature_check_seconds',
      help: 'Per signature check: time it ran on a worker thread.',
      buckets: SIGNATURE_BUCKETS,
      registers,
    })
    this.#liveStreams = new Gauge({
      name: 'guildhall_live_streams',
      help: 'Live streams open on this instance.',
      registers,
    })
    this.#liveClosed = new Counter({
      name: 'guildhall_live_streams_closed_total',
      help: 'Live streams ended: by the client, dropped as stalled, or by the server (closing).',
      labelNames: ['why'],
      registers,
    })
    this.#liveRefused = new Counter({
      name: 'guildhall_live_streams_refused_total',
      help: 'Live streams refused: the client’s cap, or this instance’s.',
      labelNames: ['why'],
      registers,
    })
    // A standby's last figure goes stale the moment it stops indexing: only the leader says it.
    new LagGauge(() => (this.#leading() ? this.#indexLag : undefined), registers)
    // Zeros from the start, so a rate over the first refusals has a point before them.
    for (const outcome of ['accepted', 'replayed']) this.#votes.inc({ outcome }, 0)
    for (const why of LIVE_ENDS) this.#liveClosed.inc({ why }, 0)
    for (const why of LIVE_REFUSALS) this.#liveRefused.inc({ why }, 0)
    this.registry = Registry.merge([processRegistry(), own])
  }

  /** `guildhall_leader{job}`: 1 for each job while this instance leads (they share one leadership), else 0. */
  watchLeadership(leadership: Leadership, jobs: string[]): void {
    this.#leading = () => leadership.role === 'leader'
    const leading = this.#leading
    new Gauge({
      name: 'guildhall_leader',
      help: 'Whether this instance runs the leader job (1) or stands by (0).',
      labelNames: ['job'],
      registers: [this.registry],
      collect() {
        for (const job of jobs) this.set({ job }, leading() ? 1 : 0)
      },
    })
  }

  /** The text Prometheus reads, and its content type. */
  async text(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType }
  }

  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    this.#requests.inc({ method, route, status: String(status) })
    this.#requestSeconds.observe({ method, route }, seconds)
  }

  logAppended(entries: number, lockWaitMs: number, lockHoldMs: number): void {
    this.#logEntries.inc(entries)
    this.#lockWait.observe(lockWaitMs / 1000)
    this.#lockHold.observe(lockHoldMs / 1000)
  }

  voteAnswered(outcome: string): void {
    this.#votes.inc({ outcome })
  }

  signatureChecked(queuedMs: number, runMs: number): void {
    this.#signatureQueue.observe(queuedMs / 1000)
    this.#signatureRun.observe(runMs / 1000)
  }

  liveStreamOpened(): void {
    this.#liveStreams.inc()
  }

  liveStreamClosed(why: LiveStreamEnd): void {
    this.#liveStreams.dec()
    this.#liveClosed.inc({ why })
  }

  liveStreamRefused(why: LiveStreamRefusal): void {
    this.#liveRefused.inc({ why })
  }

  tokenIndexSynced(headBlock: number, indexedBlock: number): void {
    this.#indexLag = Math.max(0, headBlock - indexedBlock)
  }
}
