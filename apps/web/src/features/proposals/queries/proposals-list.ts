import { type ProposalState, proposalListSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/** GET /api/proposals[?state=…]: the proposals, newest first. */
const fetchProposals = (state?: ProposalState) =>
  apiGet(`/api/proposals${state ? `?state=${state}` : ''}`, proposalListSchema)

const proposalsQueryOptions = (state?: ProposalState) =>
  queryOptions({
    queryKey: proposalKeys.list(state),
    queryFn: () => fetchProposals(state),
  })

export function useProposals(state?: ProposalState) {
  return useQuery(proposalsQueryOptions(state))
}
