// The image URL of an ENS avatar record, derived only through the operator's gateways (README "Security",
// ADR 029). The server never fetches what a record names: a record is text anyone may write, and a server
// that followed it could be sent to its own network (SSRF). The browser loads only the URL derived here,
// from a gateway the Content-Security-Policy's img-src lists; any other record gives no URL, and the member
// gets the generated avatar. The one request the server makes is a HEAD to the derived URL on the
// operator's gateway, with a CID and plain file names as its path, to learn whether an image is there.

import { createClient, custom, EnsAvatarInvalidNftUriError, EnsAvatarUriResolutionError } from 'viem'
import { parseAvatarRecord } from 'viem/ens'

export type AvatarGateways = {
  /** Base URLs serving `<gateway>/ipfs/<cid>[/<path>]`, without a trailing slash; the first is used. */
  ipfs: readonly string[]
  /** Base URLs serving `<gateway>/<transaction id>`, without a trailing slash; the first is used. */
  arweave: readonly string[]
}

/** Longer records are not kept: every supported form is far shorter, and a row stays small. */
export const AVATAR_RECORD_MAX_LENGTH = 512

// A CID: v0 (base58btc `Qm…`, 46 characters) or v1 in the alphabets gateways accept in a path (base32 `b…`,
// base36 `k…`, base58btc `z…`). Letters and digits only, so it can carry no separator.
const CID = /^(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{50,}|k[a-z0-9]{50,}|z[1-9A-HJ-NP-Za-km-z]{46,})$/
// A path segment inside the content: plain file names only. No `.`/`..` (which a gateway or the browser
// would collapse into another path), no `%` (which could spell them), no query, fragment or backslash.
const PATH_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/
// An Arweave transaction id: 32 bytes in base64url, 43 characters.
const ARWEAVE_ID = /^[A-Za-z0-9_-]{43}$/

/**
 * The gateway URL of `record`, or null: `ipfs://<cid>[/<file>…]` (also `ipfs://ipfs/<cid>…`) becomes
 * `<IPFS gateway>/ipfs/<cid>…`, `ar://<id>` becomes `<Arweave gateway>/<id>`. Anything else gives null:
 * http(s) URLs (any host, so they cannot be in the CSP, and each would tell that host who reads the page),
 * `eip155:` NFT records (their image is found by calling the token and fetching the metadata URL it names),
 * `data:` URIs, and whatever does not parse.
 */
export function avatarUrl(record: string | null, gateways: AvatarGateways): string | null {
  if (record === null || record.length > AVATAR_RECORD_MAX_LENGTH) return null
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.*)$/.exec(record)?.[1]
  if (ipfs !== undefined) {
    const [cid = '', ...path] = ipfs.split('/')
    const gateway = gateways.ipfs[0]
    if (!gateway || !CID.test(cid) || !path.every((segment) => PATH_SEGMENT.test(segment))) return null
    return `${gateway}/ipfs/${[cid, ...path].join('/')}`
  }
  const arweave = /^ar:\/\/(.*)$/.exec(record)?.[1]
  if (arweave !== undefined) {
    const gateway = gateways.arweave[0]
    if (!gateway || !ARWEAVE_ID.test(arweave)) return null
    return `${gateway}/${arweave}`
  }
  return null
}

/** viem, asked to follow an NFT record, meets this instead of the network: the server follows nothing. */
const refusingClient = createClient({
  transport: custom({
    request: async () => {
      throw new Error('avatar records are not followed')
    },
  }),
})

/**
 * The spec's words (viem's own errors) for an avatar record that gives the member no image: "ENS NFT avatar
 * URI is invalid …" for an NFT record viem cannot parse, "Unable to resolve ENS avatar URI …" for any other
 * (a CID the gateway lacks, an NFT or URL the server does not follow). Only an NFT record is handed to viem,
 * whose parser answers a malformed one before any request; the client refuses the rest.
 */
export async function avatarRecordProblem(record: string): Promise<string> {
  const unresolved = new EnsAvatarUriResolutionError({ uri: record }).shortMessage
  if (!/eip155:/i.test(record)) return unresolved
  try {
    await parseAvatarRecord(refusingClient, { record })
  } catch (error) {
    if (error instanceof EnsAvatarInvalidNftUriError) return error.shortMessage
  }
  return unresolved
}

/** How long the gateway may take to answer whether it serves an avatar. */
const GATEWAY_CHECK_TIMEOUT_MS = 5_000

/**
 * Whether the gateway serves an image at `url` (one derived by `avatarUrl`): a HEAD request, redirects not
 * followed. False when the gateway says so (not found, not an image, a redirect elsewhere, which the
 * Content-Security-Policy would refuse); true when it answers with an image, and also when it cannot answer
 * now (5xx, timeout): the browser falls back to the generated avatar if the image does not load.
 */
export async function gatewayServesImage(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(GATEWAY_CHECK_TIMEOUT_MS),
    })
    if (response.status >= 500) return true
    return response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('image/')
  } catch {
    return true
  }
}
