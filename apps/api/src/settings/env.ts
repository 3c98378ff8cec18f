// The server's settings, read from its environment once at start (README, Configuration). The variables
// and their checks are in variables.ts (with limits.ts, live.ts, name-service.ts, treasury.ts and
// moderation.ts); the chains and the public config the web app learns are built in chains.ts and
// public-config.ts.
import { type DiscussionPosters, formatIssues, LOCAL_CHAIN_ID, type PublicConfig } from '@guildhall/core'
import type { z } from 'zod'
import { type ChainSettings, chainProblems, chainSettings } from './chains.ts'
import { timeoutProblems } from './limits.ts'
import { type LiveSettings, liveSettings } from './live.ts'
import { type ModerationSettings, moderationSettings } from './moderation.ts'
import { publicConfigOf, walletConnectProblems } from './public-config.ts'
import { signatureThreads } from './signatures.ts'
import { type TreasurySettings, treasuryProblems, treasurySettings } from './treasury.ts'
import { envSchema } from './variables.ts'
import { type WebhookSettings, webhookSettings } from './webhooks.ts'

/** Off the local chain: about 2.5 minutes on Ethereum, far beyond its usual one- or two-block reorgs. */
const DEFAULT_INDEX_CONFIRMATIONS = 12

export interface Settings {
  port: number
  host: string
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL']
  webDist: string | undefined
  tokenDeployBlock: number
  tokenIndexConfirmations: number
  chains: ChainSettings[]
  publicConfig: PublicConfig
  database: { url: string | undefined; dataDir: string | undefined }
  authRateLimitPerMinute: number
  governanceRateLimitPerMinute: number
  exportRateLimitPerMinute: number
  powerRateLimitPerMinute: number
  /** Name look-ups (GET /api/names) each client may make per minute: each may queue lookups on the ENS RPC. */
  namesRateLimitPerMinute: number
  /** Names each client may resolve per minute (GET /api/names/resolve): each is a call on the ENS RPC. */
  nameResolveRateLimitPerMinute: number
  /** Fastify's trustProxy: false, or the proxies' addresses and ranges. */
  trustProxy: false | string[]
  snapshotMaxAgeBlocks: number
  /** Name and avatar lookups on Ethereum mainnet (ENS); null when ENS_RPC_URL is unset. */
  nameService: { rpcUrl: string; ipfsGateways: string[]; arweaveGateways: string[] } | null
  /** Bounds on how long a client may hold a connection (milliseconds). */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number }
  /** Passed proposals' Safe transactions (ADR 051): the objection delay and the expiry after it, in seconds. */
  execution: { delaySeconds: number; expirySeconds: number; rateLimitPerMinute: number }
  /** The DAO's treasury Safe and what its index follows; null without TREASURY_SAFE. */
  treasury: TreasurySettings | null
  /** Outgoing webhooks (ADR 055): the operator's targets and when "closing soon" is sent. */
  webhooks: WebhookSettings
  /** Threads and topics (ADR 053): a topic's categories, who may post, writes per client and minute. */
  discussion: { categories: string[]; posters: DiscussionPosters; rateLimitPerMinute: number }
  /** Moderators and the flags that hide a comment (ADR 054). */
  moderation: ModerationSettings
  /** Worker threads that check signatures (ADR 063). */
  signatureThreads: number
  /** Caps on open live streams, per client address and per instance (ADR 064). */
  live: LiveSettings
}

export class EnvError extends Error {
  override name = 'EnvError'
}

/** Parses the environment once at start; throws EnvError listing every invalid variable at once. */
export function parseEnv(env: Record<string, string | undefined>): Settings {
  const parsed = envSchema.safeParse(env)
  // Checks that depend on other variables still run when some variable is invalid, so the operator
  // sees every problem in one go.
  const chainIds = envSchema.shape.CHAIN_IDS.safeParse(env.CHAIN_IDS).data ?? []
  const problems = [
    ...(parsed.success ? [] : formatIssues(parsed.error).split('\n')),
    ...chainProblems(env, chainIds),
    ...timeoutProblems(env),
    ...walletConnectProblems(env),
    ...treasuryProblems(env),
  ]
  if (!parsed.success || problems.length > 0)
    throw new EnvError(`Invalid configuration:\n${problems.join('\n')}`)
  const e = parsed.data
  const origin = (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')
  const chains = chainSettings(env, e.CHAIN_IDS, origin)
  const publicConfig = publicConfigOf(e, chains, origin)
  if ('problems' in publicConfig) throw new EnvError(`Invalid configuration:\n${publicConfig.problems}`)

  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    tokenDeployBlock: e.TOKEN_DEPLOY_BLOCK,
    // anvil mines a block per transaction and never reorgs: confirmations would only delay the demo.
    tokenIndexConfirmations:
      e.TOKEN_INDEX_CONFIRMATIONS ?? (chains[0]?.id === LOCAL_CHAIN_ID ? 0 : DEFAULT_INDEX_CONFIRMATIONS),
    chains,
    publicConfig: publicConfig.config,
    database: { url: e.DATABASE_URL, dataDir: e.DATA_DIR },
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    governanceRateLimitPerMinute: e.GOVERNANCE_RATE_LIMIT_PER_MINUTE,
    exportRateLimitPerMinute: e.EXPORT_RATE_LIMIT_PER_MINUTE,
    powerRateLimitPerMinute: e.POWER_RATE_LIMIT_PER_MINUTE,
    namesRateLimitPerMinute: e.NAMES_RATE_LIMIT_PER_MINUTE,
    nameResolveRateLimitPerMinute: e.NAME_RESOLVE_RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    snapshotMaxAgeBlocks: e.SNAPSHOT_MAX_AGE_BLOCKS,
    nameService: e.ENS_RPC_URL
      ? { rpcUrl: e.ENS_RPC_URL, ipfsGateways: e.IPFS_GATEWAYS, arweaveGateways: e.ARWEAVE_GATEWAYS }
      : null,
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_MS,
      headersMs: e.HEADERS_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    execution: {
      delaySeconds: e.EXECUTION_DELAY_SECONDS,
      expirySeconds: e.EXECUTION_EXPIRY_SECONDS,
      rateLimitPerMinute: e.EXECUTION_RATE_LIMIT_PER_MINUTE,
    },
    treasury: treasurySettings(e),
    webhooks: webhookSettings(e),
    discussion: {
      categories: e.DISCUSSION_CATEGORIES,
      posters: e.DISCUSSION_POSTERS,
      rateLimitPerMinute: e.DISCUSSION_RATE_LIMIT_PER_MINUTE,
    },
    moderation: moderationSettings(e),
    signatureThreads: signatureThreads(e),
    live: liveSettings(e),
  }
}
