import { type TopicMessage, topicJsonSchema, topicListSchema, topicResponseSchema } from '@guildhall/core'
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import type { Hex } from 'viem'
import { apiGet, apiSend } from '../../../lib/api.ts'
import { useKeySignedAction } from '../discussion-key.ts'
import { discussionKeys } from './keys.ts'

/** GET /api/discussion/topics: latest activity first, in one category or all. */
const topicsQueryOptions = (category: string | undefined) =>
  infiniteQueryOptions({
    queryKey: discussionKeys.topicList(category),
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams()
      if (category) query.set('category', category)
      if (pageParam) query.set('cursor', pageParam)
      return apiGet(`/api/discussion/topics?${query}`, topicListSchema)
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  })

export function useTopics(category: string | undefined) {
  return useInfiniteQuery(topicsQueryOptions(category))
}

/** GET /api/discussion/topics/:id. */
const topicQueryOptions = (id: string) =>
  queryOptions({
    queryKey: discussionKeys.topic(id),
    queryFn: () => apiGet(`/api/discussion/topics/${id}`, topicJsonSchema),
  })

export function useTopic(id: string) {
  return useQuery(topicQueryOptions(id))
}

/** POST /api/discussion/topics: a new topic, signed by the member's discussion key. */
export function useCreateTopic() {
  return useKeySignedAction({
    kind: 'topic',
    submit: (signed: { message: TopicMessage; signature: Hex }) =>
      apiSend('POST', '/api/discussion/topics', signed, topicResponseSchema, {
        idempotent: true,
      }),
    changes: () => [discussionKeys.topicLists()],
  })
}
