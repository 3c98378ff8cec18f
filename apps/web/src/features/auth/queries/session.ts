import { type SessionResponse, sessionResponseSchema } from '@guildhall/core'
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import { ApiRequestError, apiGet } from '../../../lib/api.ts'
import { logoutPending, postLogout } from './logout.ts'

export const SESSION_QUERY_KEY = ['api', 'auth', 'session'] as const

/** GET /api/auth/session: who this browser is signed in as (never 401: `{ session: null }` instead). */
export async function fetchSession(): Promise<SessionResponse> {
  // A sign-out that failed offline is finished first, so the old cookie cannot sign us back in.
  if (logoutPending.get() && !(await postLogout())) return { session: null }
  return apiGet('/api/auth/session', sessionResponseSchema)
}

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: fetchSession,
    // The server is the only truth about a session: asked on every mount and focus, never persisted;
    // a server without sign-in (404) is not asked again until the page reloads.
    staleTime: 0,
    refetchOnWindowFocus: (query) => !isSignInUnavailable(query.state.error),
    refetchOnReconnect: (query) => !isSignInUnavailable(query.state.error),
    meta: { persist: false },
  })

export function useSession() {
  return useQuery(sessionQueryOptions())
}

/** A 404 from the session route means this server does not offer sign-in: connect-only, no adapter. */
export function isSignInUnavailable(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404
}

/** Marks this tab signed out at once, before the server has answered. */
export function setSignedOut(queryClient: QueryClient): void {
  queryClient.setQueryData<SessionResponse>(SESSION_QUERY_KEY, { session: null })
}
