/** Constants of the wallet-connection experience, as the requirements fix them (docs/spec-coverage.md). */

/** Chain polling interval; viem would otherwise derive it from block time (1 s on fast L2s). */
export const POLLING_INTERVAL_MS = 4_000
/** JSON-RPC over HTTP gives up after this long. */
export const HTTP_TIMEOUT_MS = 10_000
/** Reads batched into one multicall, at most this many calls each. */
export const MULTICALL_BATCH_SIZE = 1_024
/** Receipt polling: retries, and the first delay, which doubles on each retry. */
export const RECEIPT_RETRY_COUNT = 6
export const RECEIPT_RETRY_BASE_DELAY_MS = 200
/** Confirmations before a transaction counts as confirmed. */
export const DEFAULT_CONFIRMATIONS = 1

/** Delay before receipt retry number `count` (0-based): 200, 400, 800 … ms. */
export function receiptRetryDelay({ count }: { count: number }): number {
  return RECEIPT_RETRY_BASE_DELAY_MS * 2 ** count
}

/** TanStack Query cache: one day, no retries, offline-first, persisted under this key. */
export const QUERY_GC_TIME_MS = 24 * 60 * 60 * 1_000
export const QUERY_RETRY = 0
export const QUERY_NETWORK_MODE = 'offlineFirst'
export const QUERY_PERSIST_KEY = 'cache'

/** Shortening rules of the account button and lists. */
export const ADDRESS_SHORTEN_MIN_LENGTH = 8
export const ADDRESS_SHORTEN_KEEP = 4
export const NAME_MAX_LENGTH = 24

/** The required wallet group's name, and the order of its wallets. */
export const WALLET_GROUP_NAME = 'Popular'
export const POPULAR_WALLET_IDS = [
  'injected',
  'safe',
  'rainbow',
  'coinbase',
  'metaMask',
  'walletConnect',
  'brave',
] as const
export type WalletId = (typeof POPULAR_WALLET_IDS)[number]
/** Wallets whose connector is built on WalletConnect and so needs a project id. */
export const WALLET_CONNECT_WALLET_IDS: readonly WalletId[] = ['rainbow', 'metaMask', 'walletConnect']

/** Chain id of the local development chain (anvil's default). */
export const LOCAL_CHAIN_ID = 31_337

/** Multicall3's address, the same on every chain it is deployed to (the demo chain included). */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11'
