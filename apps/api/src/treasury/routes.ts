// HTTP for the treasury (ADR 049): the Safe read live, its history from the index (a page, or every row as
// CSV), and the charts' figures.
import { Readable } from 'node:stream'
import {
  NATIVE_TOKEN_PARAM,
  type TreasuryHistoryItem,
  treasuryChartsQuerySchema,
  treasuryChartsSchema,
  treasuryHistoryCsvQuerySchema,
  treasuryHistoryPageSchema,
  treasuryHistoryQuerySchema,
  treasurySummarySchema,
} from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import type { Address } from 'viem'
import { z } from 'zod'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { named } from '../platform/http/params.ts'
import type { TreasurySettings } from '../settings/treasury.ts'
import type { HistoryFilter, TreasuryIndex } from './treasury-index.ts'

const noQuery = z.strictObject({})

export type TreasuryRoutesOptions = {
  treasury: TreasurySettings | null
  treasuryIndex: TreasuryIndex | undefined
  readSummary: (() => Promise<z.infer<typeof treasurySummarySchema>>) | undefined
  exportRateLimitPerMinute: number
}

const CSV_COLUMNS = [
  'id',
  'blockNumber',
  'logIndex',
  'time',
  'transactionHash',
  'kind',
  'token',
  'amount',
  'counterparty',
  'detail',
  'safeTxHash',
  'safeNonce',
  'proposalId',
  'proposalTitle',
  'outsideGuildhall',
] as const

/**
 * One CSV field: quoted when it holds a quote, comma or line break; text a spreadsheet would run as a formula
 * (a proposal's title is anyone's words) gets a leading apostrophe.
 */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return ''
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

function csvLine(item: TreasuryHistoryItem): string {
  return `${[
    item.id,
    item.blockNumber,
    item.logIndex,
    new Date(item.timestamp * 1000).toISOString(),
    item.transactionHash,
    item.kind,
    item.token ?? NATIVE_TOKEN_PARAM,
    item.amount,
    item.counterparty,
    item.detail,
    item.safeTxHash,
    item.safeNonce,
    item.proposal?.id ?? null,
    item.proposal?.title ?? null,
    item.outsideGuildhall,
  ]
    .map(csvField)
    .join(',')}\r\n`
}

async function* csvLines(index: TreasuryIndex, filter: HistoryFilter): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`
  for await (const page of index.historyRows(filter)) yield page.map(csvLine).join('')
}

export async function treasuryRoutes(
  app: FastifyInstance,
  { treasury, treasuryIndex, readSummary, exportRateLimitPerMinute }: TreasuryRoutesOptions,
) {
  const api = app.withTypeProvider<ApiTypeProvider>()
  const tags = ['treasury']
  const exportLimit = { rateLimit: { max: exportRateLimitPerMinute, timeWindow: '1 minute' } }

  /** The index, or a 404 when there is no treasury (or no database to keep its index in). */
  function index(): TreasuryIndex {
    if (!treasury) throw new ApiError(404, 'no_treasury', 'No treasury Safe is configured.')
    if (!treasuryIndex)
      throw new ApiError(
        404,
        'no_treasury_index',
        'This server keeps no treasury history (it has no database).',
      )
    return treasuryIndex
  }
  /** A token the query names, which must be one the index follows (or the native coin). */
  function followed(token: Address | null | undefined): Address | null | undefined {
    if (token === undefined || token === null || treasury?.tokens.includes(token)) return token
    throw ApiError.badRequest(
      `${token} is not a treasury token: the index follows ${treasury?.tokens.join(', ') || 'no token'} and the native coin.`,
    )
  }

  api.get(
    '/api/treasury',
    {
      schema: {
        summary:
          'The treasury Safe read live: owners, threshold, nonce, version, modules, guard, assets, warnings',
        tags,
        querystring: named('treasury query', noQuery),
        response: { 200: treasurySummarySchema, ...errorAnswers },
      },
    },
    async () => {
      if (!treasury || !readSummary)
        return { configured: false, safe: null, addresses: [], blockNumber: 0, warnings: [], assets: [] }
      return readSummary()
    },
  )

  api.get(
    '/api/treasury/history',
    {
      schema: {
        summary: 'The treasury’s history, newest first, filtered and a page at a time',
        tags,
        querystring: named('treasury history query', treasuryHistoryQuerySchema),
        response: { 200: treasuryHistoryPageSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const { cursor, limit, ...filter } = request.query
      const treasuryIndex = index()
      return treasuryIndex.historyPage({ ...filter, token: followed(filter.token) }, { cursor, limit })
    },
  )

  api.get(
    '/api/treasury/history.csv',
    {
      config: exportLimit,
      schema: {
        summary: 'Every row of the treasury’s history for a filter, as CSV (streamed)',
        tags,
        querystring: named('treasury history query', treasuryHistoryCsvQuerySchema),
        response: { 200: { content: { 'text/csv': { schema: z.string() } } }, ...errorAnswers },
      },
    },
    async (request, reply) => {
      const treasuryIndex = index()
      const filter = { ...request.query, token: followed(request.query.token) }
      const body = Readable.from(csvLines(treasuryIndex, filter), {
        objectMode: false,
        highWaterMark: 64 * 1024,
      })
      // A stream, which no serializer sees.
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="treasury-history.csv"')
        .send(body as never)
    },
  )

  api.get(
    '/api/treasury/charts',
    {
      schema: {
        summary:
          'The treasury’s balance per day (last 366 days it changed) and money in/out per month, for one token',
        tags,
        querystring: named('treasury charts query', treasuryChartsQuerySchema),
        response: { 200: treasuryChartsSchema, ...errorAnswers },
      },
    },
    async (request) => {
      const treasuryIndex = index()
      return treasuryIndex.charts(followed(request.query.token) ?? null)
    },
  )
}
