// The series the areas' reports move (ADR 065), reported to the Metrics directly: what each Observer call
// adds, the leader and the token index's lag as a real Leadership (PGlite's: leads from start() to
// stop()) says, one registry per app with the process's own series in each, and text Prometheus parses.
import { describe, expect, test } from 'vitest'
import { parsePrometheusText, sampleValue } from '../../../testbed/prometheus-text.ts'
import { Leadership } from '../jobs/leader.ts'
import { Metrics } from './metrics.ts'

const read = async (metrics: Metrics) => parsePrometheusText((await metrics.text()).body)

describe('Metrics', () => {
  test('default: votes accepted and replayed, live streams closed and refused by each reason start at 0; the text is Prometheus’s 0.0.4', async () => {
    const metrics = new Metrics()
    const { contentType } = await metrics.text()
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
    const families = await read(metrics)
    for (const outcome of ['accepted', 'replayed'])
      expect(sampleValue(families, 'guildhall_votes_total', { outcome })).toBe(0)
    for (const why of ['client', 'stalled', 'server'])
      expect(sampleValue(families, 'guildhall_live_streams_closed_total', { why })).toBe(0)
    for (const why of ['client_cap', 'instance_cap'])
      expect(sampleValue(families, 'guildhall_live_streams_refused_total', { why })).toBe(0)
    expect(sampleValue(families, 'guildhall_live_streams')).toBe(0)
    expect(sampleValue(families, 'guildhall_log_appends_total')).toBe(0)
    expect(families.get('guildhall_log_lock_hold_seconds')?.type).toBe('histogram')
    // No index has reported and no leadership is watched: neither series has a sample.
    expect(families.get('guildhall_token_index_lag_blocks')?.samples).toEqual([])
    expect(families.has('guildhall_leader')).toBe(false)
  })

  test('behavior: each report moves its series: votes by outcome, log entries and lock times, signature checks, live streams', async () => {
    const metrics = new Metrics()
    metrics.voteAnswered('accepted')
    metrics.voteAnswered('accepted')
    metrics.voteAnswered('replayed')
    metrics.voteAnswered('no_voting_power')
    metrics.voteAnswered('superseded')
    metrics.logAppended(3, 1.5, 0.4)
    metrics.logAppended(1, 0, 2)
    metrics.signatureChecked(0.5, 4)
    metrics.liveStreamOpened()
    metrics.liveStreamOpened()
    metrics.liveStreamOpened()
    metrics.liveStreamClosed('client')
    metrics.liveStreamClosed('stalled')
    metrics.liveStreamRefused('instance_cap')
    const families = await read(metrics)
    const value = (name: string, labels?: Record<string, string>) => sampleValue(families, name, labels)

    expect(value('guildhall_votes_total', { outcome: 'accepted' })).toBe(2)
    expect(value('guildhall_votes_total', { outcome: 'replayed' })).toBe(1)
    expect(value('guildhall_votes_total', { outcome: 'no_voting_power' })).toBe(1)
    expect(value('guildhall_votes_total', { outcome: 'superseded' })).toBe(1)
    // Entries counted one by one; the lock times one observation per appending transaction, in seconds.
    expect(value('guildhall_log_appends_total')).toBe(4)
    expect(value('guildhall_log_lock_wait_seconds_count')).toBe(2)
    expect(value('guildhall_log_lock_wait_seconds_sum')).toBeCloseTo(0.0015, 9)
    expect(value('guildhall_log_lock_hold_seconds_count')).toBe(2)
    expect(value('guildhall_log_lock_hold_seconds_sum')).toBeCloseTo(0.0024, 9)
    expect(value('guildhall_log_lock_hold_seconds_bucket', { le: '0.0005' })).toBe(1)
    expect(value('guildhall_log_lock_hold_seconds_bucket', { le: '0.0025' })).toBe(2)
    expect(value('guildhall_signature_check_queue_seconds_sum')).toBeCloseTo(0.0005, 9)
    expect(value('guildhall_signature_check_seconds_sum')).toBeCloseTo(0.004, 9)
    expect(value('guildhall_signature_check_seconds_count')).toBe(1)
    expect(value('guildhall_live_streams')).toBe(1)
    expect(value('guildhall_live_streams_closed_total', { why: 'client' })).toBe(1)
    expect(value('guildhall_live_streams_closed_total', { why: 'stalled' })).toBe(1)
    expect(value('guildhall_live_streams_closed_total', { why: 'server' })).toBe(0)
    expect(value('guildhall_live_streams_refused_total', { why: 'instance_cap' })).toBe(1)
  })

  test('behavior: guildhall_leader is 1 per job while this instance leads, 0 standing by; the index’s lag is said only while it leads', async () => {
    const metrics = new Metrics()
    const leadership = new Leadership({ connect: undefined, onLead: () => {}, onStandby: () => {} })
    metrics.watchLeadership(leadership, ['token', 'names'])
    metrics.tokenIndexSynced(1_250, 1_000)

    let families = await read(metrics)
    expect(sampleValue(families, 'guildhall_leader', { job: 'token' })).toBe(0)
    expect(sampleValue(families, 'guildhall_leader', { job: 'names' })).toBe(0)
    expect(families.get('guildhall_token_index_lag_blocks')?.samples).toEqual([])

    leadership.start()
    families = await read(metrics)
    expect(families.get('guildhall_leader')?.samples.map((s) => [s.labels.job, s.value])).toEqual([
      ['token', 1],
      ['names', 1],
    ])
    expect(sampleValue(families, 'guildhall_token_index_lag_blocks')).toBe(250)
    metrics.tokenIndexSynced(1_260, 1_260)
    expect(sampleValue(await read(metrics), 'guildhall_token_index_lag_blocks')).toBe(0)

    // Stood down: its last figure would go stale.
    await leadership.stop()
    families = await read(metrics)
    expect(sampleValue(families, 'guildhall_leader', { job: 'token' })).toBe(0)
    expect(families.get('guildhall_token_index_lag_blocks')?.samples).toEqual([])
  })

  test('behavior: one registry per app: two apps’ series move apart, and both carry the process’s CPU, memory, event-loop delay and GC', async () => {
    const one = new Metrics()
    const two = new Metrics()
    one.voteAnswered('accepted')
    one.requestAnswered('GET', '/api/health', 200, 0.002)
    const [first, second] = [await read(one), await read(two)]
    expect(sampleValue(first, 'guildhall_votes_total', { outcome: 'accepted' })).toBe(1)
    expect(sampleValue(second, 'guildhall_votes_total', { outcome: 'accepted' })).toBe(0)
    expect(
      sampleValue(first, 'guildhall_http_requests_total', {
        method: 'GET',
        route: '/api/health',
        status: '200',
      }),
    ).toBe(1)
    expect(second.get('guildhall_http_requests_total')?.samples).toEqual([])
    for (const families of [first, second]) {
      expect(sampleValue(families, 'process_cpu_seconds_total')).toBeGreaterThan(0)
      expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(0)
      expect(families.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('gauge')
      expect(families.get('nodejs_gc_duration_seconds')?.type).toBe('histogram')
    }
  })
})
