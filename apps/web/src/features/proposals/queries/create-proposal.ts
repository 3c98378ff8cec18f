import { createProposalResponseSchema, proposalTypedData, type SignedProposal } from '@guildhall/core'
import { apiSend } from '../../../lib/api.ts'
import { useSignedAction } from '../../../lib/signed-action.ts'
import { proposalKeys } from './keys.ts'

/**
 * POST /api/proposals: a signed proposal; answers with its id. Stored once by its digest, a replay answers
 * 200: sent again if the connection failed.
 */
const submitProposal = (signed: SignedProposal) =>
  apiSend('POST', '/api/proposals', signed, createProposalResponseSchema, { idempotent: true })

/** Signs and submits a proposal; done once the proposal queries have been refreshed. */
export function useCreateProposal() {
  return useSignedAction({
    typedData: proposalTypedData,
    submit: submitProposal,
    changes: () => [proposalKeys.all],
  })
}
