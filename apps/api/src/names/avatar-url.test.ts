// The SSRF guard's pure part: which avatar records give a gateway URL, and which give none.
import { describe, expect, test } from 'vitest'
import { AVATAR_RECORD_MAX_LENGTH, avatarRecordProblem, avatarUrl } from './avatar-url.ts'

const gateways = { ipfs: ['https://ipfs.example', 'https://second.example'], arweave: ['https://ar.example'] }
const CID_V1 = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const CID_V0 = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG'
const ARWEAVE_ID = 'dQw4w9WgXcQdQw4w9WgXcQdQw4w9WgXcQdQw4w9WgXc'

describe('avatarUrl', () => {
  test('default: ipfs:// and ar:// records become URLs on the first configured gateway', () => {
    expect(avatarUrl(`ipfs://${CID_V1}`, gateways)).toBe(`https://ipfs.example/ipfs/${CID_V1}`)
    expect(avatarUrl(`ipfs://${CID_V0}`, gateways)).toBe(`https://ipfs.example/ipfs/${CID_V0}`)
    expect(avatarUrl(`ipfs://ipfs/${CID_V1}`, gateways)).toBe(`https://ipfs.example/ipfs/${CID_V1}`)
    expect(avatarUrl(`ipfs://${CID_V1}/avatars/ada.png`, gateways)).toBe(
      `https://ipfs.example/ipfs/${CID_V1}/avatars/ada.png`,
    )
    expect(avatarUrl(`ar://${ARWEAVE_ID}`, gateways)).toBe(`https://ar.example/${ARWEAVE_ID}`)
  })

  test('behavior: no record, or no gateway of its kind, gives no URL', () => {
    expect(avatarUrl(null, gateways)).toBeNull()
    expect(avatarUrl(`ipfs://${CID_V1}`, { ...gateways, ipfs: [] })).toBeNull()
    expect(avatarUrl(`ar://${ARWEAVE_ID}`, { ...gateways, arweave: [] })).toBeNull()
  })

  test('error: records naming anything but content on a gateway give no URL (the SSRF guard)', () => {
    const refused = [
      'http://127.0.0.1/admin.png',
      'https://169.254.169.254/latest/meta-data/',
      'https://euc.li/ada.eth',
      'file:///etc/passwd',
      'data:image/svg+xml;base64,PHN2Zy8+',
      'javascript:alert(1)',
      'eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB/1',
      `ipfs://${CID_V1}/../../admin`,
      `ipfs://${CID_V1}/..`,
      `ipfs://${CID_V1}/%2e%2e/admin`,
      `ipfs://${CID_V1}?filename=x.png`,
      `ipfs://${CID_V1}/a.png?x=1`,
      `ipfs://${CID_V1}#fragment`,
      `ipfs://${CID_V1}/a\\b`,
      `ipfs://${CID_V1}//a.png`,
      'ipfs://127.0.0.1:8080/x',
      'ipfs://@127.0.0.1/x',
      'ipfs://not-a-cid',
      'ipfs://',
      `IPFS://${CID_V1}`,
      `ar://${ARWEAVE_ID}/../x`,
      `ar://${ARWEAVE_ID}?x=1`,
      'ar://short',
      ` ipfs://${CID_V1}`,
      `ipfs://${CID_V1}\n`,
      `ipfs://${CID_V1}/${'a'.repeat(AVATAR_RECORD_MAX_LENGTH)}`,
      '',
    ]
    for (const record of refused) expect([record, avatarUrl(record, gateways)]).toEqual([record, null])
  })
})

describe('avatarRecordProblem (the spec’s words for a record that gives no image)', () => {
  test('error: an NFT record viem cannot parse gives viem’s “ENS NFT avatar URI is invalid …”, with its reason', async () => {
    expect(await avatarRecordProblem('eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB')).toBe(
      'ENS NFT avatar URI is invalid. Token ID not found',
    )
    expect(await avatarRecordProblem('eip155:1/erc721:')).toBe(
      'ENS NFT avatar URI is invalid. Contract address not found',
    )
  })

  test('error: any other record without an image (a well-formed NFT, which is not followed; a CID the gateway lacks; a URL) gives viem’s “Unable to resolve ENS avatar URI …”', async () => {
    for (const record of [
      'eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB/2430',
      `ipfs://${CID_V1}`,
      'https://example.org/me.png',
    ]) {
      expect(await avatarRecordProblem(record)).toBe(
        `Unable to resolve ENS avatar URI "${record}". The URI may be malformed, invalid, or does not respond with a valid image.`,
      )
    }
  })

  test('behavior: no request leaves the server while finding out (the record is not followed)', async () => {
    const fetched: string[] = []
    const original = globalThis.fetch
    globalThis.fetch = async (input) => {
      fetched.push(String(input))
      throw new Error('no request may be made')
    }
    try {
      await avatarRecordProblem('eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB/2430')
      await avatarRecordProblem(`ipfs://${CID_V1}`)
    } finally {
      globalThis.fetch = original
    }
    expect(fetched).toEqual([])
  })
})
