import { proposalExecutionSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/** How often the panel asks again when the page's stream is not open, or the Safe's outcome may come. */
const EXECUTION_REFETCH_MS = 10_000
/** Once enough have signed, anyone may execute at any moment: the outcome is looked for sooner. */
const EXECUTABLE_REFETCH_MS = 2_000

/** GET /api/proposals/:id/execution: the queue entry, its signatures, the outcome. */
const fetchExecution = (id: string) => apiGet(`/api/proposals/${id}/execution`, proposalExecutionSchema)

const executionQueryOptions = (id: string) =>
  queryOptions({ queryKey: proposalKeys.execution(id), queryFn: () => fetchExecution(id) })

/**
 * `live`: the page's event stream is open, and brings each signature (useLiveProposal). What the stream does
 * not bring (the Safe's own outcome, found by the server's index; the objection delay running out) is
 * asked for again while it may come.
 */
export function useExecution(id: string, live: boolean) {
  return useQuery({
    ...executionQueryOptions(id),
    refetchInterval: ({ state: { data } }) => {
      if (!data) return EXECUTION_REFETCH_MS
      if (data.state === 'none' || data.state === 'not-passed' || data.state === 'executed') {
        return live ? false : EXECUTION_REFETCH_MS
      }
      if (data.state === 'expired') return false
      const { queued } = data
      if (data.state === 'queued' && queued && queued.signatures.length >= queued.threshold) {
        return EXECUTABLE_REFETCH_MS
      }
      return EXECUTION_REFETCH_MS
    },
  })
}
