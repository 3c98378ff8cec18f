// Cluster fault test ("nothing lost" with several instances, docs/deploy.md): HAProxy in front of three API
// processes on one PostgreSQL database. The rate limits are counted once for all three; during a burst of
// signed votes the instance running the token index is SIGKILLed, and another takes the index over. Then:
// every 2xx vote is stored; the hash-chained log verifies (appends stayed linear across processes); the
// counts reconcile; an answered refusal left nothing; every request without an answer from an instance
// (cut, or the proxy's 502/503) sent again converges; and sending every payload once more stores nothing new.
// PostgreSQL only (vitest.config.ts runs *.postgres.test.ts when TEST_DATABASE_URL is set).
import { type ProposalMessage, proposalId } from '@guildhall/core'
import { getFreePort } from '@guildhall/devchain/anvil'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  type ApiProcess,
  startApiProcess,
  stopApiProcess,
  stopApiProcesses,
} from '../../test-support/api-process.ts'
import {
  createProposals,
  expectConverged,
  expectNothingLost,
  resendCut,
  runBurst,
  signBurst,
  startVoteChain,
  voters,
} from '../../test-support/vote-burst.ts'
import { type TestDatabase, testDatabase } from '../db/test-database.ts'
import { type DemoChain, testEnv } from '../demo/local-chain.ts'
import { type Haproxy, startHaproxy } from './haproxy.ts'

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
let haproxy: Haproxy | undefined

beforeAll(async () => {
  chain = await startVoteChain()
  postgres = await testDatabase()
}, 60_000)

afterAll(async () => {
  await haproxy?.stop()
  await stopApiProcesses()
  await chain?.anvil.stop()
  await postgres?.close()
}, 30_000)

const role = (api: ApiProcess): Promise<string | undefined> =>
  fetch(`${api.origin}/api/health`, { signal: AbortSignal.timeout(1_000) })
    .then((response) => response.json() as Promise<{ tokenIndex?: string }>)
    .then(
      (health) => health.tokenIndex,
      () => undefined,
    )

/** The one leader among `apis`, once exactly one says so (bounded wait). */
async function leaderAmong(apis: ApiProcess[], timeoutMs: number): Promise<ApiProcess> {
  const deadline = Date.now() + timeoutMs
  while (true) {
    const roles = await Promise.all(apis.map(role))
    const leaders = apis.filter((_, n) => roles[n] === 'leader')
    if (leaders.length === 1 && roles.every((r) => r === 'leader' || r === 'standby'))
      return leaders[0] as ApiProcess
    if (Date.now() > deadline) throw new Error(`no single leader within ${timeoutMs} ms: ${roles.join(', ')}`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

test(`behavior: HAProxy, ${INSTANCES} instances, one PostgreSQL: rate limits shared; the leader SIGKILLed during a burst of ${PROPOSALS * 3 + RE_VOTED * 3} votes → another leads, every 2xx kept, the log verifies, refusals left nothing, resent payloads converge`, async () => {
  const proxyPort = await getFreePort()
  const origin = `http://127.0.0.1:${proxyPort}`
  const apis = await Promise.all(
    Array.from({ length: INSTANCES }, () =>
      startApiProcess({
        ...testEnv(chain.anvil.url, chain.deployment),
        SIGN_IN: 'off',
        DATABASE_URL: postgres.url,
        // Users open the proxy's origin; the instances believe its X-Forwarded-For.
        PUBLIC_ORIGIN: origin,
        TRUST_PROXY: '127.0.0.1',
        // A burst of hundreds of votes from one address is the point here, not the per-client limit.
        GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
        POWER_RATE_LIMIT_PER_MINUTE: String(POWER_LIMIT),
      }),
    ),
  )
  const leader = await leaderAmong(apis, TAKEOVER_MS)
  haproxy = await startHaproxy({ port: proxyPort, instances: apis.map((api) => new URL(api.origin).host) })

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
  await leaderAmong(
    apis.filter((api) => api !== leader),
    TAKEOVER_MS,
  )
  const takeoverMs = Date.now() - killedAt

  // Every request that got no answer from an instance is sent again through the proxy.
  await resendCut(origin, burst, cut)
  const { storedIds, logEntries } = await expectNothingLost(postgres.db, burst, { accepted, refused })
  await expectConverged(origin, postgres.db, burst, storedIds)

  console.log(
    `cluster (${INSTANCES} instances behind HAProxy): ${accepted.length} × 2xx, ${refused.length} refused (409), ${cut.length} without an instance's answer and resent; leader killed, another led ${takeoverMs} ms after the kill; ${storedIds.size} votes stored, ${logEntries} log entries`,
  )
}, 180_000)
