// HTTP for proposals, votes, results and the log: validate strictly, call the service, map its answer.
import { Readable } from 'node:stream'
import {
  castVoteResponseSchema,
  createProposalResponseSchema,
  GOVERNANCE_LIMITS,
  logEntrySchema,
  proposalDetailSchema,
  proposalListQuerySchema,
  proposalListSchema,
  signedProposalSchema,
  signedVoteSchema,
  tallyToJson,
  voteListQuerySchema,
  voteListSchema,
  votingPowerResponseSchema,
} from '@guildhall/core'
import { resultBundleSchema } from '@guildhall/core/recount'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { cursorField, readCursorField } from '../platform/http/keyset-page.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { addressParam, addressPathSchema, named, proposalIdParams } from '../platform/http/params.ts'
import { type GovernanceDeps, seconds } from './deps.ts'
import { logPage } from './log.ts'
import { listProposals } from './proposal-list.ts'
import { createProposal, proposalActions, proposalSummary, requireProposal } from './proposals.ts'
import { proposalResult, resultBundleJson } from './results.ts'
import { listVotes } from './vote-list.ts'
import { castVote } from './votes.ts'
import { votingPowerAt } from './voting-power.ts'

/**
 * A proposal's body is the largest signed text (20 000 characters, up to 4 bytes each in UTF-8), and its
 * actions may add their calldata (hex: two characters a byte) and fields.
 */
const PROPOSAL_BODY_LIMIT =
  128 * 1024 + GOVERNANCE_LIMITS.actionsMax * (2 * GOVERNANCE_LIMITS.actionDataMaxBytes + 256)
const VOTE_BODY_LIMIT = 16 * 1024
/** `after`: a log seq (a `bigint` column), read as the page links' fields are (400 `bad_cursor` otherwise). */
const logQuery = z.strictObject({ after: z.string().optional() })
/** GET /api/governance/log: up to a page of entries after `after`, in order; none past the end. */
const logPageSchema = z.strictObject({ entries: z.array(logEntrySchema) })

const proposalId = named('proposal id', proposalIdParams)

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
  const api = app.withTypeProvider<ApiTypeProvider>()

  api.post(
    '/api/proposals',
    {
      bodyLimit: PROPOSAL_BODY_LIMIT,
      config: writeLimit,
      schema: {
        summary: 'Submit a signed proposal (201 stored, 200 the same one again)',
        tags: ['proposals'],
        body: named('proposal', signedProposalSchema),
        response: { 200: createProposalResponseSchema, 201: createProposalResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const { id, created } = await createProposal(deps, request.body)
      return reply.status(created ? 201 : 200).send({ id })
    },
  )

  api.get(
    '/api/proposals',
    {
      schema: {
        summary: 'Proposals, latest start first, a page at a time',
        tags: ['proposals'],
        querystring: named('proposal list query', proposalListQuerySchema),
        response: { 200: proposalListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const now = nowSeconds()
      return { ...(await listProposals(deps.database.db, now, request.query)), now }
    },
  )

  api.get(
    '/api/proposals/:id',
    {
      schema: {
        summary: 'A proposal as signed, its state and its result',
        tags: ['proposals'],
        params: proposalId,
        response: { 200: proposalDetailSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const proposal = await requireProposal(deps, request.params.id)
      const result = await proposalResult(deps, proposal)
      return {
        ...proposalSummary(proposal, nowSeconds()),
        ...proposalActions(deps, proposal.message),
        message: proposal.message,
        signature: proposal.signature,
        tally: tallyToJson(result),
        now: nowSeconds(),
      }
    },
  )

  api.get(
    '/api/proposals/:id/votes',
    {
      schema: {
        summary: 'A proposal’s counting votes, by power or time, a page at a time',
        tags: ['votes'],
        params: proposalId,
        querystring: named('votes query', voteListQuerySchema),
        response: { 200: voteListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const { query } = request
      const proposal = await requireProposal(deps, request.params.id)
      const page = await deps.reads.shared(proposal.id, `votes ${JSON.stringify(query)}`, () =>
        listVotes(deps.database.db, { id: proposal.id, kind: proposal.message.kind }, query),
      )
      return { ...page, votes: page.votes.map((vote) => ({ ...vote, power: String(vote.power) })) }
    },
  )

  api.post(
    '/api/proposals/:id/votes',
    {
      bodyLimit: VOTE_BODY_LIMIT,
      config: writeLimit,
      schema: {
        summary: 'Cast a signed vote (201 stored, 200 the same one again)',
        tags: ['votes'],
        params: proposalId,
        body: named('vote', signedVoteSchema),
        response: { 200: castVoteResponseSchema, 201: castVoteResponseSchema, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const result = await castVote(deps, request.params.id, request.body)
      return reply.status(result.created ? 201 : 200).send(result)
    },
  )

  api.get(
    '/api/proposals/:id/power/:address',
    {
      config: powerLimit,
      schema: {
        summary: 'An address’s voting power at the proposal’s snapshot, and why it is zero',
        tags: ['votes'],
        // The id is checked here; the address by addressParam, whose 400 has its own words.
        params: named('proposal id', proposalIdParams.extend({ address: addressPathSchema })),
        response: { 200: votingPowerResponseSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const account = addressParam(request.params.address)
      const proposal = await requireProposal(deps, request.params.id)
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
  api.get(
    '/api/proposals/:id/bundle',
    {
      config: exportLimit,
      schema: {
        summary: 'A proposal’s result bundle: everything a recount needs (streamed)',
        tags: ['proposals'],
        params: proposalId,
        response: {
          200: { content: { 'application/json': { schema: resultBundleSchema } } },
          ...errorAnswers,
        },
      },
    },
    async (request, reply) => {
      const proposal = await requireProposal(deps, request.params.id)
      // Byte mode: the stream pulls the next page only when what it holds (64 KiB) has gone out, instead of
      // buffering 16 pages as an object-mode stream would.
      const body = Readable.from(resultBundleJson(deps, proposal), {
        objectMode: false,
        highWaterMark: 64 * 1024,
      })
      // A stream, which no serializer sees: the recount checks what it reads (schema above).
      return reply.type('application/json; charset=utf-8').send(body as never)
    },
  )

  /** The log from entry `after` + 1 on, to check the whole chain (bounded pages). */
  api.get(
    '/api/governance/log',
    {
      config: exportLimit,
      schema: {
        summary: 'The governance log from entry `after` + 1 on, a page at a time',
        tags: ['governance log'],
        querystring: named('log query', logQuery),
        response: { 200: logPageSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const { after } = request.query
      const from =
        after === undefined
          ? 0n
          : readCursorField(cursorField.int8, after, 'after is a log seq, a whole number from 0 to 2^63 − 1')
      return { entries: await logPage(deps, from) }
    },
  )
}
