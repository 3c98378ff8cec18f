import { resolvedNameSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from './api.ts'

/** How long an answer stands: the member confirms the address shown, so it may be a little old, not more. */
const RESOLVED_NAME_STALE_MS = 30_000

/** GET /api/names/resolve?name=: the normalised name and its address; the server's sentence otherwise. */
export const fetchResolvedName = (name: string) =>
  apiGet(`/api/names/resolve?name=${encodeURIComponent(name)}`, resolvedNameSchema)

const resolvedNameQueryOptions = (name: string) =>
  queryOptions({
    queryKey: ['api', 'names', 'resolve', name] as const,
    queryFn: () => fetchResolvedName(name),
    staleTime: RESOLVED_NAME_STALE_MS,
    gcTime: RESOLVED_NAME_STALE_MS,
    // A transaction goes to the answer: never one kept in localStorage from an earlier visit.
    meta: { persist: false },
  })

/** The address `name` resolves to; nothing is asked while `name` is undefined. */
export function useResolvedName(name: string | undefined) {
  return useQuery({ ...resolvedNameQueryOptions(name ?? ''), enabled: name !== undefined })
}
