import { type ProposalState, proposalListSchema } from '@guildhall/core'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'
import { untilStateChange } from './live.ts'

/** GET /api/proposals?state=…&cursor=…: one page of proposals in any of `states` (all when empty), newest first. */
const fetchProposals = (states: readonly ProposalState[], cursor: string | undefined) => {
  const query = new URLSearchParams()
  if (states.length > 0) query.set('state', states.join(','))
  if (cursor) query.set('cursor', cursor)
  return apiGet(`/api/proposals?${query}`, proposalListSchema)
}

const proposalsQueryOptions = (states: readonly ProposalState[]) =>
  infiniteQueryOptions({
    queryKey: proposalKeys.list(states),
    queryFn: ({ pageParam }) => fetchProposals(states, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

/** Asks again when a shown proposal changes state; new proposals come from useLiveProposals. */
export function useProposals(states: readonly ProposalState[]) {
  return useInfiniteQuery({
    ...proposalsQueryOptions(states),
    refetchInterval: ({ state: { data, dataUpdatedAt } }) =>
      data?.pages[0]
        ? untilStateChange(
            data.pages.flatMap((page) => page.proposals),
            data.pages[0].now,
            dataUpdatedAt,
          )
        : false,
  })
}
