// The chain both reference pages use: Guildhall's local demo chain (anvil, id 31337), reached like Guildhall
// reaches it, through /rpc/31337 on the page's own origin (the bench's reference server proxies it to the
// same anvil), so RPC counts compare request for request.
import { anvil } from 'wagmi/chains'

export const localChain = anvil
export const rpcUrl = new URL(`/rpc/${anvil.id}`, window.location.origin).href
