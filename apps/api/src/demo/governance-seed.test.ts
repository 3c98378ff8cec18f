import {
  DEFAULT_GOVERNANCE_RULES,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  decodeAction,
  LOCAL_CHAIN_ID,
  type LogEntry,
  logChainProblem,
  proposalState,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { DEMO_PAYEES, type DemoTreasury, safeAbi } from '@guildhall/devchain/safe'
import { asc, gt } from 'drizzle-orm'
import {
  createPublicClient,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoTokenIndex } from '../../testbed/demo-token.ts'
import { demoDomain } from '../../testbed/signers.ts'
import type { ExecutionDeps } from '../execution/deps.ts'
import { proposalExecution } from '../execution/executions.ts'
import { ProposalReads } from '../governance/proposal-reads.ts'
import { ballots, governanceLog, memberStats, proposals } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { seedDemoGovernance } from './governance-seed.ts'
import { startDemoChain } from './local-chain.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let treasury: DemoTreasury
let database: TestDatabase
const execution = { delaySeconds: 60, expirySeconds: 30 * 86_400 }
const categories = ['Grants', 'Operations', 'Security']

beforeAll(async () => {
  const chain = await startDemoChain({ treasury: true })
  ;({ anvil, deployment } = chain)
  if (!chain.treasury) throw new Error('the demo chain has no treasury')
  treasury = chain.treasury
  database = await testDatabase()
}, 60_000)

afterAll(async () => {
  await database?.close()
  await anvil?.stop()
})

test('behavior: the demo starts with proposals in every state and real signed votes, two with payments for the treasury Safe (one executed with two owners’ signatures, one waiting for its second), once, in one verified log', async () => {
  const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  const tokenIndex = demoTokenIndex({ db: database.db, client, deployment })
  const seed = () =>
    seedDemoGovernance({
      database,
      client,
      tokenIndex,
      domain: demoDomain(deployment),
      rules: DEFAULT_GOVERNANCE_RULES,
      categories,
      treasury: { safe: treasury.safe.address, usdg: treasury.usdg, ...execution },
    })
  expect(await seed()).toBe(7)
  // The directory's participation is counted by the time the seed returns: Ada, Ben and Cleo could vote on
  // every proposal.
  const eligible = await database.db
    .select({ address: memberStats.address, eligible: memberStats.eligibleProposals })
    .from(memberStats)
    .where(gt(memberStats.eligibleProposals, 0))
  expect(eligible.sort((a, b) => a.address.localeCompare(b.address))).toEqual(
    [1, 2, 3]
      .map((index) => ({ address: anvilAccounts[index]?.address, eligible: 7 }))
      .sort((a, b) => String(a.address).localeCompare(String(b.address))),
  )
  expect(await seed()).toBe(0)

  const now = Math.floor(Date.now() / 1000)
  const rows = await database.db.select().from(proposals)
  expect(new Set(rows.map((row) => proposalState(row, now)))).toEqual(
    new Set(['pending', 'active', 'closed', 'final']),
  )
  // The treasury's proposals: version 2 with a category and actions paying USDG (and ETH) from the Safe.
  const withActions = rows
    .map((row) => row.message)
    .flatMap((message) => (message.version === 2 && message.actions.length > 0 ? [message] : []))
  expect(withActions.map((m) => [m.kind, m.category, proposalState(m, now)])).toEqual([
    ['basic', 'Security', 'final'],
    ['basic', 'Operations', 'final'],
  ])
  expect(
    withActions.map((m) =>
      m.actions.map((action) => decodeAction(action, { safe: treasury.safe.address }).kind),
    ),
  ).toEqual([['erc20-transfer', 'eth-transfer'], ['erc20-transfer']])
  expect(withActions.flatMap((m) => m.actions.filter((a) => a.value === '0').map((a) => a.target))).toEqual([
    treasury.usdg,
    treasury.usdg,
  ])

  // The first was carried out by the Safe with Ada's and Ben's signatures; the second waits for its second.
  const deps: ExecutionDeps = {
    governance: {
      database,
      client,
      tokenIndex,
      domain: demoDomain(deployment),
      rules: DEFAULT_GOVERNANCE_RULES,
      snapshotMaxAgeBlocks: DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
      categories,
      treasury: { safe: treasury.safe.address },
      now: () => new Date(),
      reads: new ProposalReads(),
    },
    safe: treasury.safe.address,
    chainId: LOCAL_CHAIN_ID,
    ...execution,
  }
  const treasuryRows = rows.filter((row) => row.message.version === 2 && row.message.actions.length > 0)
  const [audit, meetup] = await Promise.all(treasuryRows.map((row) => proposalExecution(deps, row)))
  expect(audit).toMatchObject({ state: 'executed', queued: { nonce: 6, threshold: 2 } })
  expect(audit?.queued?.signatures.map((s) => [s.owner, s.via])).toEqual([
    [anvilAccounts[1]?.address, 'signature'],
    [anvilAccounts[2]?.address, 'signature'],
  ])
  const receipt = await client.getTransactionReceipt({ hash: audit?.executed?.transactionHash as Hex })
  const [success] = parseEventLogs({ abi: safeAbi, eventName: 'ExecutionSuccess', logs: receipt.logs })
  expect(success?.args.txHash).toBe(audit?.queued?.safeTxHash)
  expect(
    await client.readContract({
      address: treasury.usdg,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [DEMO_PAYEES.auditor],
    }),
  ).toBe(parseUnits('28000', 6))
  expect(meetup).toMatchObject({ state: 'queued', queued: { nonce: 7, threshold: 2 } })
  expect(meetup?.queued?.signatures.map((s) => s.owner)).toEqual([anvilAccounts[3]?.address])
  expect(
    await client.readContract({ address: treasury.safe.address, abi: safeAbi, functionName: 'nonce' }),
  ).toBe(7n)

  expect(await database.db.select().from(ballots)).toHaveLength(8 + 5)
  const log = await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
  // Proposals, ballots, and the three Safe signatures.
  expect(log).toHaveLength(7 + 8 + 5 + 3)
  expect(log.filter((entry) => entry.kind === 'safe-signature')).toHaveLength(3)
  expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
})
