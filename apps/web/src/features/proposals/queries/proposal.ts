import { proposalDetailSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'
import { untilStateChange } from './live.ts'

/** How often an open proposal page asks again when it is not live (votes arrive, the state moves on). */
const PROPOSAL_REFETCH_MS = 10_000

/** GET /api/proposals/:id: the proposal, its tally and its votes. */
const fetchProposal = (id: string) => apiGet(`/api/proposals/${id}`, proposalDetailSchema)

export const proposalQueryOptions = (id: string) =>
  queryOptions({
    queryKey: proposalKeys.detail(id),
    queryFn: () => fetchProposal(id),
    // As fresh as the page's own refetch interval: the answer fetched before the page's first render
    // (prepareProposalPage) is not fetched again as the page mounts.
    staleTime: PROPOSAL_REFETCH_MS,
  })

/** `live`: the page's event stream is open (useLiveProposal); it asks again only when the state moves on. */
export function useProposal(id: string, live: boolean) {
  return useQuery({
    ...proposalQueryOptions(id),
    refetchInterval: ({ state: { data, dataUpdatedAt } }) =>
      live && data ? untilStateChange([data], data.now, dataUpdatedAt) : PROPOSAL_REFETCH_MS,
  })
}
