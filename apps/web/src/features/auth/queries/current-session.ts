import { type SessionResponse, sessionResponseSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { logoutPending, postLogout } from './logout.ts'

export const CURRENT_SESSION_QUERY_KEY = ['api', 'auth', 'session'] as const

/** GET /api/auth/session: who this browser is signed in as (never 401: `{ session: null }` instead). */
export async function fetchCurrentSession(): Promise<SessionResponse> {
  // A sign-out that failed offline is finished first, so the old cookie cannot sign us back in.
  if (logoutPending.get() && !(await postLogout())) return { session: null }
  return apiGet('/api/auth/session', sessionResponseSchema)
}

export const currentSessionQueryOptions = () =>
  queryOptions({
    queryKey: CURRENT_SESSION_QUERY_KEY,
    queryFn: fetchCurrentSession,
    // The server is the only truth about a session: asked on every mount, focus and reconnect, never
    // persisted.
    staleTime: 0,
    meta: { persist: false },
  })

export function useCurrentSession() {
  return useQuery(currentSessionQueryOptions())
}
