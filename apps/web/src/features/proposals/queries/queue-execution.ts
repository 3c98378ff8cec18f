import { proposalExecutionSchema } from '@guildhall/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/**
 * POST /api/proposals/:id/execution/queue: the Safe transaction derived from the signed actions, at the
 * next free nonce (the server simulates it first). Not resent: a second queue of the same proposal is a 409.
 */
const queueExecution = (id: string) =>
  apiSend('POST', `/api/proposals/${id}/execution/queue`, {}, proposalExecutionSchema)

/** Queues a proposal's Safe transaction; the answer is the execution as it now stands. */
export function useQueueExecution(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => queueExecution(id),
    onSuccess: (execution) => queryClient.setQueryData(proposalKeys.execution(id), execution),
  })
}
