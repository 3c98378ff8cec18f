// HTTP for the members directory, a member's page and delegates' statements: validate strictly, call the service, map its answer.
import {
  memberListQuerySchema,
  memberPageQuerySchema,
  powerHistoryQuerySchema,
  signedDelegateStatementSchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import type { Address } from 'viem'
import { normalize } from 'viem/ens'
import { z } from 'zod'
import { type GovernanceDeps, seconds } from '../governance/deps.ts'
import type { NameProfiles } from '../names/profiles.ts'
import { ApiError } from '../platform/http/errors.ts'
import { addressParam, parse } from '../platform/http/params.ts'
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

type MemberParams = { Params: { address: string } }
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

  app.get('/api/members', async (request) => {
    const query = parse(memberListQuerySchema, request.query, 'members query')
    const page = await listMembers(db, tokenIndex, query)
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
  })

  app.get<MemberParams>('/api/members/:address', async (request) => {
    parse(noQuery, request.query, 'member query')
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
  })

  app.get<MemberParams>('/api/members/:address/votes', async (request) => {
    const query = parse(memberPageQuerySchema, request.query, 'votes query')
    const page = await memberVotes(db, await member(request.params.address), query)
    return { ...page, votes: page.votes.map((vote) => ({ ...vote, power: String(vote.power) })) }
  })

  app.get<MemberParams>('/api/members/:address/proposals', async (request) => {
    const query = parse(memberPageQuerySchema, request.query, 'proposals query')
    const now = seconds(deps.now())
    return { ...(await memberProposals(db, await member(request.params.address), now, query)), now }
  })

  app.get<MemberParams>('/api/members/:address/delegators', async (request) => {
    const query = parse(memberPageQuerySchema, request.query, 'delegators query')
    const page = await memberDelegators(db, await member(request.params.address), query)
    return {
      ...page,
      delegators: page.delegators.map((row) => ({ address: row.address, balance: String(row.balance) })),
    }
  })

  app.get<MemberParams>('/api/members/:address/power', async (request) => {
    const query = parse(powerHistoryQuerySchema, request.query, 'power query')
    const history = await powerHistory(db, tokenIndex, await member(request.params.address), query)
    return {
      ...history,
      points: history.points.map((point) => ({
        block: point.block,
        votes: String(point.votes),
        time: point.time,
      })),
    }
  })

  app.post<{ Params: { address: string } }>(
    '/api/delegates/:address/statement',
    { bodyLimit: STATEMENT_BODY_LIMIT, config: writeLimit },
    async (request, reply) => {
      const delegate = addressParam(request.params.address)
      const body = parse(signedDelegateStatementSchema, request.body, 'statement')
      const result = await publishStatement(deps, delegate, body)
      return reply.status(result.created ? 201 : 200).send(result)
    },
  )

  app.get<{ Params: { address: string } }>('/api/delegates/:address/statement', async (request) =>
    latestStatement(deps, addressParam(request.params.address)),
  )
}
