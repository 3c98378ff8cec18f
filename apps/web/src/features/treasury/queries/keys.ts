import { NATIVE_TOKEN_PARAM, type TreasuryHistoryDirection } from '@guildhall/core'

/** What the history shows: its direction, token (`native` for the chain's coin) and dates (unix seconds). */
export type TreasuryHistoryFilter = {
  direction?: TreasuryHistoryDirection
  token?: string
  from?: number
  to?: number
}

/** The history's filter and page size (the server's default without one). */
export type TreasuryHistoryList = TreasuryHistoryFilter & { limit?: number }

/** The query keys of the treasury page, one root for all. */
export const treasuryKeys = {
  all: ['api', 'treasury'] as const,
  summary: () => [...treasuryKeys.all, 'summary'] as const,
  history: (filter: TreasuryHistoryList) => [...treasuryKeys.all, 'history', filter] as const,
  charts: (token: string) => [...treasuryKeys.all, 'charts', token] as const,
  spending: () => [...treasuryKeys.all, 'spending'] as const,
}

/** A token as the API's queries name it: its address, or `native` for the chain's coin (null). */
export const tokenParam = (token: string | null) => token ?? NATIVE_TOKEN_PARAM

/** The history's filter as a query string, shared by its pages and its CSV export. */
export function historyQuery(filter: TreasuryHistoryFilter): URLSearchParams {
  const query = new URLSearchParams()
  if (filter.direction) query.set('direction', filter.direction)
  if (filter.token) query.set('token', filter.token)
  if (filter.from !== undefined) query.set('from', String(filter.from))
  if (filter.to !== undefined) query.set('to', String(filter.to))
  return query
}
