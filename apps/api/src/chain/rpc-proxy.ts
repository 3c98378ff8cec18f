// The browser's JSON-RPC endpoint for local chains, POST /rpc/<chainId> (ADR 017), over HTTP whether the node
// is reached over HTTP or a WebSocket (ADR 027). A development node (anvil) also answers methods that change
// its state or sign with its unlocked keys; anyone who can reach the app could call those through a plain
// forwarder. This one serves the reads a browser needs and signed raw transactions, and answers everything
// else itself.
import { formatIssues, HTTP_TIMEOUT_MS, isWebSocketUrl } from '@guildhall/core'
import { socketRpcRequest } from '@guildhall/core/rpc-socket'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../platform/http/openapi.ts'
import { checkedInHandler } from '../platform/http/params.ts'
import type { ChainSettings } from '../settings/chains.ts'

/**
 * What viem, wagmi, RainbowKit, the app's pages and an extension wallet given this URL call: reads, fee
 * and gas estimates, receipts, and transactions the caller signed itself. Nothing that changes the node
 * (anvil_*, evm_*), uses its keys (eth_sendTransaction, eth_sign*, personal_sign), traces (debug_*) or
 * keeps state on it (filters).
 */
const RPC_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId',
  'net_version',
  'web3_clientVersion',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getLogs',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_blobBaseFee',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_sendRawTransaction',
])

/** Calls per batch; viem batches reads only when asked to, and then far below this. */
const RPC_MAX_BATCH = 100
/** Blocks one eth_getLogs may cover (a wide range on a real node is slow and large). */
const RPC_MAX_LOG_BLOCKS = 10_000n
/** Nesting of a call's params: eth_call with a state override is about 5 deep. Bounded so that nothing
 * recursive (serialising, logging) can overflow the stack on a hostile body. */
const MAX_PARAMS_DEPTH = 20
const RPC_BODY_LIMIT = 1024 * 1024

const callSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  // Required: a notification (no id) would get no answer, and no client of this endpoint sends one.
  id: z.union([z.string().max(200), z.number(), z.null()]),
  method: z.string().min(1).max(100),
  params: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
})
type Call = z.infer<typeof callSchema>

const rpcErrorSchema = z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() })
type RpcError = z.infer<typeof rpcErrorSchema>
/** An answer: the call's id, and its result or its error (the node's, or this proxy's refusal). */
const answerSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: callSchema.shape.id,
  result: z.unknown().optional(),
  error: rpcErrorSchema.optional(),
})
type Answer = z.infer<typeof answerSchema>

class ChainError extends Error {}

/** True when `value` nests deeper than `max` (stops descending there, so it cannot overflow itself). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false
  if (max === 0) return true
  const children = Array.isArray(value) ? value : Object.values(value)
  return children.some((child) => nestsDeeperThan(child, max - 1))
}

const BLOCK_TAGS_AT_HEAD = new Set(['latest', 'pending', 'safe', 'finalized'])

/** Why an eth_getLogs filter is refused, or undefined. Tags are resolved against the node's head. */
async function logsFilterError(
  params: Call['params'],
  head: () => Promise<bigint>,
): Promise<RpcError | undefined> {
  const filter = Array.isArray(params) ? params[0] : undefined
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    return { code: -32602, message: 'eth_getLogs takes one filter object.' }
  }
  const { fromBlock, toBlock, blockHash } = filter as Record<string, unknown>
  if (blockHash !== undefined && fromBlock === undefined && toBlock === undefined) return undefined
  const block = async (value: unknown): Promise<bigint | undefined> => {
    if (value === undefined || (typeof value === 'string' && BLOCK_TAGS_AT_HEAD.has(value))) return head()
    if (value === 'earliest') return 0n
    if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
    return undefined
  }
  const from = await block(fromBlock)
  const to = await block(toBlock)
  if (from === undefined || to === undefined) {
    return {
      code: -32602,
      message: 'eth_getLogs: fromBlock and toBlock are hex block numbers or block tags.',
    }
  }
  const blocks = to >= from ? to - from + 1n : 0n
  if (blocks > RPC_MAX_LOG_BLOCKS) {
    return {
      code: -32005,
      message: `eth_getLogs covers at most ${RPC_MAX_LOG_BLOCKS} blocks here; this filter covers ${blocks} (${from} to ${to}).`,
    }
  }
  return undefined
}

type Forwarded = { jsonrpc: '2.0'; id: number; method: string; params: unknown }

/**
 * Sends one call or a batch to the node and gives its answer as the node sent it. A node on a WebSocket
 * (ADR 027) gets each call of a batch on the one socket, and the answers come back as a batch.
 */
async function ask(url: string, body: Forwarded | Forwarded[]): Promise<unknown> {
  if (!isWebSocketUrl(url)) return post(url, body)
  const calls = Array.isArray(body) ? body : [body]
  const answers = await Promise.all(
    calls.map(async ({ id, method, params }) => {
      try {
        return { jsonrpc: '2.0', ...(await socketRpcRequest(url, { method, params }, HTTP_TIMEOUT_MS)), id }
      } catch {
        throw new ChainError('unreachable')
      }
    }),
  )
  return Array.isArray(body) ? answers : answers[0]
}

async function post(url: string, body: unknown): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    })
  } catch {
    throw new ChainError('unreachable')
  }
  const text = await response.text().catch(() => {
    throw new ChainError('unreachable')
  })
  try {
    return JSON.parse(text)
  } catch {
    throw new ChainError(`HTTP ${response.status}, not JSON`)
  }
}

export async function rpcProxyRoutes(app: FastifyInstance, { chains }: { chains: ChainSettings[] }) {
  const api = app.withTypeProvider<ApiTypeProvider>()
  for (const chain of chains) {
    api.post(
      `/rpc/${chain.id}`,
      {
        bodyLimit: RPC_BODY_LIMIT,
        // Any origin: the route reads no cookie and serves nothing a caller could not do with the node's
        // public data or its own signature, and wallets given this URL call it from their own origin.
        config: { anyOrigin: true },
        schema: {
          summary: `JSON-RPC of chain ${chain.id} (${chain.name}): reads and signed raw transactions`,
          tags: ['rpc'],
          // Checked call by call below: a batch's refusal names the call, and a batch too large is a 413.
          body: checkedInHandler(z.union([callSchema, z.array(callSchema)])),
          response: { 200: z.union([answerSchema, z.array(answerSchema)]), ...errorAnswers },
        },
      },
      async (request, reply) => {
        const body = request.body
        const batch = Array.isArray(body)
        const items: unknown[] = batch ? body : [body]
        if (batch && items.length === 0)
          throw ApiError.badRequest('A JSON-RPC batch holds at least one call.')
        if (items.length > RPC_MAX_BATCH) {
          throw new ApiError(
            413,
            'batch_too_large',
            `A JSON-RPC batch holds at most ${RPC_MAX_BATCH} calls; this one has ${items.length}.`,
          )
        }
        const calls: Call[] = []
        for (const [index, item] of items.entries()) {
          const parsed = callSchema.safeParse(item)
          const where = batch ? ` (call ${index})` : ''
          if (!parsed.success) {
            throw ApiError.badRequest(
              `Not a JSON-RPC 2.0 call${where}: an object with jsonrpc "2.0", an id, a method and optional params.\n${formatIssues(parsed.error)}`,
            )
          }
          if (nestsDeeperThan(parsed.data.params, MAX_PARAMS_DEPTH)) {
            throw ApiError.badRequest(`The params${where} nest deeper than ${MAX_PARAMS_DEPTH} levels.`)
          }
          calls.push(parsed.data)
        }

        try {
          let head: Promise<bigint> | undefined
          const headBlock = () => {
            head ??= ask(chain.upstreamRpcUrl, {
              jsonrpc: '2.0',
              id: 0,
              method: 'eth_blockNumber',
              params: [],
            }).then((answer) => {
              const result = (answer as { result?: unknown } | null)?.result
              if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(result))
                throw new ChainError('no block number')
              return BigInt(result)
            })
            return head
          }
          // Each call either gets its answer here (refused) or is forwarded under its index as id, so
          // duplicate or odd ids of the caller cannot mix answers up.
          const answers: (Answer | undefined)[] = await Promise.all(
            calls.map(async (call): Promise<Answer | undefined> => {
              if (!RPC_METHODS.has(call.method)) {
                return {
                  jsonrpc: '2.0',
                  id: call.id,
                  error: {
                    code: -32601,
                    message: `Method not found: ${call.method} is not served here (reads and signed raw transactions only).`,
                  },
                }
              }
              if (call.method === 'eth_getLogs') {
                const error = await logsFilterError(call.params, headBlock)
                if (error) return { jsonrpc: '2.0', id: call.id, error }
              }
              return undefined
            }),
          )
          const forwarded = calls.flatMap((call, index): Forwarded[] =>
            answers[index]
              ? []
              : [{ jsonrpc: '2.0', id: index, method: call.method, params: call.params ?? [] }],
          )
          if (forwarded.length > 0) {
            const upstream = await ask(chain.upstreamRpcUrl, batch ? forwarded : (forwarded[0] as Forwarded))
            const list = Array.isArray(upstream) ? upstream : [upstream]
            for (const item of list) {
              const answer = item as { id?: unknown; result?: unknown; error?: RpcError } | null
              const index = typeof answer?.id === 'number' ? answer.id : -1
              const call = calls[index]
              if (!call || answers[index] || !answer) continue
              answers[index] =
                answer.error !== undefined
                  ? { jsonrpc: '2.0', id: call.id, error: answer.error }
                  : { jsonrpc: '2.0', id: call.id, result: answer.result }
            }
          }
          const complete = calls.map(
            (call, index): Answer =>
              answers[index] ?? {
                jsonrpc: '2.0',
                id: call.id,
                error: {
                  code: -32603,
                  message: `The node for chain ${chain.id} gave no answer to this call.`,
                },
              },
          )
          return reply
            .header('content-type', 'application/json')
            .send(batch ? complete : (complete[0] as Answer))
        } catch (error) {
          if (!(error instanceof ChainError)) throw error
          request.log.warn({ err: error }, 'rpc proxy: the node did not answer')
          throw new ApiError(503, 'chain_unavailable', `The node for chain ${chain.id} did not answer.`, 2)
        }
      },
    )
  }
}
