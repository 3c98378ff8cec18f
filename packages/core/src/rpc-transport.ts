import { custom, http, RpcRequestError, type Transport } from 'viem'

/** True for a ws:// or wss:// URL: JSON-RPC over a WebSocket (ADR 027). */
export function isWebSocketUrl(url: string): boolean {
  return /^wss?:\/\//i.test(url)
}

/**
 * viem's transport for a node's JSON-RPC URL: HTTP, or a WebSocket for ws:// and wss://. The socket code is
 * loaded with the first call over one, so a page on an HTTP RPC never downloads it. It is a plain request
 * transport, polled like HTTP (no eth_subscribe), so reads behave the same on both.
 */
export function rpcTransport(url: string, options: { timeout: number; retryCount?: number }): Transport {
  if (!isWebSocketUrl(url)) return http(url, options)
  return custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        const { socketRpcRequest } = await import('./rpc-socket.ts')
        const body = { method, params }
        const answer = await socketRpcRequest(url, body, options.timeout)
        if (answer.error) throw new RpcRequestError({ body, error: answer.error, url })
        return answer.result
      },
    },
    { key: 'webSocket', name: 'WebSocket JSON-RPC', retryCount: options.retryCount },
  )
}
