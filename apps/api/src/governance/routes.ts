// HTTP for proposals, votes, results and the log: validate strictly, call the service, map its answer.
import { Readable } from 'node:stream'
import {
  proposalListQuerySchema,
  signedProposalSchema,
  signedVoteSchema,
  tallyToJson,
  voteListQuerySchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { cursorField, readCursorField } from '../platform/http/keyset-page.ts'
import { addressParam, parse, proposalIdParams } from '../platform/http/params.ts'
import { type GovernanceDeps, seconds } from './deps.ts'
import { logPage } from './log.ts'
import { listProposals } from './proposal-list.ts'
import { createProposal, proposalSummary, requireProposal } from './proposals.ts'
import { proposalResult, resultBundleJson } from './results.ts'
import { listVotes } from './vote-list.ts'
import { castVote } from './votes.ts'
import { votingPowerAt } from './voting-power.ts'

/** A proposal's body is the largest signed text (20 000 characters, up to 4 bytes each in UTF-8). */
const PROPOSAL_BODY_LIMIT = 128 * 1024
const VOTE_BODY_LIMIT = 16 * 1024
/** `after`: a log seq (a `bigint` column), read as the page links' fields are (400 `bad_cursor` otherwise). */
const logQuery = z.strictObject({ after: z.string().optional() })

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
    const query = parse(proposalListQuerySchema, request.query, 'proposal list query')
    const now = nowSeconds()
    return { ...(await listProposals(deps.database.db, now, query)), now }
  })

  app.get('/api/proposals/:id', async (request) => {
    const { id } = parse(proposalIdParams, request.params, 'proposal id')
    const proposal = await requireProposal(deps, id)
    const result = await proposalResult(deps, proposal)
    return {
      ...proposalSummary(proposal, nowSeconds()),
      message: proposal.message,
      signature: proposal.signature,
      tally: tallyToJson(result),
      now: nowSeconds(),
    }
  })

  app.get('/api/proposals/:id/votes', async (request) => {
    const { id } = parse(proposalIdParams, request.params, 'proposal id')
    const query = parse(voteListQuerySchema, request.query, 'votes query')
    const proposal = await requireProposal(deps, id)
    const page = await deps.reads.shared(proposal.id, `votes ${JSON.stringify(query)}`, () =>
      listVotes(deps.database.db, proposal.id, query),
    )
    return { ...page, votes: page.votes.map((vote) => ({ ...vote, power: String(vote.power) })) }
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
  app.get('/api/proposals/:id/bundle', { config: exportLimit }, async (request, reply) => {
    const { id } = parse(proposalIdParams, request.params, 'proposal id')
    const proposal = await requireProposal(deps, id)
    // Byte mode: the stream pulls the next page only when what it holds (64 KiB) has gone out, instead of
    // buffering 16 pages as an object-mode stream would.
    const body = Readable.from(resultBundleJson(deps, proposal), {
      objectMode: false,
      highWaterMark: 64 * 1024,
    })
    return reply.type('application/json; charset=utf-8').send(body)
  })

  /** The log from entry `after` + 1 on, to check the whole chain (bounded pages). */
  app.get('/api/governance/log', { config: exportLimit }, async (request) => {
    const query = parse(logQuery, request.query, 'log query')
    const after =
      query.after === undefined
        ? 0n
        : readCursorField(
            cursorField.int8,
            query.after,
            'after is a log seq, a whole number from 0 to 2^63 − 1',
          )
    return { entries: await logPage(deps, after) }
  })
}
