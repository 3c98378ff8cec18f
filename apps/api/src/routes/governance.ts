// HTTP for proposals and votes: validate strictly, call the service, map its answer.
import {
  PROPOSAL_STATES,
  signedProposalSchema,
  signedVoteSchema,
  TALLY_VERSION,
  tallyToJson,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { type GovernanceDeps, seconds } from '../services/governance-deps.ts'
import { logPage } from '../services/governance-log.ts'
import { createProposal, listProposals, proposalSummary, requireProposal } from '../services/proposals.ts'
import { proposalResult, resultBundle } from '../services/results.ts'
import { castVote } from '../services/votes.ts'
import { votingPowerAt } from '../services/voting-power.ts'
import { addressParam, parse, proposalIdParams } from './params.ts'

/** A proposal's body is the largest signed text (20 000 characters, up to 4 bytes each in UTF-8). */
const PROPOSAL_BODY_LIMIT = 128 * 1024
const VOTE_BODY_LIMIT = 16 * 1024
const listQuery = z.strictObject({ state: z.enum(PROPOSAL_STATES).optional() })
const logQuery = z.strictObject({ after: z.coerce.number().int().min(0).default(0) })

export interface GovernanceRouteOptions {
  deps: GovernanceDeps
  /**
   * Proposals and votes each client may submit per minute, each route counted apart: every one costs a
   * signature check, and a contract account's check is a request to the chain's RPC provider.
   */
  writeRateLimitPerMinute: number
  /** Result bundles and log pages each client may fetch per minute, each route counted apart. */
  exportRateLimitPerMinute: number
  /** Voting-power look-ups each client may make per minute: above the indexed block each asks the chain. */
  powerRateLimitPerMinute: number
}

export async function governanceRoutes(
  app: FastifyInstance,
  {
    deps,
    writeRateLimitPerMinute,
    exportRateLimitPerMinute,
    powerRateLimitPerMinute,
  }: GovernanceRouteOptions,
) {
  // Counted when the request arrives (onRequest), before its body is read or anything is checked.
  const writeLimit = { rateLimit: { max: writeRateLimitPerMinute, timeWindow: '1 minute' } }
  const exportLimit = { rateLimit: { max: exportRateLimitPerMinute, timeWindow: '1 minute' } }
  const powerLimit = { rateLimit: { max: powerRateLimitPerMinute, timeWindow: '1 minute' } }
  const nowSeconds = () => seconds(deps.now())

  app.post(
    '/api/proposals',
    { bodyLimit: PROPOSAL_BODY_LIMIT, config: writeLimit },
    async (request, reply) => {
      const body = parse(signedProposalSchema, request.body, 'proposal')
      const { id, created } = await createProposal(deps, body)
      return reply.status(created ? 201 : 200).send({ id })
    },
  )

  app.get('/api/proposals', async (request) => {
    const { state } = parse(listQuery, request.query, 'filter')
    const now = nowSeconds()
    return { proposals: await listProposals(deps, now, state), now }
  })

  app.get('/api/proposals/:id', async (request) => {
    const { id } = parse(proposalIdParams, request.params, 'proposal id')
    const proposal = await requireProposal(deps, id)
    const result = await proposalResult(deps, proposal)
    return {
      ...proposalSummary(proposal, nowSeconds()),
      message: proposal.message,
      signature: proposal.signature,
      tally: tallyToJson(result.tally),
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
  })

  app.post(
    '/api/proposals/:id/votes',
    { bodyLimit: VOTE_BODY_LIMIT, config: writeLimit },
    async (request, reply) => {
      const { id } = parse(proposalIdParams, request.params, 'proposal id')
      const body = parse(signedVoteSchema, request.body, 'vote')
      const result = await castVote(deps, id, body)
      return reply.status(result.created ? 201 : 200).send(result)
    },
  )

  app.get<{ Params: { id: string; address: string } }>(
    '/api/proposals/:id/power/:address',
    { config: powerLimit },
    async (request) => {
      const { address, ...rest } = request.params
      const { id } = parse(proposalIdParams, rest, 'proposal id')
      const account = addressParam(address)
      const proposal = await requireProposal(deps, id)
      const power = await votingPowerAt(deps, account, proposal.snapshot)
      return {
        snapshot: proposal.snapshot,
        power: String(power.power),
        source: power.source,
        reason: power.reason,
      }
    },
  )

  /** Everything a recount needs, and the log entries that anchor it in the chain of all accepted messages. */
  app.get('/api/proposals/:id/bundle', { config: exportLimit }, async (request) => {
    const { id } = parse(proposalIdParams, request.params, 'proposal id')
    const bundle = await resultBundle(deps, id)
    const { proposal } = bundle
    return {
      format: 'guildhall-result-bundle/1',
      tallyVersion: TALLY_VERSION,
      domain: deps.domain,
      proposal: { id: proposal.id, message: proposal.message, signature: proposal.signature },
      snapshot: proposal.snapshot,
      votes: bundle.votes.map((vote) => ({ id: vote.id, message: vote.message, signature: vote.signature })),
      tally: tallyToJson(bundle.result.tally),
      log: bundle.log,
    }
  })

  /** The log from entry `after` + 1 on, to check the whole chain (bounded pages). */
  app.get('/api/governance/log', { config: exportLimit }, async (request) => {
    const { after } = parse(logQuery, request.query, 'log query')
    return { entries: await logPage(deps, after) }
  })
}
