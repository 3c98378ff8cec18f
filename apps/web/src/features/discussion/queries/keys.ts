/**
 * The query keys of the discussion's endpoints, under one root: a signed message invalidates what it
 * changes through these.
 */
export const discussionKeys = {
  all: ['api', 'discussion'] as const,
  /** The signed-in member's authorised keys. */
  memberKeys: () => [...discussionKeys.all, 'keys'] as const,
  topicLists: () => [...discussionKeys.all, 'topics'] as const,
  topicList: (category: string | undefined) => [...discussionKeys.topicLists(), category ?? ''] as const,
  topic: (id: string) => [...discussionKeys.all, 'topic', id] as const,
  /** A thread's header and every page of its items. */
  thread: (id: string) => [...discussionKeys.all, 'thread', id] as const,
  threadHeader: (id: string) => [...discussionKeys.thread(id), 'header'] as const,
  threadItems: (id: string) => [...discussionKeys.thread(id), 'items'] as const,
  versions: (commentId: string) => [...discussionKeys.all, 'versions', commentId] as const,
}
