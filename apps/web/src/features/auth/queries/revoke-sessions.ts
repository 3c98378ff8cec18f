import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api.ts'
import { signOut } from '../sign-out.ts'
import { CURRENT_SESSION_QUERY_KEY } from './current-session.ts'
import { MEMBER_SESSIONS_QUERY_KEY } from './member-sessions.ts'

/** DELETE /api/auth/sessions/:id, or DELETE /api/auth/sessions (all of mine) when `id` is null. */
export async function revokeSessions(id: string | null): Promise<void> {
  const path = id === null ? '/api/auth/sessions' : `/api/auth/sessions/${encodeURIComponent(id)}`
  await apiSend('DELETE', path)
}

/** Revokes one session or all; ending this device's session signs this tab (and the others) out. */
export function useRevokeSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: ['api', 'auth', 'sessions', 'revoke'],
    mutationFn: async ({ id }: { id: string | null; current: boolean }) => revokeSessions(id),
    onSuccess: async (_data, { id, current }) => {
      if (id === null || current) return signOut(queryClient, { serverEnded: true })
      await queryClient.invalidateQueries({ queryKey: MEMBER_SESSIONS_QUERY_KEY })
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: CURRENT_SESSION_QUERY_KEY }),
  })
}
