import {
  type DelegateStatement,
  delegateStatementSchema,
  publishStatementResponseSchema,
  type SignedDelegateStatement,
} from '@guildhall/core'
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Address } from 'viem'
import { ApiRequestError, apiGet, apiSend } from '../../../lib/api.ts'

/** The query keys of delegate statements, one per delegate (any case of the address is one key). */
const statementKeys = {
  all: ['api', 'delegate-statement'] as const,
  of: (delegate: Address | undefined) => [...statementKeys.all, delegate?.toLowerCase()] as const,
}

/** GET /api/delegates/:address/statement: the delegate's latest statement, or null when they have none. */
async function fetchStatement(delegate: Address | undefined) {
  try {
    return await apiGet(`/api/delegates/${delegate}/statement`, delegateStatementSchema)
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null
    throw error
  }
}

const statementQueryOptions = (delegate: Address | undefined) =>
  queryOptions({
    queryKey: statementKeys.of(delegate),
    queryFn: () => fetchStatement(delegate),
    enabled: Boolean(delegate),
  })

export function useDelegateStatement(delegate: Address | undefined) {
  return useQuery(statementQueryOptions(delegate))
}

/** Stores a statement read with something else (the member's answer), so it is not asked for again. */
export function primeStatement(
  queryClient: QueryClient,
  delegate: Address,
  statement: DelegateStatement | null,
) {
  queryClient.setQueryData(statementKeys.of(delegate), statement)
}

/**
 * POST /api/delegates/:address/statement: a signed statement (a later one replaces it). Stored once by its
 * digest, a replay answers 200: sent again if the connection failed.
 */
const submitStatement = (signed: SignedDelegateStatement) =>
  apiSend(
    'POST',
    `/api/delegates/${signed.message.delegate}/statement`,
    signed,
    publishStatementResponseSchema,
    { idempotent: true },
  )

/** Publishes a signed statement; settles once the delegate's statement has been read again. */
export function usePublishStatement() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: submitStatement,
    onSuccess: (_answer, signed) =>
      queryClient.invalidateQueries({ queryKey: statementKeys.of(signed.message.delegate) }),
  })
}
