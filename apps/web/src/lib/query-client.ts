import {
  QUERY_GC_TIME_MS,
  QUERY_NETWORK_MODE,
  QUERY_PERSIST_KEY,
  QUERY_RETRY,
  WALLET_ERROR_MESSAGES,
  walletErrorMessage,
} from '@guildhall/core'
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister'
import { MutationCache, QueryClient } from '@tanstack/react-query'
import { deserialize, serialize } from 'wagmi'
import { notify } from './notifications.ts'

/**
 * RainbowKit's chain modal closes silently when a switch fails; wagmi runs the switch as a mutation
 * keyed `switchChain`, so the cache sees every failure and the app shows it: a failed switch must never
 * pass unseen. A failed connect (keyed `connect`) shows RainbowKit's RETRY; when the wallet picked is not
 * there at all, the member is also told so, in the spec's words.
 */
function onMutationError(
  error: unknown,
  mutationKey: readonly unknown[] | undefined,
  variables: unknown,
): void {
  if (mutationKey?.[0] === 'switchChain') {
    const chainId = (variables as { chainId?: number } | undefined)?.chainId
    const message = walletErrorMessage(error, { action: 'switchChain', chainId })
    // Rejecting the prompt was the user's own choice; anything else, such as a wallet that added the
    // chain but stayed on the old one, needs telling.
    if (message !== WALLET_ERROR_MESSAGES.userRejected) notify(message)
  } else if (mutationKey?.[0] === 'connect') {
    const message = walletErrorMessage(error, { action: 'connect' })
    if (message === WALLET_ERROR_MESSAGES.connectorNotFound) notify(message)
  }
}

/** The app's QueryClient: one-day cache, no retries, offline-first (the required cache; docs/spec-coverage.md). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: QUERY_GC_TIME_MS, retry: QUERY_RETRY, networkMode: QUERY_NETWORK_MODE },
      mutations: { networkMode: QUERY_NETWORK_MODE },
    },
    mutationCache: new MutationCache({
      onError: (error, variables, _context, mutation) =>
        onMutationError(error, mutation.options.mutationKey, variables),
    }),
  })
}

/** Persists the query cache in localStorage under `cache`, bigint-safe through wagmi's serializer. */
export function createQueryPersister(storage: Storage | undefined = globalThis.localStorage) {
  return createSyncStoragePersister({ storage, key: QUERY_PERSIST_KEY, serialize, deserialize })
}
