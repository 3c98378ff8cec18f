import { maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { governanceRulesSchema } from './config.ts'
import { bytes32Schema, SIGNATURE_MAX_BYTES, signatureSchema, tokenAmountSchema } from './primitives.ts'

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
