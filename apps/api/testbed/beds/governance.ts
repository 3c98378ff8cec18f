// The setup the governance route tests share (proposal-routes, proposal-actions, vote-routes, vote-batches,
// tallies-and-pages, results-and-recount, recount-kinds, voting-kinds, abuse-bounds): the demo DAO on a real
// chain (anvil) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh), with contract
// voters, and the app on them, or the governance area alone. A test file calls useGovernanceBed() once at its
// top; the bindings below are live (ES modules), set by its beforeAll.
import { LOCAL_CHAIN_ID, type ProposalMessage } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { deploySafes, type SafeDeployment } from '@guildhall/devchain/safe'
import { count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  type PrivateKeyAccount,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, onTestFinished } from 'vitest'
import { governanceArea } from '../../src/governance/area.ts'
import type { GovernanceDeps } from '../../src/governance/deps.ts'
import { type ballots, type governanceLog, type proposals, votes } from '../../src/platform/db/schema.ts'
import type { TestDatabase } from '../../src/platform/db/test-database.ts'
import { type Observer, silentObserver } from '../../src/platform/observer.ts'
import { signaturePool } from '../../src/platform/signatures/pool.ts'
import { tokenArea } from '../../src/token/area.ts'
import { delegate } from '../demo-token.ts'
import {
  demoDomain,
  proposalMessage as demoProposal,
  member,
  signProposal,
  signVote,
  type VoteFields,
} from '../signers.ts'
import { postJson, startTestbed, stopTestbed, testApp, testSettings } from '../test-app.ts'

// The demo DAO (packages/devchain/src/demo-dao.ts): Ada votes with her and Dev's tokens, Ben with his and
// Eve's, Dev delegated to Ada, Finn never delegated, Iris holds nothing.
export const ada = member(1)
export const ben = member(2)
export const cleo = member(3)
export const dev = member(4)
export const finn = member(6)
export const iris = member(9)
export const stranger = privateKeyToAccount(
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
)

export let anvil: AnvilInstance
export let deployment: DemoDeployment
export let database: TestDatabase
export let app: FastifyInstance
export let snapshot: number
export let domain: ReturnType<typeof demoDomain>
export let safes: SafeDeployment

/** Moves the snapshot the file's proposals are signed at (a test that mined past the snapshot bound). */
export function setSnapshot(block: number) {
  snapshot = block
}

/** Anvil account `index` delegates its votes to `to`, mined. */
const delegateFrom = (index: number, to: Address) =>
  delegate(
    { client: createPublicClient({ transport: http(anvil.url) }), url: anvil.url, token: deployment.token },
    index,
    to,
  )

export const post = (url: string, body: unknown) => postJson(app, url, body)

/** A proposal by `author` at this file's snapshot (signers.ts's defaults); `overrides` change any field. */
export const proposalMessage = (author: PrivateKeyAccount, overrides: Partial<ProposalMessage> = {}) =>
  demoProposal(author, { snapshot, ...overrides })

/** Signs and posts a proposal by `author`: the answer, the message and its id. */
export async function createProposal(author: PrivateKeyAccount, overrides: Partial<ProposalMessage> = {}) {
  const { message, signature, id } = await signProposal(author, domain, { snapshot, ...overrides })
  const response = await post('/api/proposals', { message, signature })
  return { response, message, id }
}

/** A vote by `voter` on `proposal`, signed under `signingDomain` (the DAO's unless a test forges one). */
export const signedVote = (
  voter: PrivateKeyAccount,
  proposal: Hex,
  overrides: VoteFields = {},
  signingDomain = domain,
) => signVote(voter, signingDomain, { proposal, ...overrides })

/** The request body of a signed vote: exactly the message and the signature. */
export const postVote = (url: string, { message, signature }: { message: unknown; signature: Hex }) =>
  post(url, { message, signature })

export const rowsOf = async (
  table: typeof votes | typeof proposals | typeof governanceLog | typeof ballots,
) => (await database.db.select({ n: count() }).from(table))[0]?.n ?? 0
export const votesOn = async (proposal: Hex) =>
  (await database.db.select({ n: count() }).from(votes).where(eq(votes.proposalId, proposal)))[0]?.n ?? 0

/**
 * An app on `rpcUrl` sharing this file's database; `env` adds to the governance test settings. These tests
 * send hundreds of messages from one address, and on PostgreSQL every app on the database counts them
 * together (as instances behind a load balancer do): the limits are high but for their own test,
 * which sends from addresses of its own.
 */
export const appOn = (rpcUrl: string, env: Record<string, string> = {}, now?: () => Date) =>
  testApp(
    { anvil, deployment, database },
    {
      rpcUrl,
      env: {
        SIGN_IN: 'off',
        EXPORT_RATE_LIMIT_PER_MINUTE: '100000',
        POWER_RATE_LIMIT_PER_MINUTE: '100000',
        ...env,
      },
      ...(now ? { now } : {}),
    },
  )

/**
 * The governance area on this file's chain and database without an app, for a test that calls its services
 * directly; its signature pool (one thread) closes when the test ends, and `observer` hears what it reports.
 */
export function governanceDeps(observer: Observer = silentObserver): GovernanceDeps {
  const settings = testSettings({ rpcUrl: anvil.url, deployment, env: { SIGN_IN: 'off' } })
  const signatures = signaturePool({ threads: 1, observer, logger: app.log })
  onTestFinished(() => signatures.close())
  const context = { settings, database, now: () => new Date(), logger: app.log, observer, signatures }
  const area = governanceArea(context, tokenArea(context))
  if (!area) throw new Error('no governance area')
  return area.deps
}

/** Starts the bed before the file's tests and stops it after them. */
export function useGovernanceBed() {
  beforeAll(async () => {
    ;({ anvil, deployment, database } = await startTestbed())
    // Contract voters: Gia and Hugo delegate their votes to the demo Safes (1-of-1 Ada; 2-of-3 Ada, Ben,
    // Cleo), which so hold voting power without holding tokens.
    safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    await delegateFrom(7, safes.oneOfOne.address)
    await delegateFrom(8, safes.twoOfThree.address)
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
    snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
    domain = demoDomain(deployment)
    app = await appOn(anvil.url)
  }, 60_000)
  afterAll(() => stopTestbed({ anvil, database }, app))
}
