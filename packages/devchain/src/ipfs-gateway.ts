// A stand-in IPFS gateway for the local name service: serves a few files by content id under
// `/ipfs/<cid>` on 127.0.0.1, as a public gateway does, so avatar records (`ipfs://<cid>`) resolve with no
// network. Nothing is fetched from outside.
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type IpfsFile = { contentType: string; body: Buffer }

export type IpfsGateway = {
  /** The gateway's base URL, as viem's `assetGatewayUrls.ipfs` takes it: `<url>/ipfs/<cid>`. */
  url: string
  close(): Promise<void>
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** RFC 4648 base32, lower case, unpadded: the multibase `b` alphabet. */
function base32(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    // At most 12 bits are ever pending; keep only those, so the shift never overflows.
    value = ((value << 8) | byte) & 0xfff
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/**
 * The CID an IPFS node gives these bytes added as one raw block: CIDv1 (0x01), raw codec (0x55), a sha2-256
 * multihash (0x12, 32 bytes), in base32 (`b…`).
 */
export function ipfsCid(body: Uint8Array): string {
  const digest = createHash('sha256').update(body).digest()
  return `b${base32(Buffer.concat([Buffer.from([0x01, 0x55, 0x12, 0x20]), digest]))}`
}

/** Starts the gateway on a free 127.0.0.1 port with `files` by CID; any other path is 404. */
export async function startIpfsGateway(files: ReadonlyMap<string, IpfsFile>): Promise<IpfsGateway> {
  const server = createServer((request, response) => {
    const cid = /^\/ipfs\/([a-z2-7]+)$/.exec(request.url ?? '')?.[1]
    const file = cid === undefined ? undefined : files.get(cid)
    // Public gateways allow any origin: the browser checks an avatar with a cross-origin HEAD request.
    response.setHeader('access-control-allow-origin', '*')
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end()
    } else if (!file) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end(request.method === 'HEAD' ? '' : 'not found')
    } else {
      response.writeHead(200, {
        'content-type': file.contentType,
        'content-length': file.body.length,
        // Content-addressed: the bytes behind a CID never change.
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
      })
      response.end(request.method === 'HEAD' ? undefined : file.body)
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
