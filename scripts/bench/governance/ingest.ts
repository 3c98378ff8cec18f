// The governance section's vote ingest: every proposal and vote signed before any server runs, then POSTed
// over HTTP to the real server in a child process at 50 concurrent, its CPU read there (PostgreSQL's from
// /proc); the votes stored are checked against the chain's power afterwards.
import { Agent } from 'node:http'
import { testEnv } from '@guildhall/api/demo'
import { startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import {
  BASIC_CHOICES,
  DEFAULT_GOVERNANCE_RULES,
  type GovernanceDomain,
  type ProposalMessage,
  signGovernanceMessage,
  type VoteListItem,
  type VoteMessage,
  voteListSchema,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { JSON_HEADERS, pool, post } from '../harness/http.ts'
import { cpuMs } from '../harness/processes.ts'
import type { GovernanceBenchResult } from '../harness/schema.ts'
import { latency, round1 } from '../harness/stats.ts'
import { type Account, type Chain, VOTER_TOKENS, VOTERS } from './chain.ts'

export const PROPOSALS = 2
export const CONCURRENCY = 50
/** Unmeasured votes first on each server (JIT, pool and caches warm), on a proposal of their own. */
export const WARM_UP = { votes: 100, concurrency: 10 }
/** Generous: the index of the setup has a few thousand events; a server that is not there by then is broken. */
const INDEX_READY_TIMEOUT_MS = 120_000

type IngestRun = Exclude<GovernanceBenchResult['ingest'][number], { skipped: string }>

type SignedBody = { path: string; body: string }
export type Ballots = {
  warmUp: { proposal: SignedBody; votes: SignedBody[] }
  proposals: SignedBody[]
  votes: SignedBody[]
  ids: Hex[]
}

/** Every proposal and vote, signed once before any server runs (each database gets the same requests). */
export async function signBallots(
  chain: Chain,
  domain: GovernanceDomain,
  snapshot: number,
): Promise<Ballots> {
  const now = Math.floor(Date.now() / 1000)
  const author = privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)
  const signProposal = async (title: string) => {
    const message: ProposalMessage = {
      author: author.address,
      title,
      body: 'A proposal of the governance bench.',
      kind: 'basic',
      choices: [...BASIC_CHOICES],
      start: now - 600,
      end: now + 3_600,
      snapshot,
      ...DEFAULT_GOVERNANCE_RULES,
      timestamp: now - 600,
    }
    const { id, signature } = await signGovernanceMessage(author, domain, { type: 'Proposal', message })
    return { id, request: { path: '/api/proposals', body: JSON.stringify({ message, signature }) } }
  }
  const signVotes = (id: Hex, voters: Account[], choice: (i: number) => number) =>
    Promise.all(
      voters.map(async (voter, i) => {
        const message: VoteMessage = {
          voter: voter.address,
          proposal: id,
          choices: [choice(i)],
          reason: '',
          timestamp: now,
        }
        const { signature } = await signGovernanceMessage(voter, domain, { type: 'Vote', message })
        return { path: `/api/proposals/${id}/votes`, body: JSON.stringify({ message, signature }) }
      }),
    )
  const warmUpProposal = await signProposal('Bench warm-up')
  const proposals = await Promise.all(
    Array.from({ length: PROPOSALS }, (_, n) => signProposal(`Bench ${n + 1}`)),
  )
  const votes: SignedBody[] = []
  // Proposal after proposal: the 50 requests in flight are always 50 different voters.
  for (const [n, proposal] of proposals.entries())
    votes.push(...(await signVotes(proposal.id, chain.voters, (i) => 1 + ((i + n) % 3))))
  return {
    warmUp: {
      proposal: warmUpProposal.request,
      votes: await signVotes(warmUpProposal.id, chain.voters.slice(0, WARM_UP.votes), () => 1),
    },
    proposals: proposals.map((p) => p.request),
    votes,
    ids: proposals.map((p) => p.id),
  }
}

export async function ingestRun({
  chain,
  ballots,
  storage,
  databaseCpuMs,
  indexedFrom,
}: {
  chain: Chain
  ballots: Ballots
  storage: Record<string, string>
  databaseCpuMs: (() => number) | null
  indexedFrom: number
}): Promise<Omit<IngestRun, 'database'>> {
  const server = await startApiProcess({
    ...testEnv(chain.url, chain.deployment),
    SIGN_IN: 'off',
    // The bench measures ingest from one load generator, not the per-client limit.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    ...storage,
  })
  const url = new URL(server.origin)
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const headers = { ...JSON_HEADERS, origin: url.origin }
  const send = (request: SignedBody) => post(agent, url, request.path, headers, request.body)
  try {
    // Voting power comes from the server's index once it has the setup's blocks (from the chain before).
    const deadline = Date.now() + INDEX_READY_TIMEOUT_MS
    while (true) {
      const answer = await fetch(`${url.origin}/api/token/holders`).then(
        (r) => r.json(),
        () => undefined,
      )
      const block = Number((answer as { blockNumber?: string } | undefined)?.blockNumber ?? -1)
      if (block >= indexedFrom) break
      if (Date.now() > deadline)
        throw new Error(`the server's token index did not reach block ${indexedFrom}`)
      await new Promise((done) => setTimeout(done, 200))
    }
    for (const request of [ballots.warmUp.proposal, ...ballots.proposals]) {
      const reply = await send(request)
      if (reply.status !== 201) throw new Error(`creating a bench proposal: ${reply.status} ${reply.body}`)
    }
    await pool(ballots.warmUp.votes.length, WARM_UP.concurrency, async (i) => {
      const reply = await send(ballots.warmUp.votes[i] as SignedBody)
      if (reply.status !== 201) throw new Error(`a warm-up vote: ${reply.status} ${reply.body}`)
    })

    const samples: number[] = []
    let errors = 0
    const databaseBefore = databaseCpuMs?.()
    const serverBefore = await server.cpu()
    const started = performance.now()
    await pool(ballots.votes.length, CONCURRENCY, async (i) => {
      try {
        const reply = await send(ballots.votes[i] as SignedBody)
        samples.push(reply.ms)
        if (reply.status !== 201) errors++
      } catch {
        errors++
      }
    })
    const seconds = (performance.now() - started) / 1000
    const serverMs = cpuMs(await server.cpu()) - cpuMs(serverBefore)
    const databaseMs = databaseCpuMs && databaseBefore !== undefined ? databaseCpuMs() - databaseBefore : null
    const stored = ballots.votes.length - errors

    // Each proposal now counts every voter once, with the power the chain gave them.
    for (const id of ballots.ids) {
      const counted: VoteListItem[] = []
      for (let cursor: string | null = ''; cursor !== null; ) {
        const query: string = `limit=100${cursor ? `&cursor=${cursor}` : ''}`
        const page = voteListSchema.parse(
          await (await fetch(`${url.origin}/api/proposals/${id}/votes?${query}`)).json(),
        )
        counted.push(...page.votes)
        cursor = page.next
      }
      const wrong = counted.filter((vote) => BigInt(vote.power) !== VOTER_TOKENS)
      if (errors === 0 && (counted.length !== VOTERS || wrong.length > 0))
        throw new Error(`proposal ${id}: ${counted.length} votes stored, ${wrong.length} with wrong power`)
    }
    return {
      voters: VOTERS,
      proposals: PROPOSALS,
      concurrency: CONCURRENCY,
      votes: ballots.votes.length,
      votesPerSecond: Math.round(ballots.votes.length / seconds),
      latencyMs: latency(samples),
      errors,
      cpuMsPerVote: {
        apiServer: round1(serverMs / Math.max(stored, 1)),
        databaseServer: databaseMs === null ? null : round1(databaseMs / Math.max(stored, 1)),
      },
    }
  } finally {
    agent.destroy()
    await stopApiProcess(server, 'SIGTERM')
  }
}
