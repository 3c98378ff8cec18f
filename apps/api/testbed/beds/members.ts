// The setup the members directory tests share (directory-figures, directory-search): the demo DAO on a real
// chain (anvil) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh), its token
// indexed, the app on them, and reads of the directory and of the token. A test file calls useMembersBed()
// once at its top; the bindings below are live (ES modules), set by its beforeAll.
import { type MemberList, memberListSchema } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { FastifyInstance } from 'fastify'
import { type Address, createPublicClient, createTestClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect } from 'vitest'
import { checkMemberStats } from '../../src/member-stats/vote-moves.ts'
import type { TestDatabase } from '../../src/platform/db/test-database.ts'
import type { TokenIndex } from '../../src/token/token-index.ts'
import { demoTokenIndex } from '../demo-token.ts'
import { startTestbed, stopTestbed, testApp } from '../test-app.ts'

export const DAO_NAME = 'Guildhall Members Test DAO'

export let anvil: AnvilInstance
export let deployment: DemoDeployment
export let database: TestDatabase
export let app: FastifyInstance
let index: TokenIndex
export let client: PublicClient
export let chain: { client: PublicClient; url: string; token: Address }

export const get = async (query: string) => app.inject({ method: 'GET', url: `/api/members${query}` })
export const page = async (query: string): Promise<MemberList> => {
  const response = await get(query)
  expect(response.statusCode, response.body).toBe(200)
  return memberListSchema.parse(response.json())
}
/** Every page of `query`, `between` running after each. */
export async function allPages(query: string, between?: (page: number) => Promise<void>) {
  const seen: MemberList['members'] = []
  let next: string | null = null
  for (let n = 0; n < 50; n++) {
    const body = await page(`${query}${next ? `&cursor=${next}` : ''}`)
    seen.push(...body.members)
    await between?.(n)
    next = body.next
    if (!next) return seen
  }
  throw new Error('more pages than members')
}

export const mine = (blocks = 1) =>
  createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks })
/** Syncs the index; the directory's rows must then equal a recount. */
export const sync = async () => {
  await index.syncOnce()
  expect(await checkMemberStats(database.db)).toMatchObject({ mismatches: [] })
}

/** Each demo account's figures from the token itself, at the head. */
export async function fromChain(address: Address) {
  const token = { address: deployment.token, abi: governanceTokenAbi } as const
  const [votes, balance, delegatee] = await Promise.all([
    client.readContract({ ...token, functionName: 'getVotes', args: [address] }),
    client.readContract({ ...token, functionName: 'balanceOf', args: [address] }),
    client.readContract({ ...token, functionName: 'delegates', args: [address] }),
  ])
  return {
    votes: String(votes),
    balance: String(balance),
    delegate: /^0x0+$/.test(delegatee) ? null : delegatee,
  }
}

/** Starts the bed before the file's tests and stops it after them. */
export function useMembersBed() {
  beforeAll(async () => {
    ;({ anvil, deployment, database } = await startTestbed())
    app = await testApp(
      { anvil, deployment, database },
      { env: { DAO_NAME, TOKEN_INDEX_CONFIRMATIONS: '0', AUTH_RATE_LIMIT_PER_MINUTE: '100000' } },
    )
    client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
    chain = { client, url: anvil.url, token: deployment.token }
    index = demoTokenIndex(
      { db: database.db, client, deployment },
      // Participation counted a few members per transaction: several chunks per proposal (ADR 033).
      { eligibilityChunk: 2 },
    )
    await sync()
  }, 60_000)
  afterAll(() => stopTestbed({ anvil, database }, app))
}
