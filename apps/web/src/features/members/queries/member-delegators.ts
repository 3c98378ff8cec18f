import { memberDelegatorListSchema } from '@guildhall/core'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { memberPageKeys, pageQuery } from './member-keys.ts'

/** GET /api/members/:address/delegators: one page of who delegates to the member, most tokens first. */
const fetchMemberDelegators = (address: string, cursor?: string) =>
  apiGet(`/api/members/${address}/delegators?${pageQuery(cursor)}`, memberDelegatorListSchema)

const memberDelegatorsQueryOptions = (address: string) =>
  infiniteQueryOptions({
    queryKey: memberPageKeys.list(address, 'delegators'),
    queryFn: ({ pageParam }) => fetchMemberDelegators(address, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

export function useMemberDelegators(address: string) {
  return useInfiniteQuery(memberDelegatorsQueryOptions(address))
}
