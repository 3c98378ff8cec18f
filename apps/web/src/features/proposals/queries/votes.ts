import { type VoteListQuery, voteListSchema } from '@guildhall/core'
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import type { Address } from 'viem'
import { apiGet } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/** What the votes list shows: its order and filters (the page cursor is the query's own). */
export type VoteListFilter = Pick<VoteListQuery, 'order' | 'choice' | 'voter'>

/** GET /api/proposals/:id/votes: one page of a proposal's counting votes. */
const fetchVotes = (id: string, filter: VoteListFilter, cursor?: string, limit?: number) => {
  const query = new URLSearchParams({ order: filter.order })
  if (filter.choice !== undefined) query.set('choice', String(filter.choice))
  if (filter.voter) query.set('voter', filter.voter)
  if (cursor) query.set('cursor', cursor)
  if (limit) query.set('limit', String(limit))
  return apiGet(`/api/proposals/${id}/votes?${query}`, voteListSchema)
}

const votesQueryOptions = (id: string, filter: VoteListFilter) =>
  infiniteQueryOptions({
    queryKey: proposalKeys.votes(id, filter),
    queryFn: ({ pageParam }) => fetchVotes(id, filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

export function useVotes(id: string, filter: VoteListFilter) {
  return useInfiniteQuery(votesQueryOptions(id, filter))
}

/** The account's counting vote on the proposal, if any: the votes list searched by its whole address. */
const myVoteQueryOptions = (id: string, address: Address | undefined) =>
  queryOptions({
    queryKey: proposalKeys.myVote(id, address),
    queryFn: async () =>
      (await fetchVotes(id, { order: 'time', voter: address }, undefined, 1)).votes[0] ?? null,
    enabled: Boolean(address),
  })

export function useMyVote(id: string, address: Address | undefined) {
  return useQuery(myVoteQueryOptions(id, address))
}
