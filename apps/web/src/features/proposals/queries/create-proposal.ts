import { createProposalResponseSchema, type SignedProposal } from '@guildhall/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/**
 * POST /api/proposals: a signed proposal; answers with its id. Stored once by its digest, a replay answers
 * 200: sent again if the connection failed.
 */
const submitProposal = (signed: SignedProposal) =>
  apiSend('POST', '/api/proposals', signed, createProposalResponseSchema, { idempotent: true })

/** Submits a signed proposal; settles once the proposal queries have been refreshed. */
export function useCreateProposal() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: submitProposal,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proposalKeys.all }),
  })
}
