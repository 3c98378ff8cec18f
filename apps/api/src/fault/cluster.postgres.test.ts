// Cluster fault test ("nothing lost" with several instances, docs/deploy.md): HAProxy in front of three API
// processes on one PostgreSQL database. The rate limits are counted once for all three; during a burst of
// signed votes the instance running the token index is SIGKILLed, and another takes the index over. Then:
// every 2xx vote is stored; the hash-chained log verifies (appends stayed linear across processes); the
// counts reconcile; an answered refusal left nothing; every request without an answer from an instance
// (cut, or the proxy's 502/503) sent again converges; and sending every payload once more stores nothing new.
// PostgreSQL only (vitest.config.ts runs *.postgres.test.ts when TEST_DATABASE_URL is set).
import {
  BASIC_CHOICES,
  countingVotes,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type LogEntry,
  logChainProblem,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  type VoteMessage,
  voteId,
  voteTypedData,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { type DemoDeployment, deployDemoDao } from '@guildhall/devchain/demo-dao'
import { asc } from 'drizzle-orm'
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ballots, governanceLog, proposals, votes } from '../db/schema.ts'
import { type TestDatabase, testDatabase } from '../db/test-database.ts'
import { type ApiProcess, startApi, startedApis, stopApi } from './api-process.ts'
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
const REQUEST_TIMEOUT_MS = 30_000
const voters = [1, 2, 3].map((index) => privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex))

let anvil: AnvilInstance
let deployment: DemoDeployment
let postgres: TestDatabase
let haproxy: Haproxy | undefined

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  postgres = await testDatabase()
}, 60_000)

afterAll(async () => {
  await haproxy?.stop()
  for (const api of startedApis) await stopApi(api, 'SIGKILL')
  await anvil?.stop()
  await postgres?.close()
}, 30_000)

type Outcome = { status: number } | { cut: true }
/** An answer from an instance; the proxy's own 502/503/504 (instance gone mid-request) counts as none. */
const fromInstance = (outcome: Outcome): outcome is { status: number } =>
  'status' in outcome && ![502, 503, 504].includes(outcome.status)

const post = (origin: string, path: string, body: unknown): Promise<Outcome> =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).then(
    (response) => ({ status: response.status }),
    () => ({ cut: true }),
  )

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
      startApi({
        CHAIN_IDS: String(LOCAL_CHAIN_ID),
        [`RPC_URL_${LOCAL_CHAIN_ID}`]: anvil.url,
        TOKEN_ADDRESS: deployment.token,
        TOKEN_DEPLOY_BLOCK: String(deployment.deployBlock),
        WALLETS: 'injected',
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

  const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  const [author] = voters as [(typeof voters)[number]]
  const messages = Array.from(
    { length: PROPOSALS },
    (_, n): ProposalMessage => ({
      author: author.address,
      title: `Cluster-tested ${n}`,
      body: '',
      kind: 'basic',
      choices: [...BASIC_CHOICES],
      start: now - 3_600,
      end: now + 3_600,
      snapshot,
      quorum: '1000000000000000000000',
      threshold: '1000000000000000000',
      abstainCountsToQuorum: true,
      timestamp: now - 3_600,
    }),
  )
  for (const m of messages) {
    const created = await post(origin, '/api/proposals', {
      message: m,
      signature: await author.signTypedData(proposalTypedData(domain, m)),
    })
    expect(created).toEqual({ status: 201 })
  }

  // One client through the proxy, round robin over three processes: counted once, against one limit.
  const powerPath = `/api/proposals/${proposalId(domain, messages[0] as ProposalMessage)}/power/${author.address}`
  const powerStatuses = []
  for (let i = 0; i < POWER_LIMIT + 3; i++) powerStatuses.push((await fetch(`${origin}${powerPath}`)).status)
  expect(powerStatuses).toEqual([...Array(POWER_LIMIT).fill(200), 429, 429, 429])

  // Every voter votes once on every proposal, then again (later) on the first RE_VOTED.
  const plan = [
    ...messages.flatMap((m, n) =>
      voters.map((voter, v) => ({ m, voter, choice: 1 + ((n + v) % 3), at: now - 600 })),
    ),
    ...messages
      .slice(0, RE_VOTED)
      .flatMap((m, n) =>
        voters.map((voter, v) => ({ m, voter, choice: 1 + ((n + v + 1) % 3), at: now - 300 })),
      ),
  ]
  const signed = await Promise.all(
    plan.map(async ({ m, voter, choice, at }) => {
      const vote: VoteMessage = {
        voter: voter.address,
        proposal: proposalId(domain, m),
        choices: [choice],
        reason: '',
        timestamp: at,
      }
      return {
        path: `/api/proposals/${vote.proposal}/votes`,
        id: voteId(domain, vote),
        body: { message: vote, signature: await voter.signTypedData(voteTypedData(domain, vote)) },
      }
    }),
  )

  // The burst through the proxy; SIGKILL of the leader on the KILL_AFTER_OKS-th 2xx.
  const outcomes = new Map<number, Outcome>()
  let oks = 0
  let next = 0
  let killed: Promise<void> | undefined
  let killedAt = 0
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < signed.length) {
        const index = next++
        const { path, body } = signed[index] as (typeof signed)[number]
        const outcome = await post(origin, path, body)
        outcomes.set(index, outcome)
        if ('status' in outcome && outcome.status < 300 && ++oks === KILL_AFTER_OKS) {
          killedAt = Date.now()
          killed = stopApi(leader, 'SIGKILL')
        }
      }
    }),
  )
  await killed
  await leaderAmong(
    apis.filter((api) => api !== leader),
    TAKEOVER_MS,
  )
  const takeoverMs = Date.now() - killedAt

  const answered = [...outcomes].filter(([, o]) => fromInstance(o)) as [number, { status: number }][]
  const accepted = answered.filter(([, o]) => o.status < 300).map(([i]) => i)
  const refused = answered.filter(([, o]) => o.status >= 300).map(([i]) => i)
  const cut = [...outcomes].filter(([, o]) => !fromInstance(o)).map(([i]) => i)
  // Instances answer 2xx, or 409 for an earlier vote arriving after its voter's later one.
  expect(answered.filter(([, o]) => o.status >= 300 && o.status !== 409)).toEqual([])
  expect(accepted.length).toBeGreaterThanOrEqual(KILL_AFTER_OKS)
  expect(cut.length).toBeGreaterThan(0)

  // Every request that got no answer from an instance is sent again through the proxy.
  for (const index of cut) {
    const { path, body } = signed[index] as (typeof signed)[number]
    const retried = await post(origin, path, body)
    expect('status' in retried && [200, 201, 409].includes(retried.status), `retry of vote ${index}`).toBe(
      true,
    )
  }

  const { db } = postgres
  const stored = await db.select().from(votes)
  const storedIds = new Set(stored.map((vote) => vote.id))
  for (const index of accepted)
    expect(storedIds.has((signed[index] as (typeof signed)[number]).id), `2xx vote ${index}`).toBe(true)
  for (const index of refused)
    expect(storedIds.has((signed[index] as (typeof signed)[number]).id), `refused vote ${index}`).toBe(false)

  const log = await db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
  expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
  const proposalRows = await db.select().from(proposals)
  expect(log).toHaveLength(proposalRows.length + stored.length)
  expect(new Set(log.map((entry) => entry.messageId))).toEqual(
    new Set([...proposalRows.map((p) => p.id), ...storedIds]),
  )
  const ballotRows = await db.select().from(ballots)
  const byProposal = new Map<string, typeof stored>()
  for (const vote of stored)
    byProposal.set(vote.proposalId, [...(byProposal.get(vote.proposalId) ?? []), vote])
  const expected = new Map(
    [...byProposal].flatMap(([id, list]) =>
      [...countingVotes(list)].map(([voter, vote]) => [`${id}/${voter}`, vote.id] as const),
    ),
  )
  expect(ballotRows).toHaveLength(expected.size)
  for (const ballot of ballotRows)
    expect(ballot.voteId).toBe(expected.get(`${ballot.proposalId}/${ballot.voter.toLowerCase()}`))

  // Converged: every payload once more is a replay (200) of a stored vote or a refusal (409) of one that is
  // not, and nothing new is stored.
  for (const [index, { path, body, id }] of signed.entries()) {
    const again = await post(origin, path, body)
    expect(again, `resend of vote ${index}`).toEqual({ status: storedIds.has(id) ? 200 : 409 })
  }
  expect(new Set((await db.select({ id: votes.id }).from(votes)).map((vote) => vote.id))).toEqual(storedIds)

  console.log(
    `cluster (${INSTANCES} instances behind HAProxy): ${accepted.length} × 2xx, ${refused.length} refused (409), ${cut.length} without an instance's answer and resent; leader killed, another led ${takeoverMs} ms after the kill; ${stored.length} votes stored, ${log.length} log entries`,
  )
}, 180_000)
