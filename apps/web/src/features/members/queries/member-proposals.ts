import { memberProposalListSchema } from '@guildhall/core'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { memberPageKeys, pageQuery } from './member-keys.ts'

/** GET /api/members/:address/proposals: one page of the proposals the member wrote, latest start first. */
const fetchMemberProposals = (address: string, cursor?: string) =>
  apiGet(`/api/members/${address}/proposals?${pageQuery(cursor)}`, memberProposalListSchema)

const memberProposalsQueryOptions = (address: string) =>
  infiniteQueryOptions({
    queryKey: memberPageKeys.list(address, 'proposals'),
    queryFn: ({ pageParam }) => fetchMemberProposals(address, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

export function useMemberProposals(address: string) {
  return useInfiniteQuery(memberProposalsQueryOptions(address))
}
