import { treasuryHistoryPageSchema } from '@guildhall/core'
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { historyQuery, type TreasuryHistoryList, treasuryKeys } from './keys.ts'

/** GET /api/treasury/history: one page of the treasury's history under a filter, newest first. */
const fetchTreasuryHistory = ({ limit, ...filter }: TreasuryHistoryList, cursor?: string) => {
  const query = historyQuery(filter)
  if (limit) query.set('limit', String(limit))
  if (cursor) query.set('cursor', cursor)
  return apiGet(`/api/treasury/history?${query}`, treasuryHistoryPageSchema)
}

const treasuryHistoryQueryOptions = (filter: TreasuryHistoryList) =>
  infiniteQueryOptions({
    queryKey: treasuryKeys.history(filter),
    queryFn: ({ pageParam }) => fetchTreasuryHistory(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    // While another filter loads, the rows shown stay (dimmed) instead of a blank list.
    placeholderData: keepPreviousData,
  })

export function useTreasuryHistory(filter: TreasuryHistoryList) {
  return useInfiniteQuery(treasuryHistoryQueryOptions(filter))
}
