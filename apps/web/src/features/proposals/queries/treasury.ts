import { treasurySummarySchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'

/** GET /api/treasury: the DAO's Safe (address, owners, threshold, version) and the tokens it holds. */
const fetchTreasury = () => apiGet('/api/treasury', treasurySummarySchema)

const treasuryQueryOptions = () =>
  queryOptions({
    queryKey: ['api', 'treasury', 'summary'] as const,
    queryFn: fetchTreasury,
    // Owners and threshold change rarely; a minute keeps the form and the panel from asking on each render.
    staleTime: 60_000,
  })

/** The DAO's treasury Safe as the proposal pages need it: where actions go, and who signs. */
export function useTreasury() {
  return useQuery(treasuryQueryOptions())
}
