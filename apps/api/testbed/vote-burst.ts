// A burst of signed votes against a server that is killed during it, for the fault tests (vote-crash.test.ts:
// one server, restarted on its data; cluster.postgres.test.ts: three behind HAProxy), and what they check
// afterwards ("nothing lost", docs/security.md): every 2xx vote is stored; the hash-chained log verifies;
// the counts reconcile (one log entry per stored message, one ballot per voter: the vote the ordering rule
// picks); an answered refusal left nothing; every request that got no answer, sent again with its signed
// payload, converges to one stored effect.
import {
  countingVotes,
  type GovernanceDomain,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type LogEntry,
  logChainProblem,
  type ProposalMessage,
  proposalId,
  signGovernanceMessage,
  type VoteMessage,
} from '@guildhall/core'
import { asc } from 'drizzle-orm'
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { expect } from 'vitest'
import { type DemoChain, startDemoChain } from '../src/demo/local-chain.ts'
import type { Db } from '../src/platform/db/client.ts'
import { ballots, governanceLog, proposals, votes } from '../src/platform/db/schema.ts'
import { member, proposalMessage, signVote } from './signers.ts'

const REQUEST_TIMEOUT_MS = 30_000
/** Ada, Ben and Cleo of the demo DAO, each with voting power; Ada also writes the proposals. */
export const voters = [1, 2, 3].map(member)

/** The local chain with the demo DAO, and two blocks more: a snapshot a block before the head follows the demo's delegations. */
export async function startVoteChain(): Promise<DemoChain> {
  const chain = await startDemoChain()
  await createTestClient({ mode: 'anvil', transport: http(chain.anvil.url) }).mine({ blocks: 2 })
  return chain
}

/** An answer's status, or none: the connection was cut or the request timed out. */
export type Outcome = { status: number } | { cut: true }

/**
 * A JSON POST to the server at `origin`, from outside it (its own origin, as the browser sends). The body is
 * read so the connection serves the next request; the status stands once it came (a 2xx was committed) even
 * if the connection is cut in the body.
 */
export const post = (origin: string, path: string, body: unknown): Promise<Outcome> =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).then(
    async (response) => {
      await response.arrayBuffer().catch(() => undefined)
      return { status: response.status }
    },
    () => ({ cut: true }),
  )

type SignedVote = { path: string; id: Hex; body: { message: VoteMessage; signature: Hex } }
type Burst = { domain: GovernanceDomain; messages: ProposalMessage[]; signed: SignedVote[] }

/**
 * `count` open proposals by Ada (titled `${title} n`), and their votes, all signed before any is sent: every
 * voter votes once on every proposal, then again (later) on the first `reVoted`.
 */
export async function signBurst(
  { anvil, deployment }: DemoChain,
  { title, count, reVoted }: { title: string; count: number; reVoted: number },
): Promise<Burst> {
  const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  const [author] = voters as [(typeof voters)[number]]
  const messages = Array.from({ length: count }, (_, n) =>
    proposalMessage(author, {
      snapshot,
      title: `${title} ${n}`,
      body: '',
      start: now - 3_600,
      end: now + 3_600,
      timestamp: now - 3_600,
    }),
  )
  const plan = [
    ...messages.flatMap((m, n) =>
      voters.map((voter, v) => ({ m, voter, choice: 1 + ((n + v) % 3), at: now - 600 })),
    ),
    ...messages
      .slice(0, reVoted)
      .flatMap((m, n) =>
        voters.map((voter, v) => ({ m, voter, choice: 1 + ((n + v + 1) % 3), at: now - 300 })),
      ),
  ]
  const signed = await Promise.all(
    plan.map(async ({ m, voter, choice, at }) => {
      const proposal = proposalId(domain, m)
      const { message, signature, id } = await signVote(voter, domain, {
        proposal,
        choices: [choice],
        timestamp: at,
      })
      return { path: `/api/proposals/${proposal}/votes`, id, body: { message, signature } }
    }),
  )
  return { domain, messages, signed }
}

/** Creates the burst's proposals on the server at `origin`. */
export async function createProposals(origin: string, { domain, messages }: Burst): Promise<void> {
  const [author] = voters as [(typeof voters)[number]]
  for (const m of messages) {
    const { message, signature } = await signGovernanceMessage(author, domain, {
      type: 'Proposal',
      message: m,
    })
    const created = await post(origin, '/api/proposals', { message, signature })
    expect(created).toEqual({ status: 201 })
  }
}

/**
 * Sends every vote to `origin`, `inFlight` at a time, and calls `kill` on the `killAfterOks`-th 2xx. Then
 * sorts the outcomes: answered by the server (2xx: accepted; else refused), or not (cut, or a status in
 * `noAnswer`: a proxy's own, for an instance gone mid-request), and checks the server answered only 2xx, or
 * 409 for an earlier vote arriving after its voter's later one, and that the kill cut some off.
 */
export async function runBurst(
  origin: string,
  { signed }: Burst,
  {
    inFlight,
    killAfterOks,
    kill,
    noAnswer = [],
  }: { inFlight: number; killAfterOks: number; kill: () => Promise<void>; noAnswer?: number[] },
): Promise<{ accepted: number[]; refused: number[]; cut: number[] }> {
  const outcomes = new Map<number, Outcome>()
  let oks = 0
  let next = 0
  let killed: Promise<void> | undefined
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < signed.length) {
        const index = next++
        const { path, body } = signed[index] as SignedVote
        const outcome = await post(origin, path, body)
        outcomes.set(index, outcome)
        if ('status' in outcome && outcome.status < 300 && ++oks === killAfterOks) killed = kill()
      }
    }),
  )
  await killed
  const answered = (o: Outcome): o is { status: number } => 'status' in o && !noAnswer.includes(o.status)
  const statuses = [...outcomes].flatMap(([i, o]) => (answered(o) ? [[i, o.status] as const] : []))
  expect(statuses.filter(([, status]) => status >= 300 && status !== 409)).toEqual([])
  const accepted = statuses.filter(([, status]) => status < 300).map(([i]) => i)
  const refused = statuses.filter(([, status]) => status >= 300).map(([i]) => i)
  const cut = [...outcomes].filter(([, o]) => !answered(o)).map(([i]) => i)
  expect(accepted.length).toBeGreaterThanOrEqual(killAfterOks)
  expect(cut.length).toBeGreaterThan(0)
  return { accepted, refused, cut }
}

/** Sends again every vote that got no answer: each is stored (201), already was (200), or refused (409). */
export async function resendCut(origin: string, { signed }: Burst, cut: number[]): Promise<void> {
  for (const index of cut) {
    const { path, body } = signed[index] as SignedVote
    const retried = await post(origin, path, body)
    expect('status' in retried && [200, 201, 409].includes(retried.status), `retry of vote ${index}`).toBe(
      true,
    )
  }
}

/**
 * What the database holds after the burst: every accepted vote and no refused one, a log that verifies with
 * one entry per stored proposal and vote, and per proposal one ballot a voter, the vote the ordering rule
 * picks among the stored ones. Answers the stored votes' ids and the log's length.
 */
export async function expectNothingLost(
  db: Db,
  { signed }: Burst,
  { accepted, refused }: { accepted: number[]; refused: number[] },
): Promise<{ storedIds: Set<string>; logEntries: number }> {
  const stored = await db.select().from(votes)
  const storedIds = new Set(stored.map((vote) => vote.id))
  for (const index of accepted)
    expect(storedIds.has((signed[index] as SignedVote).id), `2xx vote ${index}`).toBe(true)
  for (const index of refused)
    expect(storedIds.has((signed[index] as SignedVote).id), `refused vote ${index}`).toBe(false)

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
  return { storedIds, logEntries: log.length }
}

/**
 * Converged: every payload sent once more is a replay (200) of a stored vote or a refusal (409) of one that
 * is not, and nothing new is stored.
 */
export async function expectConverged(
  origin: string,
  db: Db,
  { signed }: Burst,
  storedIds: Set<string>,
): Promise<void> {
  for (const [index, { path, body, id }] of signed.entries()) {
    const again = await post(origin, path, body)
    expect(again, `resend of vote ${index}`).toEqual({ status: storedIds.has(id) ? 200 : 409 })
  }
  expect(new Set((await db.select({ id: votes.id }).from(votes)).map((vote) => vote.id))).toEqual(storedIds)
}
