// Proposals and votes over HTTP against a real chain (anvil with the demo DAO) and a real database (PGlite,
// or PostgreSQL under scripts/with-postgres.sh): every adversarial vote case of docs/security.md as a named test.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import {
  BASIC_CHOICES,
  castVoteResponseSchema,
  countingVotes,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type LogEntry,
  logChainProblem,
  PROPOSAL_STATES,
  type ProposalMessage,
  proposalId,
  proposalListSchema,
  proposalTypedData,
  SIGNATURE_CHECK_GAS,
  tally,
  tallyToJson,
  type VoteMessage,
  voteId,
  voteListSchema,
  voteTypedData,
} from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { BundleFormatError, type RecountProgress, recount, resultBundleSchema } from '@guildhall/core/recount'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import {
  approveHashOnChain,
  deploySafes,
  type SafeDeployment,
  signHashAsSafe,
} from '@guildhall/devchain/safe'
import { count, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  numberToHex,
  type PrivateKeyAccount,
  parseSignature,
  serializeErc6492Signature,
  serializeSignature,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  jsonHeaders,
  member,
  nowSeconds,
  ORIGIN,
  postJson,
  startTestbed,
  stopTestbed,
  testApp,
} from '../../testbed/app.ts'
import { testEnv } from '../demo/local-chain.ts'
import { ballots, governanceLog, proposals, proposalTallies, votes } from '../platform/db/schema.ts'
import type { TestDatabase } from '../platform/db/test-database.ts'
import { parseEnv } from '../settings/env.ts'
import { tokenArea } from '../token/area.ts'
import { governanceArea } from './area.ts'
import { findProposal } from './proposals.ts'
import { proposalResult } from './results.ts'
import { checkTallies, recountTally, tallyRules } from './tallies.ts'
import { castVote } from './votes.ts'

// The demo DAO (packages/devchain/src/demo-dao.ts): Ada votes with her and Dev's tokens, Ben with his and
// Eve's, Dev delegated to Ada, Finn never delegated, Iris holds nothing.
const ada = member(1)
const ben = member(2)
const cleo = member(3)
const dev = member(4)
const finn = member(6)
const iris = member(9)
const stranger = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318')

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let app: FastifyInstance
let snapshot: number
let domain: ReturnType<typeof governanceDomain>
let safes: SafeDeployment

async function delegateFrom(index: number, to: Hex) {
  const wallet = createWalletClient({ account: member(index), transport: http(anvil.url) })
  const hash = await wallet.writeContract({
    chain: null,
    address: deployment.token,
    abi: governanceTokenAbi,
    functionName: 'delegate',
    args: [to],
    gas: 300_000n,
  })
  await createPublicClient({ transport: http(anvil.url) }).waitForTransactionReceipt({
    hash,
    pollingInterval: 50,
  })
}

const post = (url: string, body: unknown) => postJson(app, url, body)

function proposalMessage(
  author: PrivateKeyAccount,
  overrides: Partial<ProposalMessage> = {},
): ProposalMessage {
  const now = nowSeconds()
  return {
    author: author.address,
    title: 'Repair the roof',
    body: 'The **roof** leaks.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: now - 60,
    end: now + 3 * 3600,
    snapshot,
    quorum: '1000000000000000000000',
    threshold: '1000000000000000000',
    abstainCountsToQuorum: true,
    timestamp: now - 30,
    ...overrides,
  }
}

async function createProposal(author: PrivateKeyAccount, overrides: Partial<ProposalMessage> = {}) {
  const message = proposalMessage(author, overrides)
  const signature = await author.signTypedData(proposalTypedData(domain, message))
  const response = await post('/api/proposals', { message, signature })
  return { response, message, id: proposalId(domain, message) }
}

async function signedVote(
  voter: PrivateKeyAccount,
  proposal: Hex,
  overrides: Partial<VoteMessage> = {},
  signingDomain = domain,
) {
  const message: VoteMessage = {
    voter: voter.address,
    proposal,
    choices: [1],
    reason: '',
    timestamp: nowSeconds(),
    ...overrides,
  }
  const signature = await voter.signTypedData(voteTypedData(signingDomain, message))
  return { message, signature, id: voteId(domain, message) }
}
/** The request body of a signed vote: exactly the message and the signature. */
const postVote = (url: string, { message, signature }: { message: unknown; signature: Hex }) =>
  post(url, { message, signature })

const rowsOf = async (table: typeof votes | typeof proposals | typeof governanceLog | typeof ballots) =>
  (await database.db.select({ n: count() }).from(table))[0]?.n ?? 0
const votesOn = async (proposal: Hex) =>
  (await database.db.select({ n: count() }).from(votes).where(eq(votes.proposalId, proposal)))[0]?.n ?? 0

beforeAll(async () => {
  ;({ anvil, deployment, database } = await startTestbed())
  // Contract voters: Gia and Hugo delegate their votes to the demo Safes (1-of-1 Ada; 2-of-3 Ada, Ben,
  // Cleo), which so hold voting power without holding tokens.
  safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  await delegateFrom(7, safes.oneOfOne.address)
  await delegateFrom(8, safes.twoOfThree.address)
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
  app = await appOn(anvil.url)
}, 60_000)

/**
 * An app on `rpcUrl` sharing this file's database; `env` adds to the governance test settings. These tests
 * send hundreds of messages from one address, and on PostgreSQL every app on the database counts them
 * together (as instances behind a load balancer do): the limits are high but for their own test below,
 * which sends from addresses of its own.
 */
const appOn = (rpcUrl: string, env: Record<string, string> = {}, now?: () => Date) =>
  testApp(
    { anvil, deployment, database },
    {
      rpcUrl,
      env: {
        SIGN_IN: 'off',
        EXPORT_RATE_LIMIT_PER_MINUTE: '100000',
        POWER_RATE_LIMIT_PER_MINUTE: '100000',
        ...env,
      },
      ...(now ? { now } : {}),
    },
  )

afterAll(() => stopTestbed({ anvil, database }, app))

describe('proposals', () => {
  test('behavior: a valid proposal → 201 with its digest as id; the same signed proposal again → 200, one row', async () => {
    const { response, message, id } = await createProposal(ada)
    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({ id })
    const signature = await ada.signTypedData(proposalTypedData(domain, message))
    const replay = await post('/api/proposals', { message, signature })
    expect(replay.statusCode).toBe(200)
    expect((await database.db.select().from(proposals).where(eq(proposals.id, id))).length).toBe(1)
  })

  test('behavior: an author below the threshold at the snapshot → 403 with the reason, nothing stored', async () => {
    const before = await rowsOf(proposals)
    const { response } = await createProposal(finn)
    expect(response.statusCode).toBe(403)
    expect(response.json().message).toMatch(/had not delegated them/)
    expect(await rowsOf(proposals)).toBe(before)
  })

  test('behavior: rules other than the DAO’s → 422; a snapshot that is not a recent past block → 422', async () => {
    expect((await createProposal(ada, { quorum: '1' })).response.statusCode).toBe(422)
    const future = await createProposal(ada, { snapshot: snapshot + 100 })
    expect(future.response.statusCode).toBe(422)
    expect(future.response.json().error).toBe('bad_snapshot')
  })

  test('boundary: the snapshot is one of the last DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS (25) blocks before the head: 26 blocks old → 422 naming the bound, 25 → 201, the head itself → 422', async () => {
    const bound = DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: bound + 2 })
    const head = Number(
      await createPublicClient({ transport: http(anvil.url) }).getBlockNumber({ cacheTime: 0 }),
    )
    const stale = await createProposal(ada, { title: 'Stale snapshot', snapshot: head - bound - 1 })
    expect(stale.response.statusCode).toBe(422)
    expect(stale.response.json()).toEqual({
      error: 'bad_snapshot',
      message: `The snapshot block ${head - bound - 1} is ${bound + 1} blocks old; it must be one of the last ${bound} blocks before the chain's current block (${head}). Sign the proposal again to take a recent snapshot.`,
    })
    expect(await database.db.select().from(proposals).where(eq(proposals.id, stale.id))).toEqual([])
    const current = await createProposal(ada, { title: 'Current block', snapshot: head })
    expect(current.response.statusCode).toBe(422)
    expect(current.response.json()).toEqual({
      error: 'bad_snapshot',
      message: `The snapshot block ${head} is not yet final: it must be before the chain's current block (${head}).`,
    })
    const oldest = await createProposal(ada, { title: 'Oldest allowed snapshot', snapshot: head - bound })
    expect(oldest.response.statusCode).toBe(201)
    const [stored] = await database.db.select().from(proposals).where(eq(proposals.id, oldest.id))
    expect(stored?.snapshot).toBe(head - bound)
    // The tests after this one sign with the block before the head, as the new-proposal page does.
    snapshot = head - 1
  })

  test('behavior: rules that are not whole numbers of token units → 400 with the field, never a 500', async () => {
    for (const overrides of [{ quorum: 'a thousand' }, { threshold: '1.5' }, { quorum: '' }]) {
      const message = { ...proposalMessage(ada), ...overrides }
      const response = await post('/api/proposals', { message, signature: `0x${'11'.repeat(65)}` })
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400)
      expect(response.json().message).toMatch(/(quorum|threshold): must be a whole number of token units/)
    }
  })

  test('behavior: signed by another key → 401, nothing stored', async () => {
    const message = proposalMessage(ada, { title: 'Forged' })
    const signature = await stranger.signTypedData(proposalTypedData(domain, message))
    const response = await post('/api/proposals', { message, signature })
    expect(response.statusCode).toBe(401)
    expect(
      await database.db
        .select()
        .from(proposals)
        .where(eq(proposals.id, proposalId(domain, message))),
    ).toEqual([])
  })

  test('behavior: a list filtered by state, and a detail page with its tally', async () => {
    const { id } = await createProposal(ada, { title: 'Listed' })
    const pending = await createProposal(ada, {
      title: 'Later',
      start: nowSeconds() + 3600,
      end: nowSeconds() + 7200,
    })
    // The answers are the shapes packages/core declares and the web app validates.
    const active = proposalListSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/proposals?state=active' })).json(),
    )
    expect(active.proposals.map((p: { id: string }) => p.id)).toContain(id)
    expect(active.proposals.map((p: { id: string }) => p.id)).not.toContain(pending.id)
    const detail = (await app.inject({ method: 'GET', url: `/api/proposals/${id}` })).json()
    expect(detail).toMatchObject({
      id,
      title: 'Listed',
      state: 'active',
      tally: { outcome: 'no-quorum', voters: 0 },
    })
    expect((await app.inject({ method: 'GET', url: '/api/proposals?state=open' })).statusCode).toBe(400)
  })
})

describe('time limits (GOVERNANCE_LIMITS, TIMESTAMP_MAX_AGE_SECONDS, TIMESTAMP_MAX_SKEW_SECONDS)', () => {
  const DAY = 24 * 3600
  let proposal: Hex
  let proposalStart: number
  let longRunning: Hex
  beforeAll(async () => {
    const now = nowSeconds()
    proposalStart = now - 3600
    proposal = (
      await createProposal(ada, {
        title: 'Started an hour ago',
        start: proposalStart,
        timestamp: proposalStart - 60,
      })
    ).id
    // Started 7 days ago, so a vote may be 6 days old without predating the start.
    longRunning = (
      await createProposal(ada, {
        title: 'Long running',
        start: now - 7 * DAY,
        end: now + 3600,
        timestamp: now - 60,
      })
    ).id
  })

  interface Sent {
    response: Awaited<ReturnType<typeof post>>
    stored: () => Promise<boolean>
  }
  /** A proposal signed with these fields (from the time it is sent); `stored` says whether it was kept. */
  const propose =
    (title: string, fields: (now: number) => Partial<ProposalMessage>) => async (): Promise<Sent> => {
      const { response, id } = await createProposal(ada, { title, ...fields(nowSeconds()) })
      const stored = async () =>
        (await database.db.select().from(proposals).where(eq(proposals.id, id))).length > 0
      return { response, stored }
    }
  /** A vote on one of the two proposals above; `stored` says whether the proposal gained a vote. */
  const vote =
    (voter: PrivateKeyAccount, on: () => Hex, fields: (now: number) => Partial<VoteMessage>) =>
    async (): Promise<Sent> => {
      const before = await votesOn(on())
      const response = await postVote(
        `/api/proposals/${on()}/votes`,
        await signedVote(voter, on(), fields(nowSeconds())),
      )
      const stored = async () => (await votesOn(on())) > before
      return { response, stored }
    }
  const tooFarAhead = {
    status: 400,
    body: {
      error: 'bad_request',
      message: 'Invalid proposal:\n- message.start: A proposal may start at most 30 days after it is signed',
    },
  }
  const badTimestamp = (message: string) => ({ status: 422, body: { error: 'bad_timestamp', message } })

  // Each limit from both sides, in this order: just outside → refused naming the limit, nothing stored;
  // just inside → 201, stored.
  const cases: { name: string; send: () => Promise<Sent>; refused?: { status: number; body: unknown } }[] = [
    {
      name: 'a proposal starting 10 years after its signing',
      send: propose('Far ahead', (now) => ({
        start: now + 10 * 365 * DAY,
        end: now + 10 * 365 * DAY + 3600,
        timestamp: now,
      })),
      refused: tooFarAhead,
    },
    {
      name: 'a proposal starting 30 days and a second after its signing',
      send: propose('Far ahead', (now) => ({
        start: now + 30 * DAY + 1,
        end: now + 30 * DAY + 3601,
        timestamp: now,
      })),
      refused: tooFarAhead,
    },
    {
      name: 'a proposal starting 30 days after its signing',
      send: propose('Thirty days ahead', (now) => ({
        start: now + 30 * DAY,
        end: now + 30 * DAY + 3600,
        timestamp: now,
      })),
    },
    {
      name: 'a proposal signed over 6 days ago',
      send: propose('Stale', (now) => ({ timestamp: now - 6 * DAY - 60 })),
      refused: badTimestamp('This proposal was signed more than 6 days ago. Sign it again.'),
    },
    {
      name: 'a proposal dated over 5 minutes ahead',
      send: propose('Ahead', (now) => ({ timestamp: now + 5 * 60 + 60 })),
      refused: badTimestamp(
        "This proposal is dated more than 5 minutes ahead of the server's clock. Check your device clock.",
      ),
    },
    {
      name: 'a proposal signed just under 6 days ago',
      send: propose('Slow multisig', (now) => ({ timestamp: now - 6 * DAY + 60 })),
    },
    {
      name: 'a proposal dated just under 5 minutes ahead',
      send: propose('Fast clock', (now) => ({ timestamp: now + 5 * 60 - 60 })),
    },
    {
      name: 'a vote signed over 6 days ago',
      send: vote(
        ben,
        () => longRunning,
        (now) => ({ timestamp: now - 6 * DAY - 60 }),
      ),
      refused: badTimestamp('This vote was signed more than 6 days ago. Sign it again.'),
    },
    {
      name: 'a vote dated over 5 minutes ahead',
      send: vote(
        ben,
        () => longRunning,
        (now) => ({ timestamp: now + 5 * 60 + 60 }),
      ),
      refused: badTimestamp(
        "This vote is dated more than 5 minutes ahead of the server's clock. Check your device clock.",
      ),
    },
    {
      name: 'a vote signed over 5 minutes before the start',
      send: vote(
        ben,
        () => proposal,
        () => ({ timestamp: proposalStart - 5 * 60 - 60 }),
      ),
      refused: badTimestamp('This vote was signed before the voting period began. Sign it again.'),
    },
    {
      name: 'a vote signed just under 6 days ago',
      send: vote(
        ben,
        () => longRunning,
        (now) => ({ timestamp: now - 6 * DAY + 60 }),
      ),
    },
    {
      name: 'a vote dated just under 5 minutes ahead',
      send: vote(
        cleo,
        () => longRunning,
        (now) => ({ timestamp: now + 5 * 60 - 60 }),
      ),
    },
    {
      name: 'a vote signed just under 5 minutes before the start',
      send: vote(
        ben,
        () => proposal,
        () => ({ timestamp: proposalStart - 5 * 60 + 60 }),
      ),
    },
  ]
  for (const { name, send, refused } of cases) {
    test(`boundary: ${name} → ${refused ? `${refused.status} naming the limit, nothing stored` : '201'}`, async () => {
      const { response, stored } = await send()
      if (refused) {
        expect(response.statusCode).toBe(refused.status)
        expect(response.json()).toEqual(refused.body)
        expect(await stored()).toBe(false)
      } else {
        expect(response.statusCode).toBe(201)
        expect(await stored()).toBe(true)
      }
    })
  }
})

describe('votes (adversarial vote cases)', () => {
  let proposal: Hex
  beforeAll(async () => {
    proposal = (await createProposal(ada, { title: 'Votes' })).id
  })

  test('behavior: a valid vote → 201 with the digest id; the exact replay → 200, one row', async () => {
    const { message, signature, id } = await signedVote(cleo, proposal, {
      choices: [2],
      reason: 'Too costly.',
    })
    const first = await postVote(`/api/proposals/${proposal}/votes`, { message, signature })
    expect(first.statusCode).toBe(201)
    expect(castVoteResponseSchema.parse(first.json())).toEqual({ id, created: true, counts: true })
    const replay = await postVote(`/api/proposals/${proposal}/votes`, { message, signature })
    expect(replay.statusCode).toBe(200)
    expect(replay.json()).toEqual({ id, created: false, counts: true })
    expect((await database.db.select().from(votes).where(eq(votes.id, id))).length).toBe(1)
  })

  test('behavior: 50 concurrent identical votes plus their high-s variants → one row, no 5xx', async () => {
    const own = (await createProposal(ada, { title: 'Concurrent' })).id
    const { message, signature, id } = await signedVote(ben, own)
    const { r, s, yParity } = parseSignature(signature)
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const highS = serializeSignature({
      r,
      s: `0x${(n - BigInt(s)).toString(16).padStart(64, '0')}`,
      yParity: 1 - (yParity as number),
    })
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        postVote(`/api/proposals/${own}/votes`, { message, signature: i % 2 ? highS : signature }),
      ),
    )
    const statuses = responses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(new Set(statuses)).toEqual(new Set([200, 201]))
    expect(await votesOn(own)).toBe(1)
    expect(
      (await database.db.select().from(governanceLog).where(eq(governanceLog.messageId, id))).length,
    ).toBe(1)
    // 100 signature checks and stored-vote lookups on one PGlite connection: 1–2 s on a quiet machine,
    // measured 7.4 s with the 2 cores shared; the default 5 s budget is for one request's work.
  }, 30_000)

  test('behavior: a later re-vote replaces; an earlier one → 409 and is not stored', async () => {
    const own = (await createProposal(ada, { title: 'Re-vote' })).id
    const t = nowSeconds()
    const first = await signedVote(ben, own, { timestamp: t - 10, choices: [1] })
    const later = await signedVote(ben, own, { timestamp: t, choices: [2] })
    const earlier = await signedVote(ben, own, { timestamp: t - 20, choices: [3] })
    expect((await postVote(`/api/proposals/${own}/votes`, first)).statusCode).toBe(201)
    expect((await postVote(`/api/proposals/${own}/votes`, later)).statusCode).toBe(201)
    const refused = await postVote(`/api/proposals/${own}/votes`, earlier)
    expect(refused.statusCode).toBe(409)
    expect(await votesOn(own)).toBe(2)
    const list = (await app.inject({ method: 'GET', url: `/api/proposals/${own}/votes` })).json()
    expect(list.votes).toEqual([expect.objectContaining({ id: later.id, choices: [2] })])
    const detail = (await app.inject({ method: 'GET', url: `/api/proposals/${own}` })).json()
    expect(detail.tally.perChoice).toEqual(['0', '850000000000000000000', '0'])
    expect(detail.tally.voters).toBe(1)
  })

  test('behavior: equal timestamps → the lower id wins, whichever arrives first', async () => {
    const t = nowSeconds()
    for (const order of [0, 1]) {
      const own = (await createProposal(ada, { title: `Tie ${order}` })).id
      const a = await signedVote(ben, own, { timestamp: t, choices: [1] })
      const b = await signedVote(ben, own, { timestamp: t, choices: [2] })
      const lower = a.id < b.id ? a : b
      const sequence = order === 0 ? [a, b] : [b, a]
      for (const vote of sequence) await postVote(`/api/proposals/${own}/votes`, vote)
      const list = (await app.inject({ method: 'GET', url: `/api/proposals/${own}/votes` })).json()
      expect(list.votes.map((v: { choices: number[] }) => v.choices)).toEqual([lower.message.choices])
      const { tally } = (await app.inject({ method: 'GET', url: `/api/proposals/${own}` })).json()
      expect(tally.perChoice[(lower.message.choices[0] ?? 0) - 1]).toBe('850000000000000000000')
      expect(tally.votingPower).toBe('850000000000000000000')
    }
  })

  test.each([
    [
      'another key',
      async (p: Hex) => ({
        ...(await signedVote(ben, p)),
        signature: (await signedVote(stranger, p)).signature,
      }),
    ],
    ['another chain id', (p: Hex) => signedVote(ben, p, {}, { ...domain, chainId: 1 })],
    [
      'another contract',
      (p: Hex) =>
        signedVote(
          ben,
          p,
          {},
          { ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' },
        ),
    ],
    [
      'another domain name',
      (p: Hex) => signedVote(ben, p, {}, { ...domain, name: 'Snapshot' } as unknown as typeof domain),
    ],
    [
      'another version',
      (p: Hex) => signedVote(ben, p, {}, { ...domain, version: '2' } as unknown as typeof domain),
    ],
    [
      'another proposal',
      async (p: Hex) => {
        const other = `0x${'12'.repeat(32)}` as Hex
        const signed = await signedVote(ben, other)
        return { ...signed, message: { ...signed.message, proposal: p } }
      },
    ],
    [
      'the choice altered',
      async (p: Hex) => {
        const signed = await signedVote(ben, p, { choices: [1] })
        return { ...signed, message: { ...signed.message, choices: [2] } }
      },
    ],
  ])('parameters: a vote signed for %s → 401, nothing stored', async (_name, make) => {
    const own = (await createProposal(ada, { title: `Forgery ${_name}` })).id
    const { message, signature } = await make(own)
    const response = await postVote(`/api/proposals/${own}/votes`, { message, signature })
    expect(response.statusCode).toBe(401)
    expect(await votesOn(own)).toBe(0)
  })

  test('behavior: a vote filed under a proposal other than the one signed → 401 (the server rebuilds the message)', async () => {
    const other = (await createProposal(ada, { title: 'Elsewhere' })).id
    const signed = await signedVote(ben, proposal)
    const response = await postVote(`/api/proposals/${other}/votes`, signed)
    expect(response.statusCode).toBe(401)
    expect(await votesOn(other)).toBe(0)
  })

  test('behavior: an unknown proposal → 404', async () => {
    const unknown = `0x${'ab'.repeat(32)}` as Hex
    expect(
      (await postVote(`/api/proposals/${unknown}/votes`, await signedVote(ben, unknown))).statusCode,
    ).toBe(404)
  })

  test('behavior: outside the voting window → 422', async () => {
    const pending = (
      await createProposal(ada, { title: 'Not yet', start: nowSeconds() + 3600, end: nowSeconds() + 7200 })
    ).id
    const response = await postVote(`/api/proposals/${pending}/votes`, await signedVote(ben, pending))
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toBe('not_open')
  })

  test.each([
    ['out of range', [4], 422],
    ['two choices on a basic proposal', [1, 2], 422],
    ['0', [0], 400],
    ['negative', [-1], 400],
    ['fractional', [1.5], 400],
    ['a string', ['1'], 400],
    ['huge', [2 ** 53], 400],
    ['duplicates', [1, 1], 400],
    ['empty', [], 400],
  ])('parameters: choices %s → %s', async (_name, choices, status) => {
    const signed = await signedVote(ben, proposal)
    const response = await postVote(`/api/proposals/${proposal}/votes`, {
      ...signed,
      message: { ...signed.message, choices },
    })
    expect(response.statusCode).toBe(status)
  })

  test.each([
    ['Dev, who delegated to Ada', dev, 'delegated-to-other'],
    ['Finn, who never delegated', finn, 'not-delegated'],
    ['Iris, who holds nothing', iris, 'no-tokens'],
  ])('parameters: no voting power at the snapshot (%s) → 403 with the reason', async (_name, voter, code) => {
    const response = await postVote(`/api/proposals/${proposal}/votes`, await signedVote(voter, proposal))
    expect(response.statusCode).toBe(403)
    expect(response.json().error).toBe(code)
    const power = (
      await app.inject({ method: 'GET', url: `/api/proposals/${proposal}/power/${voter.address}` })
    ).json()
    expect(power).toMatchObject({ power: '0', reason: { code } })
  })

  test('behavior: NUL bytes, a lone UTF-16 surrogate, prototype-pollution keys and unknown fields → 400; an oversized body → 413', async () => {
    const signed = await signedVote(ben, proposal)
    for (const message of [
      { ...signed.message, reason: 'a\u0000b' },
      { ...signed.message, extra: true },
      JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(signed.message).slice(1)}`),
    ]) {
      expect(
        (await postVote(`/api/proposals/${proposal}/votes`, { message, signature: signed.signature }))
          .statusCode,
      ).toBe(400)
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
    // JSON may carry a lone surrogate as an escape; EIP-712's UTF-8 would turn it into U+FFFD.
    const loneSurrogate = await postVote(`/api/proposals/${proposal}/votes`, {
      message: { ...signed.message, reason: 'ok\ud83d' },
      signature: signed.signature,
    })
    expect(loneSurrogate.statusCode).toBe(400)
    expect(loneSurrogate.json().message).toContain('must be valid Unicode text')
    const huge = await postVote(`/api/proposals/${proposal}/votes`, {
      ...signed,
      message: { ...signed.message, reason: 'x'.repeat(20_000) },
    })
    expect(huge.statusCode).toBe(413)
  })

  test('behavior: SQL and HTML in a reason are stored verbatim', async () => {
    const own = (await createProposal(ada, { title: 'Verbatim' })).id
    const reason = `'); DROP TABLE votes; -- <img src=x onerror=alert(1)>`
    const signed = await signedVote(ben, own, { reason })
    expect((await postVote(`/api/proposals/${own}/votes`, signed)).statusCode).toBe(201)
    const [row] = await database.db.select().from(votes).where(eq(votes.id, signed.id))
    expect(row?.message.reason).toBe(reason)
  })
})

describe('contract voters (Safe v1.5.0)', () => {
  test('behavior: a 1-of-1 Safe votes with its owner’s ERC-1271 signature → 201, with the power delegated to it', async () => {
    const own = (await createProposal(ada, { title: 'Safe 1-of-1' })).id
    const message: VoteMessage = {
      voter: safes.oneOfOne.address,
      proposal: own,
      choices: [1],
      reason: '',
      timestamp: nowSeconds(),
    }
    const id = voteId(domain, message)
    const signature = await signHashAsSafe({
      safe: message.voter,
      chainId: LOCAL_CHAIN_ID,
      owners: [ada],
      hash: id,
    })
    const response = await postVote(`/api/proposals/${own}/votes`, { message, signature })
    expect(response.statusCode).toBe(201)
    const [row] = await database.db.select().from(votes).where(eq(votes.id, id))
    expect(row?.power).toBe(10n * 10n ** 18n)
  })

  test('behavior: a 2-of-3 Safe votes with the on-chain approved hash and an empty signature → 201; one owner alone → 401', async () => {
    const own = (await createProposal(ada, { title: 'Safe 2-of-3' })).id
    const message: VoteMessage = {
      voter: safes.twoOfThree.address,
      proposal: own,
      choices: [2],
      reason: 'Approved by two of three.',
      timestamp: nowSeconds(),
    }
    const id = voteId(domain, message)
    const oneOwner = await signHashAsSafe({
      safe: message.voter,
      chainId: LOCAL_CHAIN_ID,
      owners: [ada],
      hash: id,
    })
    expect((await postVote(`/api/proposals/${own}/votes`, { message, signature: oneOwner })).statusCode).toBe(
      401,
    )
    await approveHashOnChain({
      rpcUrl: anvil.url,
      chainId: LOCAL_CHAIN_ID,
      safe: message.voter,
      owners: [ada, ben],
      hash: id,
    })
    const response = await postVote(`/api/proposals/${own}/votes`, { message, signature: '0x' })
    expect(response.statusCode).toBe(201)
    // The recount verifies the Safe's vote the same way, on the chain.
    const bundle = (await app.inject({ method: 'GET', url: `/api/proposals/${own}/bundle` })).body
    expect((await recount([bundle], createPublicClient({ transport: http(anvil.url) }))).differences).toEqual(
      [],
    )
  })
})

describe('stored tallies and pages (reads cost a page, not the history)', () => {
  const voters = [ada, ben, cleo]
  const kinds = [
    { kind: 'basic', choices: [...BASIC_CHOICES] },
    { kind: 'single-choice', choices: ['Oak', 'Ash', 'Elm'] },
    { kind: 'approval', choices: ['Oak', 'Ash', 'Elm'] },
  ] as const

  /** Every stored vote of a proposal, counted from scratch by core (what any recount does). */
  async function recountedFromStoredVotes(proposal: Hex, message: ProposalMessage) {
    const rows = await database.db.select().from(votes).where(eq(votes.proposalId, proposal))
    const counting = countingVotes(rows.map((row) => ({ ...row, voter: row.voter })))
    return tallyToJson(
      tally(
        tallyRules(message),
        [...counting.values()].map((row) => ({ choices: row.message.choices, power: row.power })),
      ),
    )
  }

  test('property: after any interleaving of votes and re-votes, sent concurrently, the stored tally equals a full recount', async () => {
    const vote = fc.record({
      voter: fc.integer({ min: 0, max: voters.length - 1 }),
      // A narrow window of seconds, so equal timestamps (the lower id wins) come up often.
      age: fc.integer({ min: 0, max: 6 }),
      choices: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 }),
    })
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: kinds.length - 1 }),
        fc.array(vote, { minLength: 1, maxLength: 12 }),
        async (kindIndex, sequence) => {
          const { kind, choices } = kinds[kindIndex] as (typeof kinds)[number]
          run += 1
          const created = await createProposal(ada, {
            title: `Interleaving ${run}`,
            kind,
            choices: [...choices],
          })
          expect(created.response.statusCode).toBe(201)
          const now = nowSeconds()
          const signed = await Promise.all(
            sequence.map((step) =>
              signedVote(voters[step.voter] as PrivateKeyAccount, created.id, {
                timestamp: now - step.age,
                choices: kind === 'approval' ? step.choices : step.choices.slice(0, 1),
              }),
            ),
          )
          const statuses = (
            await Promise.all(signed.map((one) => postVote(`/api/proposals/${created.id}/votes`, one)))
          ).map((response) => response.statusCode)
          expect(
            statuses.every((status) => [200, 201, 409].includes(status)),
            String(statuses),
          ).toBe(true)
          const stored = (await app.inject({ method: 'GET', url: `/api/proposals/${created.id}` })).json()
          expect(stored.tally).toEqual(await recountedFromStoredVotes(created.id, created.message))
          expect(
            tallyToJson(await recountTally(database.db, created.id, tallyRules(created.message))),
          ).toEqual(stored.tally)
        },
      ),
      { numRuns: 12, seed: 20261126 },
    )
  }, 120_000)

  test('behavior: `npm run tallies:check` finds every stored tally equal to a recount, and names a proposal whose row was altered', async () => {
    const clean = await checkTallies(database.db)
    expect(clean.proposals).toBe(await rowsOf(proposals))
    expect(clean.mismatches).toEqual([])
    const [victim] = await database.db.select().from(proposalTallies).limit(1)
    if (!victim) throw new Error('no tally row')
    await database.db
      .update(proposalTallies)
      .set({ voters: victim.voters + 1 })
      .where(eq(proposalTallies.proposalId, victim.proposalId))
    try {
      const altered = await checkTallies(database.db)
      expect(altered.mismatches.map((mismatch) => mismatch.proposalId)).toEqual([victim.proposalId])
      expect(altered.mismatches[0]?.stored.voters).toBe(victim.voters + 1)
      expect(altered.mismatches[0]?.recounted.voters).toBe(victim.voters)
    } finally {
      await database.db
        .update(proposalTallies)
        .set({ voters: victim.voters })
        .where(eq(proposalTallies.proposalId, victim.proposalId))
    }
  })

  test('behavior: the migration’s backfill computes the same totals as the votes moved them (a database from before stored tallies)', async () => {
    const before = await database.db.select().from(proposalTallies).orderBy(proposalTallies.proposalId)
    expect(before.length).toBeGreaterThan(3)
    const migration = readFileSync(new URL('../../drizzle/0004_stored_tallies.sql', import.meta.url), 'utf8')
    const backfill = migration
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
      .filter((statement) => /^(UPDATE "ballots"|INSERT INTO "proposal_tallies")/.test(statement))
    expect(backfill).toHaveLength(2)
    await database.db.transaction(async (tx) => {
      await tx.delete(proposalTallies)
      await tx.execute(sql`update ballots set power = 0`)
      for (const statement of backfill) await tx.execute(sql.raw(statement))
    })
    const after = await database.db.select().from(proposalTallies).orderBy(proposalTallies.proposalId)
    expect(after).toEqual(before)
    const ballotRows = await database.db
      .select({ ballot: ballots.power, vote: votes.power })
      .from(ballots)
      .innerJoin(votes, eq(votes.id, ballots.voteId))
    expect(ballotRows.every((row) => row.ballot === row.vote)).toBe(true)
  })

  test('behavior: a detail read still running when a vote is stored is not shared with the reader who asks after the vote (ADR 025)', async () => {
    const settings = parseEnv({ PUBLIC_ORIGIN: ORIGIN, ...testEnv(anvil.url, deployment), SIGN_IN: 'off' })
    const context = { settings, database, now: () => new Date(), logger: app.log }
    const deps = governanceArea(context, tokenArea(context))?.deps
    if (!deps) throw new Error('no governance deps')
    const { id } = await createProposal(ada, { title: 'Read after a vote' })
    const proposal = await findProposal(deps, id)
    if (!proposal) throw new Error('no proposal')
    // A read of the totals that began before the vote and is still running.
    type Result = Awaited<ReturnType<typeof proposalResult>>
    let finishEarlyRead!: (result: Result) => void
    const early = deps.reads.shared(
      id,
      'tally',
      () => new Promise<Result>((done) => (finishEarlyRead = done)),
    )
    const before = await recountTally(database.db, id, tallyRules(proposal.message))
    expect(await castVote(deps, id, await signedVote(ben, id))).toMatchObject({ created: true })
    const after = await proposalResult(deps, proposal)
    expect(after.voters).toBe(before.voters + 1)
    finishEarlyRead(before)
    expect((await early).voters).toBe(before.voters)
  })

  describe('the votes list', () => {
    let id: Hex
    const list = async (query: string) =>
      app.inject({ method: 'GET', url: `/api/proposals/${id}/votes${query}` })
    const allPages = async (query: string, between?: (page: number) => Promise<void>) => {
      const seen: { voter: string; power: string; timestamp: number }[] = []
      let next: string | null = null
      for (let page = 0; page < 20; page += 1) {
        const response = await list(`${query}${next ? `&cursor=${next}` : ''}`)
        expect(response.statusCode).toBe(200)
        const body = voteListSchema.parse(response.json())
        seen.push(...body.votes)
        await between?.(page)
        next = body.next
        if (!next) return seen
      }
      throw new Error('More pages than votes')
    }

    beforeAll(async () => {
      id = (await createProposal(ada, { title: 'Paged', kind: 'approval', choices: ['Oak', 'Ash', 'Elm'] }))
        .id
      await postVote(
        `/api/proposals/${id}/votes`,
        await signedVote(ada, id, { choices: [1, 2], reason: 'Both' }),
      )
      await postVote(`/api/proposals/${id}/votes`, await signedVote(cleo, id, { choices: [3] }))
    })

    test('behavior: by power, one vote per page, while a new voter and a re-vote arrive: every vote once, in order', async () => {
      const seen = await allPages('?order=power&limit=1', async (page) => {
        if (page === 0) {
          await postVote(`/api/proposals/${id}/votes`, await signedVote(ben, id, { choices: [2] }))
          await postVote(
            `/api/proposals/${id}/votes`,
            await signedVote(cleo, id, { choices: [1], timestamp: nowSeconds() + 1 }),
          )
        }
      })
      expect(seen.map((vote) => vote.voter)).toEqual([ada.address, ben.address, cleo.address])
      expect(seen.map((vote) => vote.power)).toEqual([
        '1250000000000000000000',
        '850000000000000000000',
        '500000000000000000000',
      ])
    })

    test('behavior: by time, newest first, pages cover every counting vote once', async () => {
      const seen = await allPages('?order=time&limit=2')
      expect(new Set(seen.map((vote) => vote.voter)).size).toBe(3)
      expect(seen).toHaveLength(3)
      const times = seen.map((vote) => vote.timestamp)
      expect([...times].sort((a, b) => b - a)).toEqual(times)
    })

    test('behavior: filter by choice and search by the start of the voter’s address, in any case', async () => {
      const oak = voteListSchema.parse((await list('?choice=1')).json())
      expect(oak.votes.map((vote) => vote.voter).sort()).toEqual([ada.address, cleo.address].sort())
      const elm = voteListSchema.parse((await list('?choice=3')).json())
      expect(elm.votes).toEqual([])
      const prefix = ben.address.slice(0, 8).toUpperCase().replace('0X', '0x')
      const found = voteListSchema.parse((await list(`?voter=${prefix}`)).json())
      expect(found.votes.map((vote) => vote.voter)).toEqual([ben.address])
      expect(found.votes[0]).toMatchObject({ choices: [2], reason: '' })
    })

    test('behavior: a cursor from another order, a forged cursor, or a page over 100 → 400 with a sentence, never a 500', async () => {
      const first = voteListSchema.parse((await list('?order=power&limit=1')).json())
      for (const query of [
        `?order=time&cursor=${first.next}`,
        '?cursor=bm90LWEtY3Vyc29y',
        `?cursor=${Buffer.from("power:1:0x' or 1=1 --").toString('base64url')}`,
        '?limit=101',
        '?choice=0',
        '?voter=ada.eth',
        '?order=random',
      ]) {
        const response = await list(query)
        expect(response.statusCode, query).toBe(400)
        expect(response.json().message, query).toMatch(/\w+ \w+/)
      }
      expect((await list(`?order=time&cursor=${first.next}`)).json().error).toBe('bad_cursor')
    })
  })

  test('behavior: the proposal list pages by start and filters each state in SQL exactly as proposalState decides, at any clock', async () => {
    const base = nowSeconds()
    for (const [offset, duration] of [
      [600, 3600],
      [1200, 7200],
    ] as const) {
      await createProposal(ada, {
        title: `Later ${offset}`,
        start: base + offset,
        end: base + offset + duration,
      })
    }
    for (const clock of [base, base + 900, base + 3 * 3600 + 60, base + 3 * 3600 + 600, base + 86_400]) {
      const viewer = await appOn(anvil.url, {}, () => new Date(clock * 1000))
      try {
        const everything: { id: string; state: string; start: number }[] = []
        let next: string | null = null
        do {
          const query: string = `/api/proposals?limit=3${next ? `&cursor=${next}` : ''}`
          const page = proposalListSchema.parse((await viewer.inject({ method: 'GET', url: query })).json())
          everything.push(...page.proposals)
          next = page.next
        } while (next)
        expect(everything.length).toBe(await rowsOf(proposals))
        expect(new Set(everything.map((p) => p.id)).size).toBe(everything.length)
        expect(everything.map((p) => p.start)).toEqual(everything.map((p) => p.start).sort((a, b) => b - a))
        for (const state of PROPOSAL_STATES) {
          const page = proposalListSchema.parse(
            (await viewer.inject({ method: 'GET', url: `/api/proposals?state=${state}&limit=100` })).json(),
          )
          expect(
            page.proposals.map((p) => p.id),
            `${state} at ${clock}`,
          ).toEqual(everything.filter((p) => p.state === state).map((p) => p.id))
        }
      } finally {
        await viewer.close()
      }
    }
  })
})

describe('verifiable results', () => {
  test('behavior: the log links every accepted proposal and vote end to end, and the bundle carries a proposal’s part', async () => {
    const { id } = await createProposal(ada, { title: 'Bundled' })
    await postVote(`/api/proposals/${id}/votes`, await signedVote(ben, id, { choices: [1] }))
    await postVote(`/api/proposals/${id}/votes`, await signedVote(cleo, id, { choices: [2] }))
    const { entries } = (await app.inject({ method: 'GET', url: '/api/governance/log' })).json() as {
      entries: LogEntry[]
    }
    expect(entries.length).toBe(await rowsOf(governanceLog))
    expect(entries.length).toBe((await rowsOf(proposals)) + (await rowsOf(votes)))
    expect(logChainProblem(entries)).toBeNull()
    const tampered = entries.map((entry, i) => (i === 3 ? { ...entry, signature: '0x00' as Hex } : entry))
    expect(logChainProblem(tampered)).toEqual({ seq: 4, problem: 'its hash does not match its fields' })

    const bundle = (await app.inject({ method: 'GET', url: `/api/proposals/${id}/bundle` })).json()
    expect(bundle).toMatchObject({ format: 'guildhall-result-bundle/1', tallyVersion: 1, snapshot })
    expect(bundle.votes).toHaveLength(2)
    expect(bundle.log.map((entry: LogEntry) => entry.kind)).toEqual(['proposal', 'vote', 'vote'])
    expect(bundle.tally.perChoice).toEqual(['850000000000000000000', '500000000000000000000', '0'])
  })
})

describe('recount', () => {
  let proposal: Hex
  beforeAll(async () => {
    proposal = (await createProposal(ada, { title: 'Recounted' })).id
    await postVote(`/api/proposals/${proposal}/votes`, await signedVote(ben, proposal, { choices: [1] }))
    await postVote(`/api/proposals/${proposal}/votes`, await signedVote(cleo, proposal, { choices: [3] }))
  })
  const bundleOf = async () =>
    resultBundleSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/proposals/${proposal}/bundle` })).json(),
    )
  const chain = () => createPublicClient({ transport: http(anvil.url) })
  /** A bundle's text in pieces of `size` characters, as a network delivers it. */
  const inPieces = (text: string, size = 97) =>
    Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size))

  test('behavior: the recount of an untouched result matches, with progress for each step', async () => {
    const steps = new Set<string>()
    const progress: RecountProgress[] = []
    const report = await recount(inPieces(JSON.stringify(await bundleOf())), chain(), (p) => {
      progress.push(p)
      steps.add(p.step)
    })
    expect(report).toMatchObject({ matches: true, differences: [], votesChecked: 2, votesCounted: 2 })
    expect(progress.filter((p) => p.step === 'signatures')).toEqual(
      [1, 2, 3].map((done) => ({ step: 'signatures', done, total: 3 })),
    )
    expect(report.tally.perChoice).toEqual([850n * 10n ** 18n, 0n, 500n * 10n ** 18n])
    expect([...steps]).toEqual(['signatures', 'voting power', 'tally'])
  })

  test('behavior: `npm run recount -- <proposal URL> --rpc <url>` prints "matches" and exits 0', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    // Asynchronously: this process serves the bundle the CLI asks for.
    const { stdout } = await promisify(execFile)(
      'npx',
      ['tsx', 'scripts/recount.ts', `${url}/proposals/${proposal}`, '--rpc', anvil.url],
      { cwd: new URL('../../../../', import.meta.url).pathname, encoding: 'utf8', timeout: 60_000 },
    )
    // execFile rejects on a non-zero exit code, so reaching this line means exit code 0.
    expect(stdout).toContain('The result matches: 2 signatures checked, 2 votes counted.')
  }, 70_000)

  test('behavior: a signed vote the proposal does not allow (choice 7 of 3), slipped into a bundle, is reported and not counted', async () => {
    const bundle = await bundleOf()
    const slipped = await signedVote(ben, proposal, { choices: [7] })
    const report = await recount(
      [JSON.stringify({ ...bundle, voteCount: bundle.voteCount + 1, votes: [...bundle.votes, slipped] })],
      chain(),
    )
    expect(report.matches).toBe(false)
    expect(report.differences).toEqual(
      expect.arrayContaining([
        `Vote ${slipped.id.slice(0, 10)}… by ${ben.address} was counted though it is not allowed: Choice 7 does not exist: this proposal has choices 1 to 3.`,
      ]),
    )
    expect(report.votesCounted).toBe(2)
  })

  test('behavior: a bundle cut short, a vote of the wrong shape or a vote count that differs → the recount says so, naming the part', async () => {
    const text = JSON.stringify(await bundleOf())
    await expect(recount(inPieces(text.slice(0, -40)), chain())).rejects.toThrow(BundleFormatError)
    await expect(recount(inPieces(text.slice(0, -40)), chain())).rejects.toThrow(
      'The bundle is not complete JSON',
    )
    const bundle = await bundleOf()
    const broken = { ...bundle, votes: [bundle.votes[0], { ...bundle.votes[1], signature: 'not hex' }] }
    await expect(recount([JSON.stringify(broken)], chain())).rejects.toThrow(/^Vote 2: /)
    await expect(recount(['{"format":"something else"}'], chain())).rejects.toThrow(/^The bundle: /)
    const short = await recount([JSON.stringify({ ...bundle, voteCount: 3 })], chain())
    expect(short.differences).toEqual(['The bundle announces 3 votes but carries 2.'])
  })

  test('behavior: a vote altered in the database is reported, and the recounted tally differs from the published one', async () => {
    const [ballot] = await database.db.select().from(ballots).where(eq(ballots.proposalId, proposal))
    const [stored] = await database.db
      .select()
      .from(votes)
      .where(eq(votes.id, ballot?.voteId as string))
    const flipped = stored?.message.choices[0] === 1 ? [2] : [1]
    await database.db
      .update(votes)
      .set({ message: { ...(stored?.message as VoteMessage), choices: flipped } })
      .where(eq(votes.id, stored?.id as string))
    const report = await recount([JSON.stringify(await bundleOf())], chain())
    expect(report.matches).toBe(false)
    expect(report.differences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/does not match its id: its choices, reason or time were changed/),
      ]),
    )
    expect(report.votesCounted).toBe(1)
  })
})

describe('abuse bounds: rate limits, cheap checks first, bounded chain work', () => {
  /** A signature that is no one's: checking it ends in asking the chain whether the voter is a contract. */
  const BOGUS_SIGNATURE = `0x${'11'.repeat(65)}` as Hex
  // The token index follows the chain in the background through the same node; its reads are these.
  const INDEX_METHODS = new Set(['eth_blockNumber', 'eth_getLogs', 'eth_getBlockByNumber'])
  const DAY_MS = 24 * 3600 * 1000
  let proxy: RecordingProxy
  const requestCalls = (from: number) =>
    proxy.calls
      .slice(from)
      .filter((call) => !INDEX_METHODS.has(call.method))
      .map((call) => call.method)
  const bogusVote = async (voter: PrivateKeyAccount, on: Hex, overrides: Partial<VoteMessage> = {}) => ({
    message: (await signedVote(voter, on, overrides)).message,
    signature: BOGUS_SIGNATURE,
  })

  beforeAll(async () => {
    proxy = await startRecordingProxy(anvil.url)
  })
  afterAll(() => proxy?.close())

  test('behavior: a burst beyond GOVERNANCE_RATE_LIMIT_PER_MINUTE / EXPORT_RATE_LIMIT_PER_MINUTE / POWER_RATE_LIMIT_PER_MINUTE → 429 with Retry-After and the JSON envelope, before any chain call; other clients and routes go on', async () => {
    const limited = await appOn(proxy.url, {
      GOVERNANCE_RATE_LIMIT_PER_MINUTE: '3',
      EXPORT_RATE_LIMIT_PER_MINUTE: '2',
      POWER_RATE_LIMIT_PER_MINUTE: '2',
    })
    try {
      const open = (await createProposal(ada, { title: 'Rate limited' })).id
      const vote = await bogusVote(ben, open)
      // A client no other test is: on PostgreSQL the counts of every app on the database are one.
      const client = '203.0.113.1'
      const send = (remoteAddress = client) =>
        limited.inject({
          method: 'POST',
          url: `/api/proposals/${open}/votes`,
          headers: jsonHeaders,
          payload: JSON.stringify(vote),
          remoteAddress,
        })
      const from = proxy.calls.length
      const burst = []
      for (let i = 0; i < 5; i++) burst.push(await send())
      expect(burst.map((response) => response.statusCode)).toEqual([401, 401, 401, 429, 429])
      // One contract-account check per admitted request; none for the refused ones.
      expect(requestCalls(from)).toEqual(['eth_getCode', 'eth_getCode', 'eth_getCode'])
      const refused = burst[3]
      expect(refused?.json()).toEqual({ error: 'rate_limited', message: expect.stringMatching(/retry in/) })
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60)
      // Per client: another address still gets its answer.
      expect((await send('198.51.100.7')).statusCode).toBe(401)
      // The proposal's page is not limited.
      expect(
        (await limited.inject({ method: 'GET', url: `/api/proposals/${open}`, remoteAddress: client }))
          .statusCode,
      ).toBe(200)

      const proposalStatuses = []
      for (let i = 0; i < 4; i++) {
        const message = proposalMessage(ada, { title: `Burst ${i}` })
        const response = await limited.inject({
          method: 'POST',
          url: '/api/proposals',
          headers: jsonHeaders,
          payload: JSON.stringify({ message, signature: BOGUS_SIGNATURE }),
          remoteAddress: client,
        })
        proposalStatuses.push(response.statusCode)
      }
      expect(proposalStatuses).toEqual([401, 401, 401, 429])

      for (const url of [
        `/api/proposals/${open}/bundle`,
        '/api/governance/log',
        `/api/proposals/${open}/power/${ada.address}`,
      ]) {
        const statuses = []
        for (let i = 0; i < 3; i++)
          statuses.push((await limited.inject({ method: 'GET', url, remoteAddress: client })).statusCode)
        expect(statuses, url).toEqual([200, 200, 429])
      }
    } finally {
      await limited.close()
    }
  })

  test('behavior: X-Forwarded-For names the rate-limited client only when TRUST_PROXY names the peer it comes from (the load balancer)', async () => {
    const balancer = '203.0.113.20'
    const open = (await createProposal(ada, { title: 'Behind a proxy' })).id
    const powerStatuses = async (
      target: FastifyInstance,
      requests: { from: string; forwardedFor: string }[],
    ) => {
      const statuses = []
      for (const { from, forwardedFor } of requests) {
        const response = await target.inject({
          method: 'GET',
          url: `/api/proposals/${open}/power/${ada.address}`,
          headers: { 'x-forwarded-for': forwardedFor },
          remoteAddress: from,
        })
        statuses.push(response.statusCode)
      }
      return statuses
    }
    // Off (the default): a client changing the header each time is still counted by its own address.
    const direct = await appOn(proxy.url, { POWER_RATE_LIMIT_PER_MINUTE: '2' })
    try {
      const spoofing = ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((forwardedFor) => ({
        from: '203.0.113.21',
        forwardedFor,
      }))
      expect(await powerStatuses(direct, spoofing)).toEqual([200, 200, 429])
    } finally {
      await direct.close()
    }
    // On: behind the balancer, each client its header names is counted apart; a peer not named is the client.
    const proxied = await appOn(proxy.url, {
      POWER_RATE_LIMIT_PER_MINUTE: '2',
      TRUST_PROXY: `${balancer}/32`,
    })
    try {
      const viaBalancer = (forwardedFor: string) => ({ from: balancer, forwardedFor })
      expect(
        await powerStatuses(proxied, [
          viaBalancer('198.51.100.10'),
          viaBalancer('198.51.100.10'),
          viaBalancer('198.51.100.10'),
          viaBalancer('198.51.100.11'),
        ]),
      ).toEqual([200, 200, 429, 200])
      const notTheBalancer = ['198.51.100.12', '198.51.100.13', '198.51.100.14'].map((forwardedFor) => ({
        from: '203.0.113.22',
        forwardedFor,
      }))
      expect(await powerStatuses(proxied, notTheBalancer)).toEqual([200, 200, 429])
    } finally {
      await proxied.close()
    }
  })

  test('behavior: a bogus-signature vote on an unknown, pending or closed proposal, with invalid choices or out-of-window → refused with its 4xx and no chain call; the same vote on an open proposal reaches the chain', async () => {
    // This app's clock runs a day ahead: a proposal ending in 3 hours is closed for it.
    const later = await appOn(proxy.url, {}, () => new Date(Date.now() + DAY_MS))
    try {
      const now = nowSeconds()
      const open = (await createProposal(ada, { title: 'Open tomorrow', end: now + 2 * 24 * 3600 })).id
      const closed = (await createProposal(ada, { title: 'Closed tomorrow' })).id
      const pending = (
        await createProposal(ada, {
          title: 'Pending tomorrow',
          start: now + 2 * 24 * 3600,
          end: now + 3 * 24 * 3600,
        })
      ).id
      const unknown = `0x${'cd'.repeat(32)}` as Hex
      const cases: [string, Hex, { message: unknown; signature: Hex }, number, string][] = [
        ['an unknown proposal', unknown, await bogusVote(ben, unknown), 404, 'unknown_proposal'],
        ['a pending proposal', pending, await bogusVote(ben, pending), 422, 'not_open'],
        ['a closed proposal', closed, await bogusVote(ben, closed), 422, 'not_open'],
        ['a choice out of range', open, await bogusVote(ben, open, { choices: [4] }), 422, 'bad_choices'],
        [
          'two choices on a basic proposal',
          open,
          await bogusVote(ben, open, { choices: [1, 2] }),
          422,
          'bad_choices',
        ],
        [
          'a timestamp 7 days before the server clock',
          open,
          await bogusVote(ben, open, { timestamp: now - 6 * 24 * 3600 }),
          422,
          'bad_timestamp',
        ],
        ['choice 0', open, await bogusVote(ben, open, { choices: [0] }), 400, 'bad_request'],
      ]
      const post = (on: Hex, body: unknown) =>
        later.inject({
          method: 'POST',
          url: `/api/proposals/${on}/votes`,
          headers: jsonHeaders,
          payload: JSON.stringify(body),
        })
      for (const [name, on, body, status, error] of cases) {
        const from = proxy.calls.length
        // With the node unreachable, any chain call would turn the answer into a 503.
        proxy.down = true
        const response = await post(on, body).finally(() => {
          proxy.down = false
        })
        expect(response.statusCode, name).toBe(status)
        expect(response.json().error, name).toBe(error)
        expect(requestCalls(from), name).toEqual([])
      }
      expect(await votesOn(open)).toBe(0)

      // The control: a vote that passes every cheap check goes on to the signature, hence to the chain.
      const valid = await bogusVote(ben, open)
      proxy.down = true
      const unreachable = await post(open, valid).finally(() => {
        proxy.down = false
      })
      expect(unreachable.statusCode).toBe(503)
      expect(unreachable.json().error).toBe('chain_unavailable')
      const from = proxy.calls.length
      const refused = await post(open, valid)
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error).toBe('bad_signature')
      expect(requestCalls(from)).toEqual(['eth_getCode'])
    } finally {
      await later.close()
    }
  })

  test('behavior: bogus-signature proposals with other rules, a start 10 years ahead or a stale timestamp → refused with no chain call, not even the head', async () => {
    const counted = await appOn(proxy.url)
    try {
      const now = nowSeconds()
      const cases: [string, Partial<ProposalMessage>, number, string][] = [
        ['other rules', { quorum: '1' }, 422, 'rules_mismatch'],
        [
          'a start 10 years ahead',
          { start: now + 3650 * 24 * 3600, end: now + 3650 * 24 * 3600 + 3600, timestamp: now },
          400,
          'bad_request',
        ],
        ['a timestamp 7 days old', { timestamp: now - 7 * 24 * 3600 }, 422, 'bad_timestamp'],
        ['an end before now', { start: now - 7200, end: now - 60, timestamp: now - 7200 }, 422, 'ended'],
      ]
      for (const [name, overrides, status, error] of cases) {
        const from = proxy.calls.length
        proxy.down = true
        const response = await counted
          .inject({
            method: 'POST',
            url: '/api/proposals',
            headers: jsonHeaders,
            payload: JSON.stringify({
              message: proposalMessage(ada, { title: name, ...overrides }),
              signature: BOGUS_SIGNATURE,
            }),
          })
          .finally(() => {
            proxy.down = false
          })
        expect(response.statusCode, name).toBe(status)
        expect(response.json().error, name).toBe(error)
        expect(requestCalls(from), name).toEqual([])
      }
    } finally {
      await counted.close()
    }
  })

  test('behavior: an ERC-6492 vote whose factory loops → 401, the node asked to run it with SIGNATURE_CHECK_GAS only', async () => {
    const counted = await appOn(proxy.url)
    try {
      const loopingFactory: Hex = '0x0000000000000000000000000000000000006493'
      // Bytecode that jumps to itself forever: it burns whatever gas the call is given.
      await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).setCode({
        address: loopingFactory,
        bytecode: '0x5b600056',
      })
      const open = (await createProposal(ada, { title: 'Counterfactual voter' })).id
      const message: VoteMessage = {
        voter: getAddress('0x00000000000000000000000000000000000064aa'),
        proposal: open,
        choices: [1],
        reason: '',
        timestamp: nowSeconds(),
      }
      const signature = serializeErc6492Signature({
        address: loopingFactory,
        data: '0xdeadbeef',
        signature: BOGUS_SIGNATURE,
      })
      const from = proxy.calls.length
      const response = await counted.inject({
        method: 'POST',
        url: `/api/proposals/${open}/votes`,
        headers: jsonHeaders,
        payload: JSON.stringify({ message, signature }),
      })
      expect(response.statusCode).toBe(401)
      expect(response.json().error).toBe('bad_signature')
      const calls = proxy.calls.slice(from).filter((call) => call.method === 'eth_call')
      expect(calls).toHaveLength(1)
      expect(calls[0]?.params[0]).toMatchObject({ gas: numberToHex(SIGNATURE_CHECK_GAS) })
      expect(await votesOn(open)).toBe(0)
    } finally {
      await counted.close()
    }
  })
})
