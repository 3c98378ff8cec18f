// JSON-RPC over a WebSocket that outlives its node's restarts. viem's own socket client keeps a failed
// socket cached: after its node went away even for seconds, every later request fails until the process
// restarts (ADR 027). This one drops a socket that failed, so the next request (the transport's retry, the
// next read) opens a new one.
import { BaseError, TimeoutError, WebSocketRequestError } from 'viem'
import { getWebSocketRpcClient } from 'viem/utils'

type Body = { method: string; params?: unknown }
/** A JSON-RPC answer as the node sent it, its `error` included. */
export type SocketRpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } }
type SocketClient = Awaited<ReturnType<typeof getWebSocketRpcClient>>

/** Clients already closed: closing one twice would drop its successor from viem's cache of clients. */
const dropped = new WeakSet<SocketClient>()

/**
 * Sends one call to the node at `url` (ws:// or wss://) over the one socket viem keeps per URL and resolves
 * with the node's answer. When the socket fails or closes, it is dropped and the call rejects with viem's
 * `SocketClosedError` or `WebSocketRequestError`; a node that does not answer in `timeout` ms gives
 * `TimeoutError` and keeps its socket (a slow answer is no broken connection).
 */
export async function socketRpcRequest(url: string, body: Body, timeout: number): Promise<SocketRpcAnswer> {
  let client: SocketClient
  try {
    // No reconnects of viem's own: dropping the client is what reconnects.
    client = await getWebSocketRpcClient(url, { reconnect: false })
  } catch (error) {
    // A refused connection rejects with the socket's error event, which is no Error.
    throw new WebSocketRequestError({
      url,
      body,
      details: 'The connection could not be opened.',
      cause: error instanceof Error ? error : undefined,
    })
  }
  try {
    return (await client.requestAsync({ body: body as never, timeout })) as SocketRpcAnswer
  } catch (error) {
    if (!(error instanceof TimeoutError) && !dropped.has(client)) {
      dropped.add(client)
      client.close()
    }
    if (error instanceof BaseError) throw error
    throw new WebSocketRequestError({ url, body, cause: error instanceof Error ? error : undefined })
  }
}
