import { votingPowerResponseSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Address } from 'viem'
import { apiGet } from '../../../lib/api.ts'
import { proposalKeys } from './keys.ts'

/** GET /api/proposals/:id/power/:address: an account's voting power at the proposal's snapshot. */
const fetchVotingPower = (id: string, address: Address | undefined) =>
  apiGet(`/api/proposals/${id}/power/${address}`, votingPowerResponseSchema)

const votingPowerQueryOptions = (id: string, address: Address | undefined) =>
  queryOptions({
    queryKey: proposalKeys.power(id, address),
    queryFn: () => fetchVotingPower(id, address),
    enabled: Boolean(address),
  })

export function useVotingPower(id: string, address: Address | undefined) {
  return useQuery(votingPowerQueryOptions(id, address))
}
