// The discussion section's setup: the demo DAO on a fresh anvil, two proposals of Ada's (the threads' hosts)
// and every signature the section needs, made before any timing (chain); then once per database, before
// its server starts: the token index, the two proposals through the API's own proposal path, and the two
// threads seeded in bulk (seed.ts).
import { openDatabase } from '@guildhall/api/database'
import {
  createProposal,
  type GovernanceDeps,
  ProposalReads,
  silentObserver,
  type TokenIndex,
} from '@guildhall/api/operations'
import { demoDomain, demoTokenIndex } from '@guildhall/api/testbed'
import {
  BASIC_CHOICES,
  DEFAULT_GOVERNANCE_RULES,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  type GovernanceDomain,
  type ProposalMessage,
  signGovernanceMessage,
} from '@guildhall/core'
import { startBenchChain } from '../harness/chain.ts'
import { round1 } from '../harness/stats.ts'
import type { Storage } from '../harness/storage.ts'
import { keysFrom, member, signKeys, signThread } from './messages.ts'
import { COMMENTS, SMALL_COMMENTS } from './plan.ts'
import { seedKeys, seedThread } from './seed.ts'

const DAY = 86_400

export type DiscussionChain = Awaited<ReturnType<typeof prepareDiscussionChain>>

/** Ada's proposal titled `title`: open from three days ago (before every seeded comment) for ten days. */
async function signProposal(domain: GovernanceDomain, snapshot: number, title: string, now: number) {
  const start = now - 3 * DAY
  const message: ProposalMessage = {
    author: member(1).address,
    title,
    body: 'A proposal of `npm run bench -- discussion`, whose thread is seeded with signed comments.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start,
    end: start + 10 * DAY,
    snapshot,
    ...DEFAULT_GOVERNANCE_RULES,
    timestamp: start,
  }
  return signGovernanceMessage(member(1), domain, { type: 'Proposal', message })
}

export async function prepareDiscussionChain(log: (message: string) => void) {
  const chain = await startBenchChain()
  const domain = demoDomain(chain.deployment)
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await chain.client.getBlockNumber({ cacheTime: 0 })) - 1
  const large = await signProposal(domain, snapshot, 'Discussion bench: a long thread', now)
  const small = await signProposal(domain, snapshot, `Discussion bench: ${SMALL_COMMENTS} comments`, now)
  log(
    `discussion: signing ${COMMENTS.toLocaleString('en-US')} + ${SMALL_COMMENTS} comments with the members' keys`,
  )
  const started = performance.now()
  const keys = await signKeys(domain, keysFrom(now))
  const threads = {
    large: await signThread(domain, large.id, COMMENTS, keysFrom(now)),
    small: await signThread(domain, small.id, SMALL_COMMENTS, keysFrom(now)),
  }
  return {
    ...chain,
    domain,
    proposals: { large, small },
    keys,
    threads,
    signingSeconds: round1((performance.now() - started) / 1000),
  }
}

/** The deps the proposal path needs, its clock at `at` (Unix seconds). */
function governanceDeps(
  chain: DiscussionChain,
  database: GovernanceDeps['database'],
  tokenIndex: TokenIndex,
  at: number,
): GovernanceDeps {
  return {
    database,
    client: chain.client,
    tokenIndex,
    domain: chain.domain,
    rules: DEFAULT_GOVERNANCE_RULES,
    snapshotMaxAgeBlocks: DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
    categories: [],
    treasury: null,
    now: () => new Date(at * 1000),
    reads: new ProposalReads(),
    observer: silentObserver,
  }
}

/** Migrates `storage`, indexes the token, creates the proposals and seeds their threads; seconds of the seed. */
export async function prepareDatabase(
  chain: DiscussionChain,
  storage: Storage,
  log: (message: string) => void,
): Promise<number> {
  const database = await openDatabase(storage)
  try {
    await database.migrate()
    const tokenIndex = demoTokenIndex({ db: database.db, client: chain.client, deployment: chain.deployment })
    await tokenIndex.syncOnce()
    for (const proposal of [chain.proposals.large, chain.proposals.small])
      await createProposal(governanceDeps(chain, database, tokenIndex, proposal.message.timestamp), proposal)
    log(
      `discussion: seeding the threads (${COMMENTS.toLocaleString('en-US')} and ${SMALL_COMMENTS} comments)`,
    )
    const started = performance.now()
    await seedKeys(database, chain.keys)
    await seedThread(database, chain.keys, chain.threads.large)
    await seedThread(database, chain.keys, chain.threads.small)
    return round1((performance.now() - started) / 1000)
  } finally {
    await database.close()
  }
}
