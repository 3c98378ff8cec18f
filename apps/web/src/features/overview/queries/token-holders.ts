import { holderStatsSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'

/** GET /api/token/holders: how many addresses hold the governance token. */
const tokenHoldersQueryOptions = () =>
  queryOptions({
    queryKey: ['api', 'token', 'holders'],
    queryFn: () => apiGet('/api/token/holders', holderStatsSchema),
  })

export function useTokenHolders() {
  return useQuery(tokenHoldersQueryOptions())
}
