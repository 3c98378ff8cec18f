import { isIP } from 'node:net'
import {
  DEFAULT_GOVERNANCE_RULES,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  formatIssues,
  hexColorSchema,
  LOCAL_CHAIN_ID,
  MISSING_PROJECT_ID_MESSAGE,
  POPULAR_WALLET_IDS,
  type PublicChain,
  type PublicConfig,
  publicConfigSchema,
  SPEC_LIBRARY_MESSAGES,
  tokenAmountSchema,
  WALLET_CONNECT_WALLET_IDS,
} from '@guildhall/core'
import { isAddress } from 'viem'
import { mainnet, sepolia } from 'viem/chains'
import { z } from 'zod'
import { type KnownChain, knownChains, PUBLIC_RPC_CHAIN_IDS } from './known-chains.ts'

/** An IP address or CIDR range, or one of the named ranges Fastify's trustProxy knows. */
const isProxyRange = (range: string) => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(range)) return true
  const [address = '', prefix, ...rest] = range.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^[0-9]+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

const csv = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
/** Gateway base URLs, `,`-separated, without their trailing slash. */
const gatewayUrls = z
  .string()
  .default('')
  .transform(csv)
  .pipe(z.array(httpUrl.transform((url) => url.replace(/\/+$/, ''))))

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_ORIGIN: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  DAO_NAME: z.string().min(1).max(64).default('Guildhall DAO'),
  DAO_DESCRIPTION: z.string().max(500).default(''),
  CHAIN_IDS: z
    .string()
    .default(`${mainnet.id},${sepolia.id}`)
    .transform(csv)
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^[1-9][0-9]*$/, 'must be a positive chain id')
            .transform(Number),
        )
        .min(1, 'No chains found on connector.'),
    ),
  TOKEN_ADDRESS: z
    .string()
    .refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address')
    .optional(),
  TOKEN_DEPLOY_BLOCK: z.coerce.number().int().min(0).default(0),
  /**
   * Governance rules in token base units (e.g. wei); frozen into each proposal when it is created. Core's
   * schemas are zod/mini, without methods: wrapped with functions, which classic zod has too.
   */
  QUORUM: z._default(tokenAmountSchema, DEFAULT_GOVERNANCE_RULES.quorum),
  PROPOSAL_THRESHOLD: z._default(tokenAmountSchema, DEFAULT_GOVERNANCE_RULES.threshold),
  ABSTAIN_COUNTS_TO_QUORUM: z.enum(['on', 'off']).default('on'),
  /** Blocks below the head the token index treats as final; default 0 on the local chain, else 12. */
  TOKEN_INDEX_CONFIRMATIONS: z.coerce.number().int().min(0).max(10_000).optional(),
  WALLETS: z
    .string()
    .default(POPULAR_WALLET_IDS.join(','))
    .transform(csv)
    .pipe(z.array(z.enum(POPULAR_WALLET_IDS)).min(1)),
  WALLETCONNECT_PROJECT_ID: z.string().min(1).optional(),
  LEARN_MORE_URL: z.url().optional(),
  DISCLAIMER: z.string().max(500).optional(),
  ACCENT_COLOR: z.optional(hexColorSchema),
  /** Ethereum mainnet JSON-RPC for name and avatar lookups (ENS, ADR 026); unset: none, addresses only. */
  ENS_RPC_URL: httpUrl.optional(),
  /** Gateways that serve avatar images by IPFS content id (`<gateway>/ipfs/<cid>`) and by Arweave id. */
  IPFS_GATEWAYS: gatewayUrls,
  ARWEAVE_GATEWAYS: gatewayUrls,
  /** anvil accounts offered as the development wallet, `address[:label],…` (set by the local demo only). */
  DEV_WALLET_ACCOUNTS: z.string().optional(),
  /** Sign-In with Ethereum after connecting; `off` is connect-only mode. */
  SIGN_IN: z.enum(['on', 'off']).default('on'),
  /** PostgreSQL; when unset the embedded PGlite database lives in DATA_DIR (in memory without one). */
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).optional(),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Proposals, and votes, one client (IP) may submit per minute; each costs a signature check (~4 ms).
   * Well above one member's pace: behind a carrier's NAT many phones share one address. */
  GOVERNANCE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Result bundles, and log pages, one client (IP) may fetch per minute. */
  EXPORT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Voting-power look-ups one client (IP) may make per minute; above the indexed block each asks the chain. */
  POWER_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Name look-ups (GET /api/names, up to 100 addresses) one client (IP) may make per minute. */
  NAMES_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** Names one client (IP) may resolve to addresses per minute (GET /api/names/resolve): each is an ENS RPC call. */
  NAME_RESOLVE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /**
   * Behind a load balancer: the proxies whose X-Forwarded-For names the client (rate limits, logs), as IP
   * addresses and CIDR ranges; `off`: the peer is the client.
   */
  TRUST_PROXY: z
    .string()
    .default('off')
    .transform((value, context) => {
      if (value.trim() === 'off') return false
      const ranges = csv(value)
      if (ranges.length > 0 && ranges.every(isProxyRange)) return ranges
      context.addIssue({
        code: 'custom',
        message: 'must be off, or IP addresses and CIDR ranges of the proxies, separated by commas',
      })
      return z.NEVER
    }),
  /** A new proposal's snapshot must be one of this many blocks before the chain's head (ADR 015). */
  SNAPSHOT_MAX_AGE_BLOCKS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS),
  /** Longest a request may take to arrive in full (headers and body); a slower one gets 408. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** Longest a request's headers may take to arrive; at most REQUEST_TIMEOUT_MS. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** How long an idle keep-alive connection stays open; behind a proxy, above the proxy's own. */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
})

export type ChainSettings = PublicChain & { upstreamRpcUrl: string; proxied: boolean }

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
}

export class EnvError extends Error {
  override name = 'EnvError'
}

/** JSON-RPC over HTTP, or over a WebSocket (ADR 027). */
const isRpcUrl = (value: string) => {
  try {
    return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)

/** The local development chain is Guildhall's own: viem's anvil, Foundry and Hardhat all claim its id. */
const LOCAL_CHAIN: KnownChain = {
  name: 'Local chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  blockExplorerUrl: null,
  multicall3: null,
  testnet: true,
  publicRpcUrl: '',
}

/**
 * What Guildhall knows of chain `id` without CHAIN_NAME_<id>: viem's definition, the one whose name
 * `name` is when viem has several for the id, or a problem to report.
 */
function knownChain(id: number, name: string | undefined): KnownChain | string | undefined {
  if (id === LOCAL_CHAIN_ID) return LOCAL_CHAIN
  const candidates = knownChains(id)
  if (candidates.length <= 1) return candidates[0]
  const named = candidates.find((chain) => chain.name.toLowerCase() === name?.trim().toLowerCase())
  return (
    named ??
    `chain ${id} is more than one chain Guildhall knows (${candidates.map((chain) => chain.name).join(', ')}); set it to the name of the one you mean`
  )
}

/** Problems with the per-chain variables (`RPC_URL_<id>`, `CHAIN_NAME_<id>`) of the given chains. */
function chainProblems(env: Record<string, string | undefined>, chainIds: number[]): string[] {
  return chainIds.flatMap((id) => {
    const known = knownChain(id, env[`CHAIN_NAME_${id}`])
    const problems: string[] = []
    const rpcUrl = rpcUrlOf(env, id, known)
    if (!rpcUrl) {
      const which =
        typeof known === 'object'
          ? ` (${known.name}; a public RPC is used only for Ethereum and Sepolia)`
          : ''
      // The spec's words for a transport without a URL, as the operator meets it: before anyone connects.
      problems.push(
        `- RPC_URL_${id}: ${SPEC_LIBRARY_MESSAGES.noTransportUrl} Required for chain ${id}${which}`,
      )
    } else if (!isRpcUrl(rpcUrl)) problems.push(`- RPC_URL_${id}: must be an http(s) or ws(s) URL`)
    const multicall3 = env[`MULTICALL3_ADDRESS_${id}`]
    if (multicall3 !== undefined && !isAddress(multicall3, { strict: false })) {
      problems.push(`- MULTICALL3_ADDRESS_${id}: must be a 0x-prefixed 20-byte address`)
    }
    if (typeof known === 'string') problems.push(`- CHAIN_NAME_${id}: ${known}`)
    else if (!(env[`CHAIN_NAME_${id}`] ?? known?.name)) {
      problems.push(`- CHAIN_NAME_${id}: required for chain ${id} (not a chain Guildhall knows by id)`)
    }
    return problems
  })
}

/** The RPC of chain `id`: RPC_URL_<id>, else viem's public RPC for the spec's default chains only. */
function rpcUrlOf(
  env: Record<string, string | undefined>,
  id: number,
  known: KnownChain | string | undefined,
) {
  const configured = env[`RPC_URL_${id}`]
  if (configured !== undefined) return configured
  return PUBLIC_RPC_CHAIN_IDS.has(id) && typeof known === 'object' ? known.publicRpcUrl : undefined
}

/** Parses the environment once at start; throws EnvError listing every invalid variable at once. */
export function parseEnv(env: Record<string, string | undefined>): Settings {
  const parsed = envSchema.safeParse(env)
  // Checks that depend on other variables still run when some variable is invalid, so the operator
  // sees every problem in one go.
  const field = <K extends keyof typeof envSchema.shape>(key: K) =>
    envSchema.shape[key].safeParse(env[key]).data as z.infer<(typeof envSchema.shape)[K]> | undefined
  const chainIds = field('CHAIN_IDS') ?? []
  const wallets = field('WALLETS') ?? []
  const problems = [
    ...(parsed.success ? [] : formatIssues(parsed.error).split('\n')),
    ...chainProblems(env, chainIds),
  ]
  const requestTimeout = field('REQUEST_TIMEOUT_MS')
  const headersTimeout = field('HEADERS_TIMEOUT_MS')
  // Node refuses a headers timeout longer than the whole request's.
  if (requestTimeout !== undefined && headersTimeout !== undefined && headersTimeout > requestTimeout) {
    problems.push('- HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS')
  }
  if (wallets.some((id) => WALLET_CONNECT_WALLET_IDS.includes(id)) && !env.WALLETCONNECT_PROJECT_ID) {
    problems.push(`- WALLETCONNECT_PROJECT_ID: ${MISSING_PROJECT_ID_MESSAGE}`)
  }
  if (!parsed.success || problems.length > 0)
    throw new EnvError(`Invalid configuration:\n${problems.join('\n')}`)
  const e = parsed.data
  const origin = (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')

  const chains: ChainSettings[] = e.CHAIN_IDS.map((id) => {
    const name = env[`CHAIN_NAME_${id}`]
    // chainProblems has refused an ambiguous id without a name that picks one of its chains.
    const known = knownChain(id, name) as KnownChain | undefined
    const upstream = rpcUrlOf(env, id, known) as string
    // Local nodes are reached through the app's own /rpc/<id> so the browser needs one origin only.
    const proxied = isLoopback(upstream)
    return {
      id,
      name: (name ?? known?.name) as string,
      upstreamRpcUrl: upstream,
      rpcUrl: proxied ? `${origin}/rpc/${id}` : upstream,
      proxied,
      nativeCurrency: known?.nativeCurrency ?? { name: 'Ether', symbol: 'ETH', decimals: 18 },
      blockExplorerUrl: known?.blockExplorerUrl ?? null,
      multicall3: (env[`MULTICALL3_ADDRESS_${id}`] ?? known?.multicall3 ?? null) as `0x${string}` | null,
      testnet: known?.testnet ?? false,
    }
  })

  const daoChain = chains[0] as ChainSettings
  const devWalletAccounts = csv(e.DEV_WALLET_ACCOUNTS ?? '').map((entry) => {
    const [address = '', label] = entry.split(':')
    return { address, label: label?.trim() || null }
  })
  // The development wallet holds anvil's public keys: never offer it against a real network.
  const devWallet = devWalletAccounts.length > 0 && daoChain.id === LOCAL_CHAIN_ID && daoChain.proxied
  const publicConfig = publicConfigSchema.safeParse({
    dao: { name: e.DAO_NAME, description: e.DAO_DESCRIPTION },
    appUrl: origin,
    chains: chains.map(({ upstreamRpcUrl: _u, proxied: _p, ...chain }) => chain),
    token: e.TOKEN_ADDRESS ? { address: e.TOKEN_ADDRESS, chainId: daoChain.id } : null,
    governance: {
      quorum: e.QUORUM,
      threshold: e.PROPOSAL_THRESHOLD,
      abstainCountsToQuorum: e.ABSTAIN_COUNTS_TO_QUORUM === 'on',
    },
    wallets: e.WALLETS,
    walletConnectProjectId: e.WALLETCONNECT_PROJECT_ID ?? null,
    learnMoreUrl: e.LEARN_MORE_URL,
    disclaimer: e.DISCLAIMER ?? null,
    accentColor: e.ACCENT_COLOR,
    signIn: e.SIGN_IN === 'on',
    devWallet: devWallet ? { accounts: devWalletAccounts } : null,
  })
  if (!publicConfig.success) {
    // Everything else was checked above; what is left are the development wallet's addresses.
    const lines = formatIssues(publicConfig.error).replace(
      /devWallet\.accounts\.(\d+)\.address/g,
      'DEV_WALLET_ACCOUNTS (entry $1)',
    )
    throw new EnvError(`Invalid configuration:\n${lines}`)
  }

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
    publicConfig: publicConfig.data,
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
  }
}
