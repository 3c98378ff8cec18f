import { castVoteResponseSchema, type SignedVote, voteTypedData } from '@guildhall/core'
import { ApiRequestError, apiSend } from '../../../lib/api.ts'
import { useSignedAction } from '../../../lib/signed-action.ts'
import { walletFailure } from '../../../lib/wallet-errors.ts'
import { proposalKeys } from './keys.ts'

/**
 * POST /api/proposals/:id/votes: a signed vote (a later one from the same voter replaces it). Stored once
 * by its digest, a replay answers 200: sent again if the connection failed.
 */
const submitVote = (signed: SignedVote) =>
  apiSend('POST', `/api/proposals/${signed.message.proposal}/votes`, signed, castVoteResponseSchema, {
    idempotent: true,
  })

/** Why a vote failed, in a sentence: the server's for a refusal (a ballot that does not fit), the wallet's otherwise. */
const voteFailure = (error: unknown) =>
  error instanceof ApiRequestError ? error.message : walletFailure(error, 'the signature')

/** Signs and submits a vote; done once every proposal query has been refreshed. */
export function useCastVote() {
  return useSignedAction({
    typedData: voteTypedData,
    submit: submitVote,
    changes: () => [proposalKeys.all],
    failure: voteFailure,
  })
}
