import {
  type DelegateStatement,
  delegateStatementSchema,
  delegateStatementTypedData,
  publishStatementResponseSchema,
  type SignedDelegateStatement,
} from '@guildhall/core'
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import type { Address } from 'viem'
import { ApiRequestError, apiGet, apiSend } from '../../../lib/api.ts'
import { useSignedAction } from '../../../lib/signed-action.ts'
import { walletFailure } from '../../../lib/wallet-errors.ts'

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

/** Why a publication failed, in a sentence: the server's for a refusal, the wallet's for a signature. */
function publishFailure(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return walletFailure(error, 'the signature')
  switch (error.status) {
    case 401:
      return `The signature was not accepted: ${error.message} Sign again with the connected account.`
    case 409:
      return `${error.message} Reload the page to edit your latest statement.`
    case 400:
    case 413:
      return `The statement was refused: ${error.message}`
    default:
      // Timestamps (422), rate limits (429), the chain for a contract account (503), the network (0): the
      // server's sentence or ours already says what to do.
      return error.message
  }
}

/** Signs and publishes a statement; done once the delegate's statement has been read again. */
export function usePublishStatement() {
  return useSignedAction({
    typedData: delegateStatementTypedData,
    submit: submitStatement,
    changes: (signed) => [statementKeys.of(signed.message.delegate)],
    failure: publishFailure,
  })
}
