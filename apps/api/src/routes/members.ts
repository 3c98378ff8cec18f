// HTTP for the members directory: validate strictly, call the service, map its answer.
import { memberListQuerySchema } from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/client.ts'
import type { TokenIndex } from '../indexer/token-index.ts'
import { listMembers } from '../services/member-list.ts'
import { parse } from './params.ts'

export async function memberRoutes(
  app: FastifyInstance,
  { db, tokenIndex }: { db: Db; tokenIndex: TokenIndex },
) {
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
}
