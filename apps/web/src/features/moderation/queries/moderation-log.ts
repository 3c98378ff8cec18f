import { moderationActionListSchema } from '@guildhall/core'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'

/** How many actions the page asks at a time. */
const MODERATION_PAGE_ROWS = 25

const moderationKeys = { log: ['api', 'moderation'] as const }

/** GET /api/moderation: one page of the public moderation log, newest first. */
const fetchModerationLog = (cursor?: string) => {
  const query = new URLSearchParams({ limit: String(MODERATION_PAGE_ROWS) })
  if (cursor) query.set('cursor', cursor)
  return apiGet(`/api/moderation?${query}`, moderationActionListSchema)
}

const moderationLogQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: moderationKeys.log,
    queryFn: ({ pageParam }) => fetchModerationLog(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

export function useModerationLog() {
  return useInfiniteQuery(moderationLogQueryOptions())
}
