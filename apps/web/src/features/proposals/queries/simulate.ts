import { type ProposalAction, simulationSchema } from '@guildhall/core'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiSend } from '../../../lib/api.ts'

type SimulationRequest = { actions: readonly ProposalAction[]; changesSafeSettings: boolean }

/**
 * POST /api/treasury/simulate: the batch run against the Safe as it stands, without signatures (nothing is
 * sent or stored, so a repeat is harmless). Success or the revert, and the balance changes.
 */
const simulate = (request: SimulationRequest) =>
  apiSend('POST', '/api/treasury/simulate', request, simulationSchema, { idempotent: true })

const simulationQueryOptions = (request: SimulationRequest) =>
  queryOptions({
    queryKey: ['api', 'treasury', 'simulate', request] as const,
    queryFn: () => simulate(request),
    // The Safe's balances move: an answer stands while the author edits, not from an earlier visit.
    staleTime: 30_000,
    meta: { persist: false },
  })

/** The simulation of `request`; nothing is asked while it is undefined (no actions, or refused ones). */
export function useSimulation(request: SimulationRequest | undefined) {
  return useQuery({
    ...simulationQueryOptions(request ?? { actions: [], changesSafeSettings: false }),
    enabled: request !== undefined,
    // The previous batch's answer stays on screen, marked as stale, while the new one runs.
    placeholderData: keepPreviousData,
  })
}
