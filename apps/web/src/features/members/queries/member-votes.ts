import { memberVoteListSchema } from '@guildhall/core'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { memberPageKeys, pageQuery } from './member-keys.ts'

/** GET /api/members/:address/votes: one page of the member's votes, newest first. */
const fetchMemberVotes = (address: string, cursor?: string) =>
  apiGet(`/api/members/${address}/votes?${pageQuery(cursor)}`, memberVoteListSchema)

const memberVotesQueryOptions = (address: string) =>
  infiniteQueryOptions({
    queryKey: memberPageKeys.list(address, 'votes'),
    queryFn: ({ pageParam }) => fetchMemberVotes(address, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

export function useMemberVotes(address: string) {
  return useInfiniteQuery(memberVotesQueryOptions(address))
}
