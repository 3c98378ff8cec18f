import { liveThreadSchema } from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { throttled, useEventStream } from '../../../lib/event-stream.ts'
import { discussionKeys } from './keys.ts'

/**
 * A busy thread sends many events (each comment, reaction, flag): the loaded pages are read again at most
 * this often, every event since the last read in one.
 */
const THREAD_REFRESH_MS = 1_000

/**
 * Keeps a thread current from GET /api/threads/:id/events: each event reads the header and the loaded
 * pages again (coalesced). True while live.
 */
export function useLiveThread(id: string): boolean {
  const queryClient = useQueryClient()
  const [refresh] = useState(() => throttled(THREAD_REFRESH_MS))
  useEffect(() => () => refresh.cancel(), [refresh])
  return useEventStream(`/api/threads/${id}/events`, {
    thread: (data) => {
      const event = liveThreadSchema.parse(data)
      if (event.threadId !== id) return
      refresh.run(() =>
        queryClient.invalidateQueries({ queryKey: discussionKeys.thread(id) }, { cancelRefetch: false }),
      )
    },
  })
}
