// The local demo's governance history, so every page has something real on it: proposals in every state with votes signed
// by the demo members' own keys, stored through the same verification as any request. Proposals that
// ended in the past are created with the service's clock set to when they were live, so every message
// passes the rules it would have met then.
import {
  BASIC_CHOICES,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  erc20ActionAbi,
  type GovernanceDomain,
  type GovernanceRules,
  governanceDomain,
  type ProposalAction,
  type ProposalMessage,
  type ProposalMessageV1,
  type ProposalMessageV2,
  signGovernanceMessage,
  type VoteMessage,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { DEMO_PAYEES, DEMO_USDG, safeAbi, safeRelayer } from '@guildhall/devchain/safe'
import { eq } from 'drizzle-orm'
import {
  type Address,
  concatHex,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { ExecutionDeps } from '../execution/deps.ts'
import { addSignature, proposalExecution, queueExecution } from '../execution/executions.ts'
import type { GovernanceDeps } from '../governance/deps.ts'
import { ProposalReads } from '../governance/proposal-reads.ts'
import { createProposal } from '../governance/proposals.ts'
import { settleRankedResult } from '../governance/ranked-results.ts'
import { tallyRules } from '../governance/tallies.ts'
import { castVote } from '../governance/votes.ts'
import type { Database } from '../platform/db/client.ts'
import { proposals } from '../platform/db/schema.ts'
import { silentObserver } from '../platform/observer.ts'
import type { Settings } from '../settings/env.ts'
import { TokenIndex } from '../token/token-index.ts'
import { seedDemoThreads, seedDemoTopics } from './forum-seed.ts'

const HOUR = 3_600
const DAY = 24 * HOUR
const key = (index: number) => privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex)
const [ada, ben, cleo] = [key(1), key(2), key(3)]

type SeedProposal = {
  author: typeof ada
  title: string
  body: string
  kind: ProposalMessage['kind']
  choices?: string[]
  /** Relative to now, in seconds. */
  start: number
  end: number
  /** `weights`: a weighted or quadratic ballot's, one per choice (a version 2 vote). */
  votes: { voter: typeof ada; choices: number[]; weights?: number[]; reason?: string }[]
}

/** A basic proposal the treasury Safe carries out: its category and actions (version 2). */
type SeedTreasuryProposal = SeedProposal & {
  category: string
  actions: (treasury: DemoTreasuryTarget) => ProposalAction[]
  /** Once queued, who signs its Safe transaction (in this order), and whether it is then executed. */
  execution: { signers: (typeof ada)[]; execute: boolean }
}

/** The treasury the seed's proposals pay from: the Safe and USDG. */
export type DemoTreasuryTarget = { safe: Address; usdg: Address }

const usdgTransfer = (treasury: DemoTreasuryTarget, to: Address, amount: string): ProposalAction => ({
  target: treasury.usdg,
  value: '0',
  data: encodeFunctionData({
    abi: erc20ActionAbi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, DEMO_USDG.decimals)],
  }),
})
const ethPayment = (to: Address, amount: string): ProposalAction => ({
  target: to,
  value: parseEther(amount).toString(),
  data: '0x',
})

const SEED: SeedProposal[] = [
  {
    author: ada,
    title: 'Adopt the community code of conduct',
    body: 'We adopt the [Contributor Covenant](https://www.contributor-covenant.org/) as our code of conduct.\n\n- Applies to every channel\n- Moderators are elected yearly',
    kind: 'basic',
    start: -10 * DAY,
    end: -3 * DAY,
    votes: [
      { voter: ada, choices: [1], reason: 'Long overdue.' },
      { voter: ben, choices: [1] },
      { voter: cleo, choices: [3] },
    ],
  },
  {
    author: ben,
    title: 'Which city hosts the next meetup?',
    body: 'Three cities offered a venue. The one with the most voting power wins.',
    kind: 'single-choice',
    choices: ['Lisbon', 'Nairobi', 'Montréal'],
    start: -2 * DAY,
    end: -2 * 60,
    votes: [
      { voter: ada, choices: [2] },
      { voter: ben, choices: [1], reason: 'Direct flights for most of us.' },
    ],
  },
  {
    author: ada,
    title: 'Fund the documentation sprint (5,000 GHD)',
    body: '## Proposal\n\nPay two writers for a month to rewrite the **onboarding guide**.\n\n## Budget\n\n| item | GHD |\n|---|---|\n| writers | 4,500 |\n| review | 500 |',
    kind: 'basic',
    start: -1 * DAY,
    end: 5 * DAY,
    votes: [
      { voter: ada, choices: [1], reason: 'Newcomers get lost today.' },
      { voter: ben, choices: [2], reason: 'Too expensive for one month.' },
    ],
  },
  {
    author: cleo,
    title: 'Which working groups should get a budget this quarter?',
    body: 'Approve every group you think should be funded.',
    kind: 'approval',
    choices: ['Events', 'Grants', 'Infrastructure', 'Outreach'],
    start: -6 * HOUR,
    end: 3 * DAY,
    votes: [{ voter: cleo, choices: [2, 3] }],
  },
  {
    author: ben,
    title: 'Renew the treasury multisig signers',
    body: 'Replace one of the three signers of the 2-of-3 Safe, whose term ends next month.',
    kind: 'basic',
    start: 1 * DAY,
    end: 8 * DAY,
    votes: [],
  },
]

/**
 * One proposal of each kind issue 25 added, so the demo shows how each is voted and counted. The community
 * grant is closed and final and its count takes three rounds: Ada's first preference leads the first two
 * (1,250 of 2,600 GHD, short of a majority), then Cleo's ballot moves to Local meetups, which wins with 1,350.
 */
const VOTING_KINDS_SEED: SeedProposal[] = [
  {
    author: cleo,
    title: 'Which project gets this quarter’s community grant?',
    body: 'Rank every project. The count goes round by round: the project with the least voting power is eliminated and its ballots move to their next choice, until one project holds more than half.',
    kind: 'ranked-choice',
    choices: ['Translation of the docs', 'Local meetups fund', 'Open-source tooling', 'Accessibility audit'],
    start: -12 * DAY,
    end: -4 * DAY,
    votes: [
      { voter: ada, choices: [3, 1, 2, 4], reason: 'Tooling helps every other project.' },
      { voter: ben, choices: [2, 4, 1, 3] },
      { voter: cleo, choices: [1, 2, 3, 4], reason: 'Half of our newcomers do not read English.' },
    ],
  },
  {
    author: ben,
    title: 'Rank the themes of the winter call series',
    body: 'Five themes, one call each; the order of the calls follows the ranking.',
    kind: 'ranked-choice',
    choices: [
      'Governance tooling',
      'Treasury management',
      'Onboarding newcomers',
      'Security practices',
      'Public goods',
    ],
    start: -1 * DAY,
    end: 4 * DAY,
    votes: [
      { voter: ben, choices: [2, 4, 1, 3, 5] },
      { voter: cleo, choices: [3, 5, 1, 2, 4], reason: 'Newcomers first: they are who the calls are for.' },
    ],
  },
  {
    author: cleo,
    title: 'Split next quarter’s community budget',
    body: 'Give each area the share you think it deserves: your voting power is split by your weights.',
    kind: 'weighted',
    choices: ['Events', 'Grants', 'Infrastructure', 'Documentation'],
    start: -2 * DAY,
    end: 5 * DAY,
    votes: [
      { voter: ben, choices: [1, 2, 3], weights: [50, 30, 20], reason: 'Events bring members in.' },
      { voter: cleo, choices: [2, 4], weights: [3, 1] },
    ],
  },
]

/**
 * The quadratic proposal, seeded only where the operator turned quadratic voting on (QUADRATIC_VOTING, as the
 * demo's settings do): elsewhere the proposal path refuses it.
 */
const QUADRATIC_SEED: SeedProposal = {
  author: ben,
  title: 'Which public goods should the DAO match?',
  body: 'Spread your voting power over the projects you want matched. Each project counts the square of the sum of the square roots of its backers’ shares, so many small backers outweigh one large one. This works only because each demo member holds one address.',
  kind: 'quadratic',
  choices: ['Block explorer', 'Wallet translations', 'Client diversity fund'],
  start: -3 * DAY,
  end: 3 * DAY,
  votes: [
    { voter: ada, choices: [1], weights: [1], reason: 'We use the explorer every day.' },
    { voter: ben, choices: [2, 3], weights: [1, 1] },
    { voter: cleo, choices: [2, 3], weights: [2, 1] },
  ],
}

/**
 * Passed proposals with actions, seeded when the demo has its treasury: the first executed through the Safe
 * (queued, two owners' signatures, executed on chain), the second queued with one signature of two.
 */
const TREASURY_SEED: SeedTreasuryProposal[] = [
  {
    author: ada,
    title: 'Pay for the audit of the treasury setup (20,000 USDG and 0.5 ETH)',
    body: 'The auditor reviewed our Safe, its owners and the payout process. This pays the invoice: **20,000 USDG** and **0.5 ETH** for the on-chain tests.',
    kind: 'basic',
    category: 'Security',
    actions: (treasury) => [
      usdgTransfer(treasury, DEMO_PAYEES.auditor, '20000'),
      ethPayment(DEMO_PAYEES.auditor, '0.5'),
    ],
    start: -21 * DAY,
    end: -16 * DAY,
    votes: [
      { voter: ada, choices: [1], reason: 'The report was thorough.' },
      { voter: ben, choices: [1] },
      { voter: cleo, choices: [1] },
    ],
    execution: { signers: [ada, ben], execute: true },
  },
  {
    author: cleo,
    title: 'Fund the autumn meetup (6,000 USDG)',
    body: 'Venue, food and travel grants for the autumn meetup, paid to the events team.',
    kind: 'basic',
    category: 'Operations',
    actions: (treasury) => [usdgTransfer(treasury, DEMO_PAYEES.events, '6000')],
    start: -9 * DAY,
    end: -5 * DAY,
    votes: [
      { voter: cleo, choices: [1], reason: 'Last year’s meetup brought in four new members.' },
      { voter: ben, choices: [1] },
    ],
    execution: { signers: [cleo], execute: false },
  },
]

/**
 * A passed proposal through the Safe as the app does it: queued (its Safe transaction derived from the
 * signed actions at the next free nonce), signed by `signers` (each signature checked and logged), and with
 * `execute` sent to the Safe with those signatures, as any account may once the threshold is met.
 */
async function carryOut(
  deps: ExecutionDeps,
  id: Hex,
  { signers, execute }: SeedTreasuryProposal['execution'],
): Promise<void> {
  const storedProposal = async () => {
    const [row] = await deps.governance.database.db.select().from(proposals).where(eq(proposals.id, id))
    if (!row) throw new Error(`demo seed: proposal ${id} is missing`)
    return row
  }
  const { queued } = await queueExecution(deps, await storedProposal())
  if (!queued) throw new Error(`demo seed: proposal ${id} was not queued`)
  for (const signer of signers) {
    // What the wallet's EIP-712 SafeTx signature is: ECDSA over the safeTxHash, v 27 or 28.
    const signature = await signer.sign({ hash: queued.safeTxHash })
    await addSignature(deps, await storedProposal(), {
      owner: signer.address,
      safeTxHash: queued.safeTxHash,
      signature,
    })
  }
  if (!execute) return
  const { queued: signed } = await proposalExecution(deps, await storedProposal())
  const signatures = [...(signed?.signatures ?? [])]
    .sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : 1))
    .map((confirmation) => confirmation.signature ?? '0x')
  const tx = queued.transaction
  const client = deps.governance.client
  const relayer = createWalletClient({ account: safeRelayer(), transport: http(client.transport.url) })
  const hash = await relayer.writeContract({
    chain: null,
    address: deps.safe as Address,
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [
      tx.to,
      BigInt(tx.value),
      tx.data,
      tx.operation,
      BigInt(tx.safeTxGas),
      BigInt(tx.baseGas),
      BigInt(tx.gasPrice),
      tx.gasToken,
      tx.refundReceiver,
      concatHex(signatures),
    ],
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== 'success') throw new Error(`demo seed: the Safe did not execute proposal ${id}`)
}

/**
 * Seeds the demo proposals and votes once (when no proposal exists yet). Returns how many proposals were
 * created. `snapshot` is a recent block at which the demo members' tokens and delegations are in place.
 */
export async function seedDemoGovernance({
  database,
  client,
  tokenIndex,
  domain,
  rules,
  categories = [],
  treasury = null,
  topicLinks = new Map(),
}: {
  database: Database
  client: PublicClient
  tokenIndex: TokenIndex
  domain: GovernanceDomain
  /** The rules new proposals freeze, and QUADRATIC_VOTING: the quadratic proposal is seeded only when it is on. */
  rules: GovernanceRules & { quadraticVoting?: boolean }
  /** PROPOSAL_CATEGORIES: the treasury proposals' categories must be among them. */
  categories?: readonly string[]
  /** The demo treasury and its execution settings; null: no proposal with actions. */
  treasury?: (DemoTreasuryTarget & { delaySeconds: number; expirySeconds: number }) | null
  /** A line a proposal's body ends with, by its title: the link to the topic it came from. */
  topicLinks?: ReadonlyMap<string, string>
}): Promise<number> {
  if ((await database.db.select({ id: proposals.id }).from(proposals).limit(1)).length > 0) return 0
  const { quadraticVoting = false, ...frozenRules } = rules
  await tokenIndex.syncOnce()
  const snapshot = Number(await client.getBlockNumber({ cacheTime: 0 })) - 1
  const now = Math.floor(Date.now() / 1000)
  const at = (seconds: number) => () => new Date(seconds * 1000)
  const deps = (clock: () => Date): GovernanceDeps => ({
    database,
    client,
    tokenIndex,
    domain,
    rules,
    // The seed takes the block before the head itself, so the default bound always holds.
    snapshotMaxAgeBlocks: DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
    categories,
    treasury: treasury && { safe: treasury.safe },
    now: clock,
    reads: new ProposalReads(),
    observer: silentObserver,
  })
  /** Creates one seeded proposal with its votes, each at its own time; returns its id. */
  const seedProposal = async (
    seed: SeedProposal,
    version2?: Pick<ProposalMessageV2, 'version' | 'category' | 'changesSafeSettings' | 'actions'>,
  ) => {
    const start = now + seed.start
    const link = topicLinks.get(seed.title)
    const v1: ProposalMessageV1 = {
      author: seed.author.address,
      title: seed.title,
      body: link ? `${seed.body}\n\n${link}` : seed.body,
      kind: seed.kind,
      choices: seed.kind === 'basic' ? [...BASIC_CHOICES] : (seed.choices ?? []),
      start,
      end: now + seed.end,
      snapshot,
      ...frozenRules,
      timestamp: Math.min(start, now) - 60,
    }
    const message: ProposalMessage = version2 ? { ...v1, ...version2 } : v1
    const { signature, id } = await signGovernanceMessage(seed.author, domain, { type: 'Proposal', message })
    await createProposal(deps(at(message.timestamp)), { message, signature })
    for (const [index, vote] of seed.votes.entries()) {
      const votedAt = start + 10 * 60 * (index + 1)
      const fields = {
        voter: vote.voter.address,
        proposal: id,
        choices: vote.choices,
        reason: vote.reason ?? '',
        timestamp: votedAt,
      }
      // Version 2 for the kinds that take weights, as the web app signs them (ADR 059).
      const ballot: VoteMessage = vote.weights ? { ...fields, version: 2, weights: vote.weights } : fields
      const signed = await signGovernanceMessage(vote.voter, domain, { type: 'Vote', message: ballot })
      await castVote(deps(at(votedAt)), id, { message: ballot, signature: signed.signature })
    }
    return id
  }
  // The treasury's proposals first: they are the oldest.
  const treasuryProposals = treasury ? TREASURY_SEED : []
  const queued: { id: Hex; seed: SeedTreasuryProposal }[] = []
  for (const seed of treasuryProposals) {
    const id = await seedProposal(seed, {
      version: 2,
      category: seed.category,
      changesSafeSettings: false,
      actions: seed.actions(treasury as DemoTreasuryTarget),
    })
    queued.push({ id, seed })
  }
  for (const seed of SEED) await seedProposal(seed)
  const votingKinds = quadraticVoting ? [...VOTING_KINDS_SEED, QUADRATIC_SEED] : VOTING_KINDS_SEED
  for (const seed of votingKinds) {
    const id = await seedProposal(seed)
    // A closed ranked-choice proposal's rounds settled once, as its first reader would: its result is final.
    if (seed.kind === 'ranked-choice' && seed.end < 0) {
      const [row] = await database.db.select().from(proposals).where(eq(proposals.id, id))
      if (row) await settleRankedResult(database.db, id, tallyRules(row.message))
    }
  }
  if (treasury) {
    const execution: ExecutionDeps = {
      governance: deps(() => new Date()),
      safe: treasury.safe,
      chainId: domain.chainId,
      delaySeconds: treasury.delaySeconds,
      expirySeconds: treasury.expirySeconds,
    }
    // In order: each is queued at the next free nonce, so the first is executed before the second is queued.
    for (const { id, seed } of queued) await carryOut(execution, id, seed.execution)
  }
  // The index has passed the snapshot: count the members who could vote now, so the directory shows their
  // participation from the start rather than after the server's next sync.
  await tokenIndex.syncOnce()
  return treasuryProposals.length + SEED.length + votingKinds.length
}

/**
 * Seeds the demo governance history and its forum into the server's `database` if it has none (see
 * seedDemoGovernance and forum-seed.ts), with the treasury's proposals when the demo has its treasury.
 * Returns how many proposals were created.
 */
export async function seedDemoDatabase(
  settings: Settings,
  database: Database,
  treasury: DemoTreasuryTarget | null = null,
): Promise<number> {
  const token = settings.publicConfig.token
  const chain = settings.chains[0]
  if (!token || !chain) return 0
  const client = createPublicClient({ transport: http(chain.upstreamRpcUrl) }) as PublicClient
  const tokenIndex = new TokenIndex({
    db: database.db,
    client,
    chainId: chain.id,
    token: token.address,
    fromBlock: settings.tokenDeployBlock,
    confirmations: settings.tokenIndexConfirmations,
  })
  const domain = governanceDomain({ chainId: token.chainId, token: token.address })
  const forum = {
    governance: {
      database,
      client,
      tokenIndex,
      domain,
      rules: settings.publicConfig.governance,
      snapshotMaxAgeBlocks: DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
      categories: settings.publicConfig.proposalCategories,
      treasury: treasury && { safe: treasury.safe },
      now: () => new Date(),
      reads: new ProposalReads(),
      observer: silentObserver,
    },
    categories: settings.discussion.categories,
  }
  // The posting policy reads the members' tokens from the index: indexed before the first topic.
  await tokenIndex.syncOnce()
  const now = Math.floor(Date.now() / 1000)
  const topicLinks = await seedDemoTopics(forum, { now, appUrl: settings.publicConfig.appUrl })
  const seeded = await seedDemoGovernance({
    database,
    client,
    tokenIndex,
    domain,
    rules: settings.publicConfig.governance,
    categories: settings.publicConfig.proposalCategories,
    treasury: treasury && { ...treasury, ...settings.execution },
    topicLinks,
  })
  // The threads once, with the topics (seeded just now or never).
  if (topicLinks.size > 0) await seedDemoThreads(forum)
  return seeded
}
