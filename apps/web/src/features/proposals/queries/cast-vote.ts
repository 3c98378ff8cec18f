import { castVoteResponseSchema, type SignedVote } from '@guildhall/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/**
 * POST /api/proposals/:id/votes: a signed vote (a later one from the same voter replaces it). Stored once
 * by its digest, a replay answers 200: sent again if the connection failed.
 */
const submitVote = (id: string, signed: SignedVote) =>
  apiSend('POST', `/api/proposals/${id}/votes`, signed, castVoteResponseSchema, { idempotent: true })

/** Submits a signed vote; settles once every proposal query has been refreshed. */
export function useCastVote() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, signed }: { id: string; signed: SignedVote }) => submitVote(id, signed),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proposalKeys.all }),
  })
}
