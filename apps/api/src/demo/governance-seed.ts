// The local demo's governance history, so every page has something real on it: proposals in every state with votes signed
// by the demo members' own keys, stored through the same verification as any request. Proposals that
// ended in the past are created with the service's clock set to when they were live, so every message
// passes the rules it would have met then.
import {
  BASIC_CHOICES,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  type GovernanceDomain,
  type GovernanceRules,
  governanceDomain,
  type ProposalMessage,
  signGovernanceMessage,
  type VoteMessage,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { createPublicClient, type Hex, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { GovernanceDeps } from '../governance/deps.ts'
import { ProposalReads } from '../governance/proposal-reads.ts'
import { createProposal } from '../governance/proposals.ts'
import { castVote } from '../governance/votes.ts'
import type { Database } from '../platform/db/client.ts'
import { proposals } from '../platform/db/schema.ts'
import type { Settings } from '../settings/env.ts'
import { TokenIndex } from '../token/token-index.ts'

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
  votes: { voter: typeof ada; choices: number[]; reason?: string }[]
}

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
 * Seeds the demo proposals and votes once (when no proposal exists yet). Returns how many proposals were
 * created. `snapshot` is a recent block at which the demo members' tokens and delegations are in place.
 */
export async function seedDemoGovernance({
  database,
  client,
  tokenIndex,
  domain,
  rules,
}: {
  database: Database
  client: PublicClient
  tokenIndex: TokenIndex
  domain: GovernanceDomain
  rules: GovernanceRules
}): Promise<number> {
  if ((await database.db.select({ id: proposals.id }).from(proposals).limit(1)).length > 0) return 0
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
    // The seeded proposals name no category and carry no actions.
    categories: [],
    treasury: null,
    now: clock,
    reads: new ProposalReads(),
  })
  for (const seed of SEED) {
    const start = now + seed.start
    const message: ProposalMessage = {
      author: seed.author.address,
      title: seed.title,
      body: seed.body,
      kind: seed.kind,
      choices: seed.kind === 'basic' ? [...BASIC_CHOICES] : (seed.choices ?? []),
      start,
      end: now + seed.end,
      snapshot,
      ...rules,
      timestamp: Math.min(start, now) - 60,
    }
    const { signature, id } = await signGovernanceMessage(seed.author, domain, { type: 'Proposal', message })
    await createProposal(deps(at(message.timestamp)), { message, signature })
    for (const [index, vote] of seed.votes.entries()) {
      const votedAt = start + 10 * 60 * (index + 1)
      const ballot: VoteMessage = {
        voter: vote.voter.address,
        proposal: id,
        choices: vote.choices,
        reason: vote.reason ?? '',
        timestamp: votedAt,
      }
      const signed = await signGovernanceMessage(vote.voter, domain, { type: 'Vote', message: ballot })
      await castVote(deps(at(votedAt)), id, { message: ballot, signature: signed.signature })
    }
  }
  // The index has passed the snapshot: count the members who could vote now, so the directory shows their
  // participation from the start rather than after the server's next sync.
  await tokenIndex.syncOnce()
  return SEED.length
}

/** Seeds the demo governance history into the server's `database` if it has none (see seedDemoGovernance). */
export async function seedDemoDatabase(settings: Settings, database: Database): Promise<number> {
  const token = settings.publicConfig.token
  const chain = settings.chains[0]
  if (!token || !chain) return 0
  const client = createPublicClient({ transport: http(chain.upstreamRpcUrl) }) as PublicClient
  return seedDemoGovernance({
    database,
    client,
    tokenIndex: new TokenIndex({
      db: database.db,
      client,
      chainId: chain.id,
      token: token.address,
      fromBlock: settings.tokenDeployBlock,
      confirmations: settings.tokenIndexConfirmations,
    }),
    domain: governanceDomain({ chainId: token.chainId, token: token.address }),
    rules: settings.publicConfig.governance,
  })
}
