import { type MemberListQuery, memberListSchema } from '@guildhall/core'
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'

/** What the directory shows: its order and search (the page cursor is the query's own). */
type MemberListFilter = Pick<MemberListQuery, 'sort' | 'q'> & { limit?: number }

const memberKeys = {
  all: ['api', 'members'] as const,
  list: (filter: MemberListFilter) => [...memberKeys.all, 'list', filter] as const,
}

/** GET /api/members: one page of the directory. */
const fetchMembers = (filter: MemberListFilter, cursor?: string) => {
  const query = new URLSearchParams({ sort: filter.sort })
  if (filter.q) query.set('q', filter.q)
  if (filter.limit) query.set('limit', String(filter.limit))
  if (cursor) query.set('cursor', cursor)
  return apiGet(`/api/members?${query}`, memberListSchema)
}

const membersQueryOptions = (filter: MemberListFilter) =>
  infiniteQueryOptions({
    queryKey: memberKeys.list(filter),
    queryFn: ({ pageParam }) => fetchMembers(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    // While a new order or search loads, the rows shown stay (dimmed) instead of a blank list.
    placeholderData: keepPreviousData,
  })

export function useMembers(filter: MemberListFilter) {
  return useInfiniteQuery(membersQueryOptions(filter))
}
