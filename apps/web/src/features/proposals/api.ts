import {
  castVoteSchema,
  createdProposalSchema,
  type ProposalState,
  proposalDetailSchema,
  proposalListSchema,
  type SignedProposal,
  type SignedVote,
  votingPowerSchema,
} from '@guildhall/core'
import { queryOptions } from '@tanstack/react-query'
import type { Address } from 'viem'
import { apiGet, apiSend } from '../../lib/api.ts'

export const proposalsQuery = (state?: ProposalState) =>
  queryOptions({
    queryKey: ['api', 'proposals', state ?? 'all'],
    queryFn: () => apiGet(`/api/proposals${state ? `?state=${state}` : ''}`, proposalListSchema),
  })

export const proposalQuery = (id: string) =>
  queryOptions({
    queryKey: ['api', 'proposals', 'detail', id],
    queryFn: () => apiGet(`/api/proposals/${id}`, proposalDetailSchema),
    // As fresh as the page's own refetch interval: the answer fetched before the page's first render
    // (prepareProposalPage) is not fetched again as the page mounts.
    staleTime: 10_000,
  })

export const votingPowerQuery = (id: string, address: Address | undefined) =>
  queryOptions({
    queryKey: ['api', 'proposals', 'power', id, address],
    queryFn: () => apiGet(`/api/proposals/${id}/power/${address}`, votingPowerSchema),
    enabled: Boolean(address),
  })

export const submitProposal = (signed: SignedProposal) =>
  apiSend('POST', '/api/proposals', signed, createdProposalSchema)
export const submitVote = (id: string, signed: SignedVote) =>
  apiSend('POST', `/api/proposals/${id}/votes`, signed, castVoteSchema)
