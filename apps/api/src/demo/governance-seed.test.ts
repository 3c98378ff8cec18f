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
import { asc, eq, gt } from 'drizzle-orm'
import {
  createPublicClient,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoTokenIndex } from '../../testbed/demo-token.ts'
import { demoDomain } from '../../testbed/signers.ts'
import type { ExecutionDeps } from '../execution/deps.ts'
import { proposalExecution } from '../execution/executions.ts'
import { ProposalReads } from '../governance/proposal-reads.ts'
import { checkTallies } from '../governance/tally-check.ts'
import { ballots, governanceLog, memberStats, proposals, rankedResults } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { silentObserver } from '../platform/observer.ts'
import { seedDemoGovernance } from './governance-seed.ts'
import { startDemoChain } from './local-chain.ts'

/** Whole GHD as the rounds store them: base units, in decimal; null (eliminated) stays null. */
const gh = (tokens: string | null) => (tokens === null ? null : parseEther(tokens).toString())

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

test('behavior: the demo starts with proposals in every state and real signed votes, two with payments for the treasury Safe (one executed with two owners’ signatures, one waiting for its second), one of each voting kind (a final ranked-choice result of three rounds, an active one, weighted, quadratic), once, every stored tally equal to a recount, in one verified log', async () => {
  const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  const tokenIndex = demoTokenIndex({ db: database.db, client, deployment })
  const seed = () =>
    seedDemoGovernance({
      database,
      client,
      tokenIndex,
      domain: demoDomain(deployment),
      // As the demo's settings have it: quadratic voting on.
      rules: { ...DEFAULT_GOVERNANCE_RULES, quadraticVoting: true },
      categories,
      treasury: { safe: treasury.safe.address, usdg: treasury.usdg, ...execution },
    })
  expect(await seed()).toBe(11)
  // The directory's participation is counted by the time the seed returns: Ada, Ben and Cleo could vote on
  // every proposal.
  const eligible = await database.db
    .select({ address: memberStats.address, eligible: memberStats.eligibleProposals })
    .from(memberStats)
    .where(gt(memberStats.eligibleProposals, 0))
  expect(eligible.sort((a, b) => a.address.localeCompare(b.address))).toEqual(
    [1, 2, 3]
      .map((index) => ({ address: anvilAccounts[index]?.address, eligible: 11 }))
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
      observer: silentObserver,
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

  // One proposal of each voting kind of issue 25, each through the proposal and vote paths.
  const kinds = rows.map((row) => [row.message.kind, proposalState(row, now), row.message.choices.length])
  expect(kinds.filter(([kind]) => ['ranked-choice', 'weighted', 'quadratic'].includes(String(kind)))).toEqual(
    [
      ['ranked-choice', 'final', 4],
      ['ranked-choice', 'active', 5],
      ['weighted', 'active', 4],
      ['quadratic', 'active', 3],
    ],
  )
  // The community grant's count was settled once it closed: three rounds, the first preferences' leader
  // (Open-source tooling, Ada's 1,250 of 2,600) overtaken when Cleo's ballot moves to Local meetups.
  const grant = rows.find(
    (row) => row.message.kind === 'ranked-choice' && proposalState(row, now) === 'final',
  )
  const [settled] = await database.db
    .select()
    .from(rankedResults)
    .where(eq(rankedResults.proposalId, String(grant?.id)))
  expect(settled?.result).toMatchObject({
    outcome: 'passed',
    leading: [2],
    quorumReached: true,
    rounds: [
      { perChoice: ['500', '850', '1250', '0'].map(gh), eliminated: [4] },
      { perChoice: ['500', '850', '1250', null].map(gh), eliminated: [1] },
      { perChoice: [null, '1350', '1250', null].map(gh), eliminated: [] },
    ],
  })
  // Every stored tally (and the settled rounds) equals a recount of the ballots, as `npm run tallies:check` finds.
  expect(await checkTallies(database.db)).toEqual({ proposals: 11, mismatches: [] })

  expect(await database.db.select().from(ballots)).toHaveLength(8 + 5 + 10)
  const log = await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
  // Proposals, ballots, and the three Safe signatures.
  expect(log).toHaveLength(11 + 8 + 5 + 10 + 3)
  expect(log.filter((entry) => entry.kind === 'safe-signature')).toHaveLength(3)
  expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
})
