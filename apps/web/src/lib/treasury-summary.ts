// The DAO's treasury Safe as the server reads it, for every feature that needs it (the proposal form's
// tokens and guards, the execution panel's Safe; the Treasury page): one query, one key.
import { treasurySummarySchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from './api.ts'

/** GET /api/treasury: the Safe as it stands (address, owners, threshold, version, warnings) and the assets. */
const fetchTreasurySummary = () => apiGet('/api/treasury', treasurySummarySchema)

const treasurySummaryQueryOptions = () =>
  queryOptions({
    queryKey: ['api', 'treasury', 'summary'] as const,
    queryFn: fetchTreasurySummary,
    // Owners and threshold change rarely; a minute keeps the form and the panel from asking on each render.
    staleTime: 60_000,
  })

export function useTreasurySummary() {
  return useQuery(treasurySummaryQueryOptions())
}
