// The services' dependencies (database, chain clients, clock, policy), built once from the settings.
import { governanceDomain, HTTP_TIMEOUT_MS, rpcTransport } from '@guildhall/core'
import { signInStatement } from '@guildhall/core/siwe'
import type { FastifyBaseLogger } from 'fastify'
import { type Address, createPublicClient, type PublicClient } from 'viem'
import type { SignInDeps } from './auth/sign-in.ts'
import type { GovernanceDeps } from './governance/deps.ts'
import { ProposalReads } from './governance/proposal-reads.ts'
import { NameRefresher, nameLookupClient } from './names/name-refresher.ts'
import { NameProfiles } from './names/profiles.ts'
import type { Database } from './platform/db/client.ts'
import { Leadership } from './platform/jobs/leader.ts'
import type { Settings } from './settings/env.ts'
import { TokenIndex } from './token/token-index.ts'

const CONTRACT_CHECK_TIMEOUT_MS = 5_000

/** Sign-in's policy and chain clients. */
export function signInDeps(settings: Settings, database: Database, now: () => Date): SignInDeps {
  const origin = settings.publicConfig.appUrl
  // Short timeout: only contract-account sign-ins wait on the chain, and they get a 503 rather than hang.
  const clients = new Map(
    settings.chains.map((chain) => [
      chain.id,
      createPublicClient({
        transport: rpcTransport(chain.upstreamRpcUrl, { timeout: CONTRACT_CHECK_TIMEOUT_MS, retryCount: 1 }),
      }),
    ]),
  )
  return {
    db: database.db,
    now,
    policy: {
      domain: new URL(origin).host,
      origin,
      allowedChainIds: settings.chains.map((chain) => chain.id),
      statement: signInStatement(settings.publicConfig.dao.name),
    },
    clientFor: (chainId) => clients.get(chainId) as PublicClient | undefined,
  }
}

/**
 * The token index and the governance services over it, when a token is configured: the index
 * follows the token's events into the database in the background (on the leader, `leadership`) and answers
 * holders and voting power locally. Without a database there is nothing to keep it in.
 */
export function tokenDeps(
  settings: Settings,
  database: Database | undefined,
  now: () => Date,
  logger: FastifyBaseLogger,
): { tokenIndex: TokenIndex; governance: GovernanceDeps } | undefined {
  const { token, governance: rules } = settings.publicConfig
  const daoChain = settings.chains[0]
  if (!token || !daoChain || !database) return undefined
  const client = createPublicClient({
    transport: rpcTransport(daoChain.upstreamRpcUrl, { timeout: HTTP_TIMEOUT_MS }),
    batch: { multicall: true },
  }) as PublicClient
  const tokenIndex = new TokenIndex({
    db: database.db,
    client,
    chainId: daoChain.id,
    token: token.address as Address,
    fromBlock: settings.tokenDeployBlock,
    confirmations: settings.tokenIndexConfirmations,
    multicall3: daoChain.multicall3,
    logger,
  })
  return {
    tokenIndex,
    governance: {
      database,
      client,
      tokenIndex,
      domain: governanceDomain({ chainId: token.chainId, token: token.address }),
      rules,
      snapshotMaxAgeBlocks: settings.snapshotMaxAgeBlocks,
      now,
      reads: new ProposalReads(),
    },
  }
}

/**
 * Names and avatars: the table's answers for readers (every instance), and, with ENS_RPC_URL, the refresher
 * that resolves its queue (the leader's). Without a database there is nothing to keep them in.
 */
export function nameDeps(
  settings: Settings,
  database: Database | undefined,
  now: () => Date,
  logger: FastifyBaseLogger,
): { profiles: NameProfiles; refresher: NameRefresher | undefined } | undefined {
  if (!database) return undefined
  const { nameService } = settings
  const gateways = nameService && { ipfs: nameService.ipfsGateways, arweave: nameService.arweaveGateways }
  const refresher =
    nameService &&
    gateways &&
    new NameRefresher({
      db: database.db,
      client: nameLookupClient(nameService.rpcUrl),
      gateways,
      now,
      logger,
    })
  const profiles = new NameProfiles({ db: database.db, now, gateways, onQueued: () => refresher?.wake() })
  return { profiles, refresher: refresher ?? undefined }
}

/** The ENS client that resolves names to addresses on any instance, at a reader's request; none when names are off. */
export function nameResolutionClient(settings: Settings): PublicClient | undefined {
  return settings.nameService ? nameLookupClient(settings.nameService.rpcUrl) : undefined
}

/** What only the leader runs: started when this instance leads, stopped when it no longer does. */
type LeaderJob = { start(): void; stop(): Promise<void> }

/**
 * One instance runs the background jobs (the token index, the name refresher) when several share a
 * PostgreSQL database: the holder of the leader lock (ADR 022). On PGlite the one process leads.
 */
export function leaderJobs(
  database: Database | undefined,
  jobs: (LeaderJob | undefined)[],
  logger: FastifyBaseLogger,
): Leadership | undefined {
  const running = jobs.filter((job) => job !== undefined)
  if (!database || running.length === 0) return undefined
  return new Leadership({
    connect: database.postgres?.newClient,
    onLead: () => {
      for (const job of running) job.start()
    },
    onStandby: async () => {
      await Promise.all(running.map((job) => job.stop()))
    },
    logger,
  })
}
