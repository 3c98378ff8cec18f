// Hosted RPC providers cap eth_getLogs (block spans, result counts, answer sizes): the indexes (the token's,
// the treasury's) ask for narrower ranges while a node refuses them, and widen them again slowly once it answers.
import {
  BaseError,
  HttpRequestError,
  ResponseBodyTooLargeError,
  RpcError,
  RpcRequestError,
  TimeoutError,
  UnknownRpcError,
} from 'viem'

/** eth_getLogs block span per request; providers commonly cap ranges near 10k blocks. */
export const DEFAULT_MAX_RANGE = 10_000
/** Successful ranges in a row before a narrowed range is doubled again. */
const RANGE_GROWTH_AFTER = 8

/** The blocks asked for per eth_getLogs request: at most `max`, halved while the node refuses a range. */
export class LogRange {
  readonly #max: number
  #size: number
  #successes = 0

  constructor(max: number) {
    this.#max = max
    this.#size = max
  }

  get size(): number {
    return this.#size
  }

  /** The node refused a range of `span` blocks as too large: the next request asks for half of it. */
  refused(span: number): void {
    this.#size = Math.max(1, Math.floor(span / 2))
    this.#successes = 0
  }

  /** A range was applied. Widens a narrowed range again slowly, so a node with a fixed limit does not refuse every other request. */
  applied(): void {
    if (++this.#successes >= RANGE_GROWTH_AFTER) {
      this.#size = Math.min(this.#max, this.#size * 2)
      this.#successes = 0
    }
  }
}

/** JSON-RPC codes of rate limits (429 as some providers send it, QuickNode's -32007): a wait helps, not a smaller range. */
const RATE_LIMIT_CODES = new Set([429, -32_007])

/**
 * True when a range was refused as too large: a JSON-RPC error (providers cap block spans or result counts,
 * e.g. Infura -32005, Alchemy -32602), HTTP 400 or 413, an answer beyond the client's response size limit, or
 * no answer in time. Rate limits and other HTTP failures are not: the sync fails and retries after a pause.
 */
export function refusedAsTooLarge(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  if (error.walk((cause) => cause instanceof ResponseBodyTooLargeError || cause instanceof TimeoutError))
    return true
  const http = error.walk((cause) => cause instanceof HttpRequestError || cause instanceof RpcRequestError) as
    | HttpRequestError
    | RpcRequestError
    | null
  if (http?.status === 400 || http?.status === 413) return true
  if (http?.status !== undefined && (http.status < 200 || http.status > 299)) return false
  const rpc = error.walk(
    (cause) =>
      cause instanceof RpcRequestError || (cause instanceof RpcError && !(cause instanceof UnknownRpcError)),
  ) as RpcRequestError | RpcError | null
  return rpc !== null && !RATE_LIMIT_CODES.has(rpc.code)
}
