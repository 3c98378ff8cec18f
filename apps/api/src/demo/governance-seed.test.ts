import { DEFAULT_GOVERNANCE_RULES, type LogEntry, logChainProblem, proposalState } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { asc, gt } from 'drizzle-orm'
import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoTokenIndex } from '../../testbed/demo-token.ts'
import { demoDomain } from '../../testbed/signers.ts'
import { ballots, governanceLog, memberStats, proposals } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { seedDemoGovernance } from './governance-seed.ts'
import { startDemoChain } from './local-chain.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  database = await testDatabase()
}, 60_000)

afterAll(async () => {
  await database?.close()
  await anvil?.stop()
})

test('behavior: the demo starts with proposals in every state and real signed votes, once, in one verified log', async () => {
  const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  const tokenIndex = demoTokenIndex({ db: database.db, client, deployment })
  const seed = () =>
    seedDemoGovernance({
      database,
      client,
      tokenIndex,
      domain: demoDomain(deployment),
      rules: DEFAULT_GOVERNANCE_RULES,
    })
  expect(await seed()).toBe(5)
  // The directory's participation is counted by the time the seed returns: Ada, Ben and Cleo could vote on
  // every proposal.
  const eligible = await database.db
    .select({ address: memberStats.address, eligible: memberStats.eligibleProposals })
    .from(memberStats)
    .where(gt(memberStats.eligibleProposals, 0))
  expect(eligible.sort((a, b) => a.address.localeCompare(b.address))).toEqual(
    [1, 2, 3]
      .map((index) => ({ address: anvilAccounts[index]?.address, eligible: 5 }))
      .sort((a, b) => String(a.address).localeCompare(String(b.address))),
  )
  expect(await seed()).toBe(0)

  const now = Math.floor(Date.now() / 1000)
  const rows = await database.db.select().from(proposals)
  expect(new Set(rows.map((row) => proposalState(row, now)))).toEqual(
    new Set(['pending', 'active', 'closed', 'final']),
  )
  expect(await database.db.select().from(ballots)).toHaveLength(8)
  const log = await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
  expect(log).toHaveLength(5 + 8)
  expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
})
