// Fault test ("nothing lost", docs/security.md): the real server, run as a child process, is SIGKILLed during a burst of votes and
// restarted on the same data (the PGlite data folder, or the same PostgreSQL database with
// TEST_DATABASE_URL). Afterwards: every 2xx vote is stored and in the log; the log chain verifies end to end;
// the counts reconcile (one log entry per stored message, one counting vote per voter, the one the ordering
// rule picks); an answered refusal left nothing; and every request that got no answer, sent again with the
// same signed payload, converges to one stored effect.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { asc } from 'drizzle-orm'
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  type ApiProcess,
  startApiProcess,
  stopApiProcess,
  stopApiProcesses,
} from '../../test-support/api-process.ts'
import { openDatabase } from '../db/client.ts'
import { ballots, governanceLog, proposals, votes } from '../db/schema.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../db/test-database.ts'
import { startDemoChain, testEnv } from '../demo/local-chain.ts'

/** Proposals voted on by Ada, Ben and Cleo each, plus re-votes on the first RE_VOTED of them. */
const PROPOSALS = 40
const RE_VOTED = 20
const IN_FLIGHT = 50
/** The server is killed as soon as this many votes have answered 2xx, so about IN_FLIGHT are cut off. */
const KILL_AFTER_OKS = 60
const REQUEST_TIMEOUT_MS = 30_000
const voters = [1, 2, 3].map((index) => privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex))

let anvil: AnvilInstance
let deployment: DemoDeployment
let postgres: TestDatabase | undefined
let dataDir: string | undefined

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  if (testDatabaseUrl()) postgres = await testDatabase()
  else dataDir = await mkdtemp(join(tmpdir(), 'guildhall-vote-fault-'))
}, 60_000)

afterAll(async () => {
  await stopApiProcesses()
  await anvil?.stop()
  await postgres?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
}, 30_000)

const storage = () =>
  postgres?.url ? { DATABASE_URL: postgres.url } : { DATA_DIR: join(dataDir as string, 'db') }
const startVoteApi = () =>
  startApiProcess({
    ...testEnv(anvil.url, deployment),
    SIGN_IN: 'off',
    // A burst of hundreds of votes from one address is the point here, not the per-client limit.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    ...storage(),
  })

type Outcome = { status: number } | { cut: true }
const post = (api: ApiProcess, path: string, body: unknown): Promise<Outcome> =>
  fetch(`${api.origin}${path}`, {
    method: 'POST',
    headers: { origin: api.origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).then(
    (response) => ({ status: response.status }),
    () => ({ cut: true }),
  )

test(`behavior: SIGKILL during a burst of ${PROPOSALS * 3 + RE_VOTED * 3} votes (${IN_FLIGHT} in flight), restart → every 2xx kept, the log verifies, counts reconcile, retries converge`, async () => {
  const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  const [author] = voters as [(typeof voters)[number]]
  const proposalMessage = (n: number): ProposalMessage => ({
    author: author.address,
    title: `Crash-tested ${n}`,
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
  })
  const messages = Array.from({ length: PROPOSALS }, (_, n) => proposalMessage(n))
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

  const first = await startVoteApi()
  for (const m of messages) {
    const created = await post(first, '/api/proposals', {
      message: m,
      signature: await author.signTypedData(proposalTypedData(domain, m)),
    })
    expect(created).toEqual({ status: 201 })
  }

  // The burst; SIGKILL on the KILL_AFTER_OKS-th 2xx.
  const order = signed.map((_, i) => i)
  const outcomes = new Map<number, Outcome>()
  let oks = 0
  let next = 0
  let killed: Promise<void> | undefined
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < order.length) {
        const index = order[next++] as number
        const { path, body } = signed[index] as (typeof signed)[number]
        const outcome = await post(first, path, body)
        outcomes.set(index, outcome)
        if ('status' in outcome && outcome.status < 300 && ++oks === KILL_AFTER_OKS)
          killed = stopApiProcess(first, 'SIGKILL')
      }
    }),
  )
  await killed
  const answered = [...outcomes.entries()].filter(([, o]) => 'status' in o) as [number, { status: number }][]
  const accepted = answered.filter(([, o]) => o.status < 300).map(([i]) => i)
  const refused = answered.filter(([, o]) => o.status >= 300).map(([i]) => i)
  const cut = [...outcomes.entries()].filter(([, o]) => 'cut' in o).map(([i]) => i)
  expect(answered.every(([, o]) => o.status < 500)).toBe(true)
  expect(accepted.length).toBeGreaterThanOrEqual(KILL_AFTER_OKS)
  expect(cut.length).toBeGreaterThan(0)

  // Restart on the same data; every request that got no answer is sent again with its signed payload.
  const second = await startVoteApi()
  for (const index of cut) {
    const { path, body } = signed[index] as (typeof signed)[number]
    const retried = await post(second, path, body)
    expect('status' in retried && [200, 201, 409].includes(retried.status), `retry of vote ${index}`).toBe(
      true,
    )
  }
  await stopApiProcess(second, 'SIGTERM')

  const database = await openDatabase(
    postgres?.url ? { databaseUrl: postgres.url } : { dataDir: join(dataDir as string, 'db') },
  )
  try {
    const stored = await database.db.select().from(votes)
    const storedIds = new Set(stored.map((vote) => vote.id))
    for (const index of accepted)
      expect(storedIds.has((signed[index] as (typeof signed)[number]).id), `2xx vote ${index}`).toBe(true)
    for (const index of refused)
      expect(storedIds.has((signed[index] as (typeof signed)[number]).id), `refused vote ${index}`).toBe(
        false,
      )

    const log = await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
    expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
    const proposalRows = await database.db.select().from(proposals)
    expect(log).toHaveLength(proposalRows.length + stored.length)
    expect(new Set(log.map((entry) => entry.messageId))).toEqual(
      new Set([...proposalRows.map((p) => p.id), ...storedIds]),
    )

    const ballotRows = await database.db.select().from(ballots)
    // Per proposal, the vote the ordering rule picks among the stored ones is the ballot's.
    const byProposal = new Map<string, typeof stored>()
    for (const vote of stored)
      byProposal.set(vote.proposalId, [...(byProposal.get(vote.proposalId) ?? []), vote])
    const expected = new Map(
      [...byProposal].flatMap(([id, list]) =>
        [...countingVotes(list)].map(([voter, vote]) => [`${id}/${voter}`, vote.id] as const),
      ),
    )
    expect(ballotRows).toHaveLength(expected.size)
    for (const ballot of ballotRows) {
      expect(ballot.voteId).toBe(expected.get(`${ballot.proposalId}/${ballot.voter.toLowerCase()}`))
    }
    console.log(
      `vote crash (${postgres ? 'postgres' : 'pglite'}): ${accepted.length} × 2xx, ${refused.length} refused (409), ${cut.length} cut off and retried; ${stored.length} votes stored, ${log.length} log entries`,
    )
  } finally {
    await database.close()
  }
}, 180_000)
