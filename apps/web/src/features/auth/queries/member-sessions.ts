import { sessionsResponseSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'

export const MEMBER_SESSIONS_QUERY_KEY = ['api', 'auth', 'sessions'] as const

/** GET /api/auth/sessions: every live session of the signed-in address (401 without a session). */
export const memberSessionsQueryOptions = () =>
  queryOptions({
    queryKey: MEMBER_SESSIONS_QUERY_KEY,
    queryFn: () => apiGet('/api/auth/sessions', sessionsResponseSchema),
    meta: { persist: false },
  })

export function useMemberSessions() {
  return useQuery(memberSessionsQueryOptions())
}
