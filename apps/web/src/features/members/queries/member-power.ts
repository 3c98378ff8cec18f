import { powerHistorySchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { memberPageKeys } from './member-keys.ts'

/** GET /api/members/:address/power: the member's voting power over time, at most 200 points. */
const fetchPowerHistory = (address: string) => apiGet(`/api/members/${address}/power`, powerHistorySchema)

const powerHistoryQueryOptions = (address: string) =>
  queryOptions({
    queryKey: memberPageKeys.list(address, 'power'),
    queryFn: () => fetchPowerHistory(address),
  })

export function usePowerHistory(address: string) {
  return useQuery(powerHistoryQueryOptions(address))
}
