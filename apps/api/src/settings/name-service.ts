// The variables of name and avatar lookups (ENS, ADR 026 and 029): the Ethereum mainnet RPC the server
// asks, and the gateways that serve avatar images.
import { z } from 'zod'
import { csv } from './csv.ts'

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
/** Gateway base URLs, `,`-separated, without their trailing slash. */
const gatewayUrls = z
  .string()
  .default('')
  .transform(csv)
  .pipe(z.array(httpUrl.transform((url) => url.replace(/\/+$/, ''))))

export const nameServiceVariables = z.object({
  /** Ethereum mainnet JSON-RPC for name and avatar lookups (ENS, ADR 026); unset: none, addresses only. */
  ENS_RPC_URL: httpUrl.optional(),
  /** Gateways that serve avatar images by IPFS content id (`<gateway>/ipfs/<cid>`) and by Arweave id. */
  IPFS_GATEWAYS: gatewayUrls,
  ARWEAVE_GATEWAYS: gatewayUrls,
})
