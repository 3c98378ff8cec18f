import { commentVersionsSchema, threadJsonSchema, threadPageSchema } from '@guildhall/core'
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
} from '@tanstack/react-query'
import { apiGet, apiSend } from '../../../lib/api.ts'
import { discussionKeys } from './keys.ts'

/** GET /api/threads/:id: the thread's header (locked, counts, the member's last visit, may they post). */
const threadQueryOptions = (id: string) =>
  queryOptions({
    queryKey: discussionKeys.threadHeader(id),
    queryFn: () => apiGet(`/api/threads/${id}`, threadJsonSchema),
    // The last visit and "may post" are the session's.
    meta: { persist: false },
  })

export function useThread(id: string) {
  return useQuery(threadQueryOptions(id))
}

/** GET /api/threads/:id/items: comments and vote cards in tree order, a page at a time. */
const threadItemsQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: discussionKeys.threadItems(id),
    queryFn: ({ pageParam }) =>
      apiGet(
        `/api/threads/${id}/items${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        threadPageSchema,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    meta: { persist: false },
  })

export function useThreadItems(id: string) {
  return useInfiniteQuery(threadItemsQueryOptions(id))
}

/** POST /api/threads/:id/seen: the member has seen the thread up to log entry `seq`. */
export function useMarkSeen(id: string) {
  return useMutation({
    mutationKey: [...discussionKeys.thread(id), 'seen'],
    mutationFn: (seq: number) => apiSend('POST', `/api/threads/${id}/seen`, { seq }),
  })
}

/** GET /api/comments/:id/versions: every version of a comment, first to latest. */
export function useCommentVersions(commentId: string, enabled: boolean) {
  return useQuery({
    queryKey: discussionKeys.versions(commentId),
    queryFn: () => apiGet(`/api/comments/${commentId}/versions`, commentVersionsSchema),
    enabled,
  })
}
