// Live updates (ADR 024): GET /api/proposals/:id/events and GET /api/events, server-sent events read with the
// browser's EventSource, which reconnects by itself and sends the last event id so the server replays what
// was missed. While a stream is open the pages do not poll; when it fails they poll again.
import {
  liveExecutionSchema,
  liveProposalSchema,
  liveTallySchema,
  nextStateChange,
  type ProposalDetail,
} from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { throttled, useEventStream } from '../../../lib/event-stream.ts'
import { proposalKeys } from './keys.ts'

/**
 * Votes lists refetch at most this often while tallies stream in: every open page's refetch is a request,
 * and the tally itself comes with the event.
 */
const VOTES_REFRESH_MS = 2_000

/**
 * Keeps a proposal page's tally and votes lists current from its event stream: the tally is put in the
 * cache as it comes, the votes lists refetch (at most every VOTES_REFRESH_MS); an execution event (a
 * signature logged) reads the execution again. True while live.
 */
export function useLiveProposal(id: string): boolean {
  const queryClient = useQueryClient()
  const [votesRefresh] = useState(() => throttled(VOTES_REFRESH_MS))
  useEffect(() => () => votesRefresh.cancel(), [votesRefresh])
  return useEventStream(`/api/proposals/${id}/events`, {
    tally: (data) => {
      const event = liveTallySchema.parse(data)
      let changed = true
      queryClient.setQueryData<ProposalDetail>(proposalKeys.detail(id), (detail) => {
        if (!detail || detail.id !== event.proposalId) return detail
        // A new stream first sends the totals as they are, most often those the page already shows.
        changed = JSON.stringify(detail.tally) !== JSON.stringify(event.tally)
        return { ...detail, tally: event.tally, now: event.now }
      })
      if (changed) {
        votesRefresh.run(() =>
          queryClient.invalidateQueries({ queryKey: proposalKeys.votesOf(id) }, { cancelRefetch: false }),
        )
      }
    },
    execution: (data) => {
      const event = liveExecutionSchema.parse(data)
      if (event.proposalId !== id) return
      void queryClient.invalidateQueries({ queryKey: proposalKeys.execution(id) })
    },
  })
}

/** Refetches the proposal lists when a proposal is created. True while live. */
export function useLiveProposals(): boolean {
  const queryClient = useQueryClient()
  return useEventStream('/api/events', {
    proposal: (data) => {
      liveProposalSchema.parse(data)
      void queryClient.invalidateQueries({ queryKey: proposalKeys.lists() })
    },
  })
}

/**
 * Milliseconds until the first of `proposals` changes state (pending → active → closed → final), as seen
 * from the server's clock `now` in an answer received at `receivedAt` (ms); false when none will.
 */
export function untilStateChange(
  proposals: readonly { start: number; end: number }[],
  now: number,
  receivedAt: number,
): number | false {
  const next = Math.min(
    ...proposals.map((proposal) => nextStateChange(proposal, now) ?? Number.POSITIVE_INFINITY),
  )
  if (next === Number.POSITIVE_INFINITY) return false
  // A second late, so the server's clock has passed the boundary when it answers.
  return Math.max(1_000, (next - now + 1) * 1_000 - (Date.now() - receivedAt))
}
