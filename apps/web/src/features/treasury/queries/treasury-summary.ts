import { treasurySummarySchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { treasuryKeys } from './keys.ts'

/** GET /api/treasury: the Safe as it stands (owners, threshold, nonce, warnings) and the assets. */
const fetchTreasurySummary = () => apiGet('/api/treasury', treasurySummarySchema)

const treasurySummaryQueryOptions = () =>
  queryOptions({ queryKey: treasuryKeys.summary(), queryFn: fetchTreasurySummary })

export function useTreasurySummary() {
  return useQuery(treasurySummaryQueryOptions())
}
