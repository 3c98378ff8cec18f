import { treasuryChartsSchema } from '@guildhall/core'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { treasuryKeys } from './keys.ts'

/** GET /api/treasury/charts?token=: a token's daily balance and money in/out per month. */
const fetchTreasuryCharts = (token: string) =>
  apiGet(`/api/treasury/charts?${new URLSearchParams({ token })}`, treasuryChartsSchema)

const treasuryChartsQueryOptions = (token: string) =>
  queryOptions({
    queryKey: treasuryKeys.charts(token),
    queryFn: () => fetchTreasuryCharts(token),
    placeholderData: keepPreviousData,
  })

export function useTreasuryCharts(token: string) {
  return useQuery(treasuryChartsQueryOptions(token))
}
