// HTTP for the members directory, a member's page and delegates' statements: validate strictly, call the service, map its answer.
import {
  delegateStatementSchema,
  memberDelegatorListSchema,
  memberListQuerySchema,
  memberListSchema,
  memberPageQuerySchema,
  memberProfileSchema,
  memberProposalListSchema,
  memberVoteListSchema,
  powerHistoryQuerySchema,
  powerHistorySchema,
  publishStatementResponseSchema,
  signedDelegateStatementSchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import type { Address } from 'viem'
import { normalize } from 'viem/ens'
import { z } from 'zod'
import { type GovernanceDeps, seconds } from '../governance/deps.ts'
import type { NameProfiles } from '../names/profiles.ts'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { addressParam, addressParams, named } from '../platform/http/params.ts'
import type { TokenIndex } from '../token/token-index.ts'
import { listMembers } from './member-list.ts'
import {
  addressNamed,
  memberDelegators,
  memberProfile,
  memberProposals,
  memberVotes,
  noName,
  powerHistory,
} from './member-page.ts'
import { latestStatement, publishStatement } from './statements.ts'

/**
 * A statement is at most 20 000 UTF-8 bytes (GOVERNANCE_LIMITS.statementMaxBytes); JSON may escape each
 * character as \uXXXX, so the body gets room for that and the schema names the limit that was passed.
 */
const STATEMENT_BODY_LIMIT = 64 * 1024

/** A member's path: checked by `member` below, which may look a name up (404) or refuse it in its own words. */
const memberParams = named(
  'member',
  z.strictObject({
    address: z
      .string()
      .meta({ description: 'The member: an address (0x + 40 hex digits, any case) or a name (ada.eth).' }),
  }),
)
/** The member's own answer takes no parameters. */
const noQuery = z.strictObject({})

export async function memberRoutes(
  app: FastifyInstance,
  {
    deps,
    tokenIndex,
    profiles,
    namesOn,
    writeRateLimitPerMinute,
  }: {
    deps: GovernanceDeps
    tokenIndex: TokenIndex
    /** The name table's answers; undefined without a database. */
    profiles: NameProfiles | undefined
    /** Whether this server looks names up (ENS_RPC_URL): without, a name opens no page. */
    namesOn: boolean
    /** Statements each client may publish per minute: each costs a signature check (governance's write limit). */
    writeRateLimitPerMinute: number
  },
) {
  const { db } = deps.database
  const writeLimit = { rateLimit: { max: writeRateLimitPerMinute, timeWindow: '1 minute' } }

  /** The member a path names: an address (any case), or a forward-checked primary name such as ada.eth. */
  async function member(param: string): Promise<Address> {
    if (/^0x/i.test(param)) return addressParam(param)
    let name: string
    try {
      // Fastify has already refused a parameter over 100 characters (414).
      name = normalize(param)
      if (name === '') throw new Error('no name')
    } catch {
      throw ApiError.badRequest(
        'A member is named by their address (0x + 40 hex digits) or their name (such as ada.eth).',
      )
    }
    if (!namesOn) {
      throw new ApiError(
        404,
        'unknown_member',
        `No member is named ${name}: this server does not look names up. Use the address.`,
      )
    }
    return addressNamed(db, name)
  }

  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['members']

  api.get(
    '/api/members',
    {
      schema: {
        summary: 'The members directory, by power, delegators or participation, a page at a time',
        tags,
        querystring: named('members query', memberListQuerySchema),
        response: { 200: memberListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const page = await listMembers(db, tokenIndex, request.query)
      return {
        members: page.members.map((member) => ({
          ...member,
          votes: String(member.votes),
          balance: String(member.balance),
        })),
        totalVotes: String(page.totalVotes),
        blockNumber: page.blockNumber,
        next: page.next,
      }
    },
  )

  api.get(
    '/api/members/:address',
    {
      schema: {
        summary: 'A member’s figures, name, avatar and latest statement',
        tags,
        params: memberParams,
        querystring: named('member query', noQuery),
        response: { 200: memberProfileSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const address = await member(request.params.address)
      const [figures, [profile], statement] = await Promise.all([
        memberProfile(db, tokenIndex, address),
        profiles ? profiles.lookup([address]) : [noName(address)],
        latestStatement(deps, address).catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'no_statement') return null
          throw error
        }),
      ])
      const name = profile ?? noName(address)
      return {
        ...figures,
        votes: String(figures.votes),
        balance: String(figures.balance),
        totalVotes: String(figures.totalVotes),
        profile: name,
        avatarProblem: profiles ? await profiles.avatarProblem(name) : null,
        statement,
      }
    },
  )

  api.get(
    '/api/members/:address/votes',
    {
      schema: {
        summary: 'A member’s counting votes, newest first, a page at a time',
        tags,
        params: memberParams,
        querystring: named('votes query', memberPageQuerySchema),
        response: { 200: memberVoteListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const page = await memberVotes(db, await member(request.params.address), request.query)
      return { ...page, votes: page.votes.map((vote) => ({ ...vote, power: String(vote.power) })) }
    },
  )

  api.get(
    '/api/members/:address/proposals',
    {
      schema: {
        summary: 'The proposals a member wrote, latest start first, a page at a time',
        tags,
        params: memberParams,
        querystring: named('proposals query', memberPageQuerySchema),
        response: { 200: memberProposalListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const now = seconds(deps.now())
      return { ...(await memberProposals(db, await member(request.params.address), now, request.query)), now }
    },
  )

  api.get(
    '/api/members/:address/delegators',
    {
      schema: {
        summary: 'The token holders that delegate to a member, most tokens first, a page at a time',
        tags,
        params: memberParams,
        querystring: named('delegators query', memberPageQuerySchema),
        response: { 200: memberDelegatorListSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const page = await memberDelegators(db, await member(request.params.address), request.query)
      return {
        ...page,
        delegators: page.delegators.map((row) => ({ address: row.address, balance: String(row.balance) })),
      }
    },
  )

  api.get(
    '/api/members/:address/power',
    {
      schema: {
        summary: 'A member’s voting power over time, with each change’s block and time',
        tags,
        params: memberParams,
        querystring: named('power query', powerHistoryQuerySchema),
        response: { 200: powerHistorySchema, ...errorAnswers },
      },
    },
    async (request) => {
      const history = await powerHistory(db, tokenIndex, await member(request.params.address), request.query)
      return {
        ...history,
        points: history.points.map((point) => ({
          block: point.block,
          votes: String(point.votes),
          time: point.time,
        })),
      }
    },
  )

  api.post(
    '/api/delegates/:address/statement',
    {
      bodyLimit: STATEMENT_BODY_LIMIT,
      config: writeLimit,
      schema: {
        summary: 'Publish a signed delegate statement (201 stored, 200 the same one again)',
        tags: ['delegates'],
        params: addressParams,
        body: named('statement', signedDelegateStatementSchema),
        response: {
          200: publishStatementResponseSchema,
          201: publishStatementResponseSchema,
          ...errorAnswers,
        },
      },
    },
    async (request, reply) => {
      const result = await publishStatement(deps, request.params.address, request.body)
      return reply.status(result.created ? 201 : 200).send(result)
    },
  )

  api.get(
    '/api/delegates/:address/statement',
    {
      schema: {
        summary: 'A delegate’s latest statement as signed (404: none)',
        tags: ['delegates'],
        params: addressParams,
        response: { 200: delegateStatementSchema, ...errorAnswers },
      },
    },
    async (request) => latestStatement(deps, request.params.address),
  )
}
