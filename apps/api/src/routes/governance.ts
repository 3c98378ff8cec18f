// HTTP for proposals and votes: validate strictly, call the service, map its errors to statuses.
import {
  formatIssues,
  type LogEntry,
  signedProposalSchema,
  signedVoteSchema,
  TALLY_VERSION,
  type Tally,
} from '@guildhall/core'
import { asc, desc, eq, gt } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { type Address, getAddress, type Hex, isAddress } from 'viem'
import { z } from 'zod'
import { governanceLog, proposals, votes } from '../db/schema.ts'
import {
  castVote,
  createProposal,
  findProposal,
  type GovernanceDeps,
  GovernanceError,
  proposalResult,
  proposalSummary,
  type StoredProposal,
  seconds,
  votingPowerAt,
} from '../services/governance.ts'

/** A proposal's body is the largest signed text (20 000 characters, up to 4 bytes each in UTF-8). */
const PROPOSAL_BODY_LIMIT = 128 * 1024
const VOTE_BODY_LIMIT = 16 * 1024
const idParams = z.strictObject({
  id: z.string().regex(/^0x[0-9a-f]{64}$/, 'must be a proposal id (0x + 64 hex)'),
})
const listQuery = z.strictObject({ state: z.enum(['pending', 'active', 'closed', 'final']).optional() })

const tallyJson = (result: Tally) => ({
  version: result.version,
  perChoice: result.perChoice.map(String),
  voters: result.voters,
  votingPower: String(result.votingPower),
  quorumPower: String(result.quorumPower),
  quorumReached: result.quorumReached,
  outcome: result.outcome,
  leading: result.leading,
})

export interface GovernanceRouteOptions {
  deps: GovernanceDeps
  /**
   * Proposals and votes each client may submit per minute, each route counted apart: every one costs a
   * signature check, and a contract account's check is a request to the chain's RPC provider.
   */
  writeRateLimitPerMinute: number
  /** Result bundles and log pages each client may fetch per minute, each route counted apart. */
  exportRateLimitPerMinute: number
}

export async function governanceRoutes(
  app: FastifyInstance,
  { deps, writeRateLimitPerMinute, exportRateLimitPerMinute }: GovernanceRouteOptions,
) {
  // Counted when the request arrives (onRequest), before its body is read or anything is checked.
  const writeLimit = { rateLimit: { max: writeRateLimitPerMinute, timeWindow: '1 minute' } }
  const exportLimit = { rateLimit: { max: exportRateLimitPerMinute, timeWindow: '1 minute' } }
  const nowSeconds = () => seconds(deps.now())
  const fail = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof GovernanceError)) throw error
    if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds))
    return reply.status(error.status).send({ error: error.code, message: error.message })
  }
  // Core's schemas are zod/mini, these routes' own are classic: both fail with a core $ZodError.
  const badRequest = (reply: FastifyReply, what: string, error: z.core.$ZodError) =>
    reply.status(400).send({ error: 'bad_request', message: `Invalid ${what}:\n${formatIssues(error)}` })
  const summary = (proposal: StoredProposal) => proposalSummary(proposal, nowSeconds())

  app.post(
    '/api/proposals',
    { bodyLimit: PROPOSAL_BODY_LIMIT, config: writeLimit },
    async (request, reply) => {
      const body = signedProposalSchema.safeParse(request.body)
      if (!body.success) return badRequest(reply, 'proposal', body.error)
      try {
        const { id, created } = await createProposal(deps, body.data)
        return reply.status(created ? 201 : 200).send({ id })
      } catch (error) {
        return fail(reply, error)
      }
    },
  )

  app.get('/api/proposals', async (request, reply) => {
    const query = listQuery.safeParse(request.query)
    if (!query.success) return badRequest(reply, 'filter', query.error)
    const now = nowSeconds()
    const rows = await deps.database.db.select().from(proposals).orderBy(desc(proposals.start))
    const list = rows.map(summary).filter((p) => !query.data.state || p.state === query.data.state)
    return { proposals: list, now }
  })

  app.get('/api/proposals/:id', async (request, reply) => {
    const params = idParams.safeParse(request.params)
    if (!params.success) return badRequest(reply, 'proposal id', params.error)
    try {
      const proposal = await findProposal(deps, params.data.id)
      if (!proposal)
        return reply
          .status(404)
          .send({ error: 'unknown_proposal', message: 'There is no proposal with this id.' })
      const result = await proposalResult(deps, proposal)
      return {
        ...summary(proposal),
        message: proposal.message,
        signature: proposal.signature,
        tally: tallyJson(result.tally),
        votes: result.votes.map((vote) => ({
          id: vote.id,
          voter: vote.voter,
          choices: vote.message.choices,
          reason: vote.message.reason,
          timestamp: vote.timestamp,
          power: String(vote.power),
        })),
        now: nowSeconds(),
      }
    } catch (error) {
      return fail(reply, error)
    }
  })

  app.post(
    '/api/proposals/:id/votes',
    { bodyLimit: VOTE_BODY_LIMIT, config: writeLimit },
    async (request, reply) => {
      const params = idParams.safeParse(request.params)
      if (!params.success) return badRequest(reply, 'proposal id', params.error)
      const body = signedVoteSchema.safeParse(request.body)
      if (!body.success) return badRequest(reply, 'vote', body.error)
      try {
        const result = await castVote(deps, params.data.id, body.data)
        return reply.status(result.created ? 201 : 200).send(result)
      } catch (error) {
        return fail(reply, error)
      }
    },
  )

  app.get('/api/proposals/:id/power/:address', async (request, reply) => {
    const { address, ...rest } = request.params as { id: string; address: string }
    const params = idParams.safeParse(rest)
    if (!params.success) return badRequest(reply, 'proposal id', params.error)
    if (!isAddress(address, { strict: false }))
      return reply
        .status(400)
        .send({ error: 'bad_request', message: 'Invalid address: must be 0x + 40 hex digits' })
    try {
      const proposal = await findProposal(deps, params.data.id)
      if (!proposal)
        return reply
          .status(404)
          .send({ error: 'unknown_proposal', message: 'There is no proposal with this id.' })
      const power = await votingPowerAt(deps, getAddress(address) as Address, proposal.snapshot)
      return {
        snapshot: proposal.snapshot,
        power: String(power.power),
        source: power.source,
        reason: power.reason,
      }
    } catch (error) {
      return fail(reply, error)
    }
  })

  /** Everything a recount needs, and the log entries that anchor it in the chain of all accepted messages. */
  app.get('/api/proposals/:id/bundle', { config: exportLimit }, async (request, reply) => {
    const params = idParams.safeParse(request.params)
    if (!params.success) return badRequest(reply, 'proposal id', params.error)
    try {
      const proposal = await findProposal(deps, params.data.id)
      if (!proposal)
        return reply
          .status(404)
          .send({ error: 'unknown_proposal', message: 'There is no proposal with this id.' })
      const [allVotes, entries, result] = await Promise.all([
        deps.database.db
          .select()
          .from(votes)
          .where(eq(votes.proposalId, proposal.id))
          .orderBy(asc(votes.receivedAt)),
        deps.database.db
          .select()
          .from(governanceLog)
          .where(eq(governanceLog.proposalId, proposal.id))
          .orderBy(asc(governanceLog.seq)),
        proposalResult(deps, proposal),
      ])
      const log: LogEntry[] = entries.map((entry) => ({
        seq: entry.seq,
        kind: entry.kind,
        messageId: entry.messageId as Hex,
        signature: entry.signature as Hex,
        prevHash: entry.prevHash as Hex,
        hash: entry.hash as Hex,
      }))
      return {
        format: 'guildhall-result-bundle/1',
        tallyVersion: TALLY_VERSION,
        domain: deps.domain,
        proposal: { id: proposal.id, message: proposal.message, signature: proposal.signature },
        snapshot: proposal.snapshot,
        votes: allVotes.map((vote) => ({ id: vote.id, message: vote.message, signature: vote.signature })),
        tally: tallyJson(result.tally),
        log,
      }
    } catch (error) {
      return fail(reply, error)
    }
  })

  /** The log from entry `after` + 1 on, to check the whole chain (bounded pages). */
  app.get('/api/governance/log', { config: exportLimit }, async (request, reply) => {
    const query = z
      .strictObject({ after: z.coerce.number().int().min(0).default(0) })
      .safeParse(request.query)
    if (!query.success) return badRequest(reply, 'log query', query.error)
    const rows = await deps.database.db
      .select()
      .from(governanceLog)
      .where(gt(governanceLog.seq, query.data.after))
      .orderBy(asc(governanceLog.seq))
      .limit(1000)
    return {
      entries: rows.map(({ createdAt: _c, proposalId: _p, ...entry }) => entry),
    }
  })
}
