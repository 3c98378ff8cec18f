import { memberProfileSchema } from '@guildhall/core'
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiGet } from '../../../lib/api.ts'
import { nameQueryKey } from '../../../lib/names.tsx'
import { primeStatement } from './delegate-statement.ts'
import { memberPageKeys } from './member-keys.ts'

/** GET /api/members/:address: the member (by address or name), their figures, name and latest statement. */
const fetchMember = (who: string) => apiGet(`/api/members/${encodeURIComponent(who)}`, memberProfileSchema)

const memberQueryOptions = (who: string, queryClient: QueryClient) =>
  queryOptions({
    queryKey: memberPageKeys.member(who),
    queryFn: async () => {
      const member = await fetchMember(who)
      // The answer carries the name and statement the page's parts would otherwise each ask for.
      queryClient.setQueryData(nameQueryKey(member.address), member.profile)
      primeStatement(queryClient, member.address, member.statement)
      return member
    },
  })

export function useMember(who: string) {
  return useQuery(memberQueryOptions(who, useQueryClient()))
}
