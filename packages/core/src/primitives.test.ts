import fc from 'fast-check'
import { type Address, bytesToHex, checksumAddress, maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { governanceRulesSchema } from './config.ts'
import { loadWasmKeccak } from './keccak.ts'
import {
  bytes32Schema,
  checksummedAddressSchema,
  isChecksummedAddress,
  SIGNATURE_MAX_BYTES,
  signatureSchema,
  tokenAmountSchema,
} from './primitives.ts'

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message)

describe('tokenAmountSchema (signed proposals and the configured rules)', () => {
  test('boundary: 0 and the largest uint256 are taken, one more is refused', () => {
    expect(tokenAmountSchema.safeParse('0').success).toBe(true)
    expect(tokenAmountSchema.safeParse(String(maxUint256)).success).toBe(true)
    expect(messages(tokenAmountSchema.safeParse(String(maxUint256 + 1n)))).toEqual(['must fit in uint256'])
  })

  test.each(['01', '-1', '1.5', '1e18', ' 1', ''])('parameters: %j is not a token amount', (value) => {
    expect(messages(tokenAmountSchema.safeParse(value))).toEqual([
      'must be a whole number of token units (base units, like 1000000000000000000), as a decimal string',
    ])
  })

  test('behavior: the configured quorum and threshold are read with it', () => {
    const rules = (quorum: string) =>
      governanceRulesSchema.safeParse({ quorum, threshold: '1', abstainCountsToQuorum: true })
    expect(rules(String(maxUint256)).success).toBe(true)
    expect(rules('01').success).toBe(false)
  })
})

describe('bytes32Schema and signatureSchema', () => {
  test('parameters: a digest is 0x and 64 lower-case hex digits', () => {
    expect(bytes32Schema.safeParse(`0x${'ab'.repeat(32)}`).success).toBe(true)
    expect(bytes32Schema.safeParse(`0x${'AB'.repeat(32)}`).success).toBe(false)
    expect(bytes32Schema.safeParse(`0x${'ab'.repeat(31)}`).success).toBe(false)
  })

  test('boundary: an empty signature and one of SIGNATURE_MAX_BYTES are taken; half a byte or one more byte is not', () => {
    expect(signatureSchema.safeParse('0x').success).toBe(true)
    expect(signatureSchema.safeParse(`0x${'ab'.repeat(SIGNATURE_MAX_BYTES)}`).success).toBe(true)
    expect(messages(signatureSchema.safeParse('0xabc'))).toEqual([
      'must be 0x followed by whole bytes of hex',
    ])
    expect(messages(signatureSchema.safeParse(`0x${'ab'.repeat(SIGNATURE_MAX_BYTES + 1)}`))).toEqual([
      `must be at most ${SIGNATURE_MAX_BYTES} bytes`,
    ])
  })
})

describe('isChecksummedAddress and checksummedAddressSchema', () => {
  // Any address in any mix of cases: checksummed as viem's checksumAddress writes it, or not.
  const anyCasing = fc
    .tuple(
      fc.uint8Array({ minLength: 20, maxLength: 20 }),
      fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    )
    .map(([bytes, upper]) => {
      const digits = bytesToHex(bytes).slice(2)
      return `0x${[...digits].map((digit, i) => (upper[i] ? digit.toUpperCase() : digit)).join('')}`
    })
  const agreesWithViem = () =>
    fc.assert(
      fc.property(
        fc.oneof(
          anyCasing,
          anyCasing.map((a) => checksumAddress(a as Address)),
        ),
        (address) => {
          expect(isChecksummedAddress(address)).toBe(checksumAddress(address as Address) === address)
        },
      ),
      { numRuns: 500 },
    )

  test('property: with noble, then with the WebAssembly Keccak loaded, it answers as viem does for any casing', async () => {
    agreesWithViem()
    await loadWasmKeccak()
    agreesWithViem()
  })

  test('parameters: the schema takes the checksummed address only; anything else is refused with its reason', () => {
    const address = '0x52908400098527886E0F7030069857D2E4169EE7' // EIP-55's own example
    expect(checksummedAddressSchema.safeParse(address).success).toBe(true)
    expect(messages(checksummedAddressSchema.safeParse(address.toLowerCase()))).toEqual([
      'must be EIP-55 checksummed',
    ])
    // zod runs both checks: a malformed address is not a checksummed one either.
    expect(messages(checksummedAddressSchema.safeParse(`${address}0`))).toEqual([
      'must be 0x followed by 40 hex digits',
      'must be EIP-55 checksummed',
    ])
    expect(isChecksummedAddress(`${address.slice(0, -1)}g`)).toBe(false)
    expect(isChecksummedAddress('')).toBe(false)
  })
})
