// Cluster fault tests ("nothing lost" with several instances, docs/deploy.md): HAProxy in front of three API
// processes on one PostgreSQL database, started afresh for each test.
// - The rate limits are counted once for all three; during a burst of signed votes the instance running the
//   token index is SIGKILLed, and another takes the index over. Then: every 2xx vote is stored; the
//   hash-chained log verifies (appends stayed linear across processes); the counts reconcile; an answered
//   refusal left nothing; every request without an answer from an instance (cut, or the proxy's 502/503)
//   sent again converges; and sending every payload once more stores nothing new.
// - Live results (ADR 024) through the proxy: a proposal's event stream gets the tallies of votes stored by
//   every instance; the instance serving it is SIGKILLed, and the stream resumed through the proxy from its
//   last event id on another instance counts every vote, the ones cast while it was down included.
// PostgreSQL only (vitest.config.ts runs *.postgres.test.ts when TEST_DATABASE_URL is set).
import {
  type LiveTally,
  liveTallySchema,
  type ProposalMessage,
  proposalId,
  tallyToJson,
} from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest'
import {
  type ApiProcess,
  leaderAmong,
  startApiProcess,
  stopApiProcess,
  stopApiProcesses,
} from '../../testbed/api-process.ts'
import { openStream } from '../../testbed/event-stream.ts'
import { type Haproxy, INSTANCE_KEEP_ALIVE_MS, startHaproxy } from '../../testbed/haproxy.ts'
import { parsePrometheusText, sampleValue } from '../../testbed/prometheus-text.ts'
import {
  createProposals,
  expectConverged,
  expectNothingLost,
  resendCut,
  runBurst,
  signBurst,
  startVoteChain,
  voters,
} from '../../testbed/vote-burst.ts'
import { type DemoChain, testEnv } from '../demo/local-chain.ts'
import { tallyRules } from '../governance/tallies.ts'
import { recountTally } from '../governance/tally-check.ts'
import { governanceLog } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'

const INSTANCES = 3
/** Proposals voted on by Ada, Ben and Cleo each, plus re-votes on the first RE_VOTED of them. */
const PROPOSALS = 30
const RE_VOTED = 15
const IN_FLIGHT = 30
/** The leader is killed as soon as this many votes have answered 2xx. */
const KILL_AFTER_OKS = 40
/** Voting-power reads per client and minute, across the whole cluster. */
const POWER_LIMIT = 6
/** A standby tries the lock every 2 s: a few seconds to take over. */
const TAKEOVER_MS = 8_000
/** The proxy's own answers when an instance went away mid-request: no answer from an instance. */
const PROXY_STATUSES = [502, 503, 504]

let chain: DemoChain
let postgres: TestDatabase

beforeAll(async () => {
  chain = await startVoteChain()
  postgres = await testDatabase()
}, 60_000)

afterAll(async () => {
  await stopApiProcesses()
  await chain?.anvil.stop()
  await postgres?.close()
}, 30_000)

/**
 * INSTANCES API processes on the test database, and HAProxy in front of them on `origin`, until the test
 * ends; answers once exactly one of them leads the token index. HAProxy names instance n `api${n + 1}` in
 * `X-Served-By`.
 */
async function startCluster(): Promise<{ origin: string; apis: ApiProcess[]; leader: ApiProcess }> {
  const proxyPort = await getFreePort()
  const origin = `http://127.0.0.1:${proxyPort}`
  const apis = await Promise.all(
    Array.from({ length: INSTANCES }, async () => {
      const metricsPort = await getFreePort()
      const api = await startApiProcess({
        ...testEnv(chain.anvil.url, chain.deployment),
        SIGN_IN: 'off',
        DATABASE_URL: postgres.url,
        // Users open the proxy's origin; the instances believe its X-Forwarded-For.
        PUBLIC_ORIGIN: origin,
        TRUST_PROXY: '127.0.0.1',
        KEEP_ALIVE_TIMEOUT_MS: String(INSTANCE_KEEP_ALIVE_MS),
        // A burst of hundreds of votes from one address is the point here, not the per-client limit.
        GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
        POWER_RATE_LIMIT_PER_MINUTE: String(POWER_LIMIT),
        METRICS_PORT: String(metricsPort),
      })
      metricsPorts.set(api, metricsPort)
      return api
    }),
  )
  let proxy: Haproxy | undefined
  // Stopped with its test: the next test's cluster has a leader of its own only once this one's is gone.
  onTestFinished(async () => {
    await proxy?.stop()
    await Promise.all(apis.map((api) => stopApiProcess(api, 'SIGTERM')))
  })
  const leader = await leaderAmong(apis, TAKEOVER_MS)
  // Round robin: the tests below need each instance to take requests in turn (votes stored by every one).
  proxy = await startHaproxy({
    port: proxyPort,
    instances: apis.map((api) => new URL(api.origin).host),
    balance: 'roundrobin',
  })
  return { origin, apis, leader }
}

/** Each instance's METRICS_PORT (its /metrics on loopback). */
const metricsPorts = new Map<ApiProcess, number>()

/** What each of `apis` says of leading the token index in its metrics: guildhall_leader{job="token"}, and whether it reports the index's lag. */
async function leaderMetrics(apis: ApiProcess[]) {
  return Promise.all(
    apis.map(async (api) => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPorts.get(api)}/metrics`)).text()
      const families = parsePrometheusText(text)
      return {
        leads: sampleValue(families, 'guildhall_leader', { job: 'token' }),
        saysLag: (families.get('guildhall_token_index_lag_blocks')?.samples.length ?? 0) > 0,
      }
    }),
  )
}

/** The instances' metrics agree with `leader` leading: it alone says so and, once its index has synced, reports the lag. */
async function expectLeaderInMetrics(apis: ApiProcess[], leader: ApiProcess) {
  await expect
    .poll(() => leaderMetrics(apis), { timeout: TAKEOVER_MS })
    .toEqual(apis.map((api) => ({ leads: api === leader ? 1 : 0, saysLag: api === leader })))
}

test(`behavior: HAProxy, ${INSTANCES} instances, one PostgreSQL: rate limits shared; the leader SIGKILLed during a burst of ${PROPOSALS * 3 + RE_VOTED * 3} votes → another leads (and alone says so in its metrics), every 2xx kept, the log verifies, refusals left nothing, resent payloads converge`, async () => {
  const { origin, apis, leader } = await startCluster()
  await expectLeaderInMetrics(apis, leader)
  const burst = await signBurst(chain, { title: 'Cluster-tested', count: PROPOSALS, reVoted: RE_VOTED })
  await createProposals(origin, burst)

  // One client through the proxy, round robin over three processes: counted once, against one limit.
  const [author] = voters as [(typeof voters)[number]]
  const powerPath = `/api/proposals/${proposalId(burst.domain, burst.messages[0] as ProposalMessage)}/power/${author.address}`
  const powerStatuses = []
  for (let i = 0; i < POWER_LIMIT + 3; i++) powerStatuses.push((await fetch(`${origin}${powerPath}`)).status)
  expect(powerStatuses).toEqual([...Array(POWER_LIMIT).fill(200), 429, 429, 429])

  // The burst through the proxy; SIGKILL of the leader on the KILL_AFTER_OKS-th 2xx.
  let killedAt = 0
  const { accepted, refused, cut } = await runBurst(origin, burst, {
    inFlight: IN_FLIGHT,
    killAfterOks: KILL_AFTER_OKS,
    kill: () => {
      killedAt = Date.now()
      return stopApiProcess(leader, 'SIGKILL')
    },
    noAnswer: PROXY_STATUSES,
  })
  const survivors = apis.filter((api) => api !== leader)
  const successor = await leaderAmong(survivors, TAKEOVER_MS)
  const takeoverMs = Date.now() - killedAt
  await expectLeaderInMetrics(survivors, successor)

  // Every request that got no answer from an instance is sent again through the proxy.
  await resendCut(origin, burst, cut)
  const { storedIds, logEntries } = await expectNothingLost(postgres.db, burst, { accepted, refused })
  await expectConverged(origin, postgres.db, burst, storedIds)

  console.log(
    `cluster (${INSTANCES} instances behind HAProxy): ${accepted.length} × 2xx, ${refused.length} refused (409), ${cut.length} without an instance's answer and resent; leader killed, another led ${takeoverMs} ms after the kill; ${storedIds.size} votes stored, ${logEntries} log entries`,
  )
}, 180_000)

test(`behavior: HAProxy, ${INSTANCES} instances: a proposal's event stream through the proxy gets the tallies of votes stored by every instance; its instance SIGKILLed, the stream resumed through the proxy from its Last-Event-ID counts every vote, none lost`, async () => {
  const { origin, apis } = await startCluster()
  // Ada, Ben and Cleo vote on one proposal, then each changes their mind: six votes, each moving the tally.
  const burst = await signBurst(chain, { title: 'Streamed', count: 1, reVoted: 1 })
  await createProposals(origin, burst)
  const message = burst.messages[0] as ProposalMessage
  const proposal = proposalId(burst.domain, message)
  const eventsUrl = `${origin}/api/proposals/${proposal}/events`
  const servedBy = (response: Response) => response.headers.get('x-served-by')
  const instanceNamed = (name: string | null) => apis.find((_, n) => name === `api${n + 1}`)

  /**
   * Sends vote `index` through the proxy, again while no instance answers (the proxy may still pick one
   * that was just killed: the client resends, a signed vote is stored once); answers its log seq and the
   * instance that stored it.
   */
  const vote = async (index: number) => {
    const { path, body, id } = burst.signed[index] as (typeof burst.signed)[number]
    let response: Response | undefined
    for (let attempt = 0; attempt < 3 && !response?.ok; attempt++) {
      response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      })
      if (!response.ok && !PROXY_STATUSES.includes(response.status)) break
    }
    expect(response?.status, `vote ${index}`).toBe(201)
    const [entry] = await postgres.db
      .select({ seq: governanceLog.seq })
      .from(governanceLog)
      .where(eq(governanceLog.messageId, id))
    return { seq: entry?.seq as number, storedBy: servedBy(response as Response) }
  }
  /** The proposal's totals recounted from its ballots, as a tally event carries them. */
  const recounted = async () => tallyToJson(await recountTally(postgres.db, proposal, tallyRules(message)))
  const tallyOf = (event: { data: unknown } | undefined): LiveTally['tally'] =>
    liveTallySchema.parse(event?.data).tally

  const stream = await openStream(eventsUrl)
  expect(stream.response.status).toBe(200)
  const streaming = instanceNamed(servedBy(stream.response)) as ApiProcess
  expect(streaming).toBeDefined()
  expect(tallyOf((await stream.until(1))[0]).voters).toBe(0)

  // Ada, Ben and Cleo vote, then Ada changes her mind: round robin stores them on every instance.
  const cast = []
  for (const index of [0, 1, 2, 3]) cast.push(await vote(index))
  expect(new Set(cast.map((c) => c.storedBy))).toEqual(new Set(apis.map((_, n) => `api${n + 1}`)))
  const lastCast = String(cast.at(-1)?.seq)
  await expect.poll(() => stream.events.at(-1)?.id, { timeout: 10_000 }).toBe(lastCast)
  expect(stream.events.map((event) => event.event)).toEqual(stream.events.map(() => 'tally'))
  expect(tallyOf(stream.events.at(-1))).toEqual(await recounted())
  expect(tallyOf(stream.events.at(-1)).voters).toBe(3)

  // The instance serving the stream dies: the stream ends; a vote is cast while no stream is open.
  await stopApiProcess(streaming, 'SIGKILL')
  await stream.ended
  const lastReceived = stream.events.at(-1)?.id as string
  const missed = await vote(4)

  // Resumed through the proxy from the last event received: another instance sends one tally that counts
  // the missed vote, then the next vote's.
  const resumed = await openStream(eventsUrl, { 'last-event-id': lastReceived })
  expect(resumed.response.status).toBe(200)
  const resumedOn = instanceNamed(servedBy(resumed.response))
  expect(resumedOn).toBeDefined()
  expect(resumedOn).not.toBe(streaming)
  const [replayed] = await resumed.until(1)
  expect(replayed?.id).toBe(String(missed.seq))
  expect(tallyOf(replayed)).toEqual(await recounted())
  const next = await vote(5)
  await expect.poll(() => resumed.events.at(-1)?.id, { timeout: 10_000 }).toBe(String(next.seq))
  const final = tallyOf(resumed.events.at(-1))
  expect(final).toEqual(await recounted())
  expect(final.voters).toBe(3)
  resumed.close()

  console.log(
    `cluster event stream: served by ${servedBy(stream.response)} (killed), resumed on ${servedBy(resumed.response)}; ${stream.events.length} tally events before the kill, ${resumed.events.length} after; votes stored by ${cast.map((c) => c.storedBy).join(', ')}, ${missed.storedBy}, ${next.storedBy}`,
  )
}, 120_000)
