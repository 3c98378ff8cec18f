import { treasurySpendingSchema } from '@guildhall/core'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { treasuryKeys } from './keys.ts'

/** GET /api/treasury/spending: what executed proposals paid out, per category and token. */
const fetchTreasurySpending = () => apiGet('/api/treasury/spending', treasurySpendingSchema)

const treasurySpendingQueryOptions = () =>
  queryOptions({ queryKey: treasuryKeys.spending(), queryFn: fetchTreasurySpending })

export function useTreasurySpending() {
  return useQuery(treasurySpendingQueryOptions())
}
