import type { SessionResponse } from '@guildhall/core'
import type { QueryClient } from '@tanstack/react-query'
import { CURRENT_SESSION_QUERY_KEY } from './queries/current-session.ts'
import { postLogout } from './queries/logout.ts'
import { MEMBER_SESSIONS_QUERY_KEY } from './queries/member-sessions.ts'
import { announceAuthChange } from './sign-in-state.ts'

/**
 * The one way this browser signs out: this tab shows it at once (before the server answers), the
 * server ends the session unless it already has (`serverEnded`, after revoking it), the other tabs
 * follow. Never throws: a logout that cannot reach the server is retried before the next session check.
 */
export async function signOut(queryClient: QueryClient, { serverEnded = false } = {}): Promise<void> {
  queryClient.setQueryData<SessionResponse>(CURRENT_SESSION_QUERY_KEY, { session: null })
  queryClient.removeQueries({ queryKey: MEMBER_SESSIONS_QUERY_KEY })
  if (!serverEnded) await postLogout()
  announceAuthChange({ type: 'signed-out' })
}
