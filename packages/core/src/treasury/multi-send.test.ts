import fc from 'fast-check'
import {
  bytesToHex,
  checksumAddress,
  concatHex,
  encodeFunctionData,
  type Hex,
  maxUint256,
  numberToHex,
  zeroAddress,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { GOVERNANCE_LIMITS } from '../governance/rules.ts'
import {
  decodeMultiSend,
  encodeMultiSend,
  isCanonicalMultiSendCallOnly,
  MULTI_SEND_CALL_ONLY,
  MultiSendFormatError,
  multiSendAbi,
} from './multi-send.ts'

const addressArb = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => checksumAddress(bytesToHex(b)))
const callArb = fc.record({
  target: addressArb,
  value: fc.bigInt({ min: 0n, max: maxUint256 }),
  data: fc.uint8Array({ maxLength: 300 }).map((b) => bytesToHex(b)),
})

const packed = (parts: Hex[]) =>
  encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [concatHex(parts)] })

describe('encodeMultiSend / decodeMultiSend', () => {
  test('property: any batch of CALLs decodes back to itself, each with operation 0', () => {
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: GOVERNANCE_LIMITS.actionsMax }), (calls) => {
        const decoded = decodeMultiSend(encodeMultiSend(calls))
        expect(decoded).toEqual(
          calls.map(({ target, value, data }) => ({ operation: 0, to: target, value, data })),
        )
      }),
    )
  })

  test("behavior: the packing is MultiSend's: operation, to, value, data length, data, back to back", () => {
    const target = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    expect(encodeMultiSend([{ target, value: 5n, data: '0xabcd' }])).toBe(
      packed(['0x00', target, numberToHex(5, { size: 32 }), numberToHex(2, { size: 32 }), '0xabcd']),
    )
  })

  test('behavior: a DELEGATECALL inside a batch is decoded as one, not hidden', () => {
    const header = (operation: number, length: number) =>
      concatHex([
        numberToHex(operation, { size: 1 }),
        '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        numberToHex(0, { size: 32 }),
        numberToHex(length, { size: 32 }),
      ])
    expect(decodeMultiSend(packed([header(1, 1), '0xff'])).map((call) => call.operation)).toEqual([1])
  })

  test('behavior: another function, or packed bytes cut inside a call, are refused with MultiSendFormatError', () => {
    expect(() => decodeMultiSend('0x12345678')).toThrow(MultiSendFormatError)
    const cutHeader = concatHex(['0x00', zeroAddress, numberToHex(0, { size: 16 })])
    expect(() => decodeMultiSend(packed([cutHeader]))).toThrow("The batch ends inside call 1's header.")
    const longData = concatHex([
      '0x00',
      zeroAddress,
      numberToHex(0, { size: 32 }),
      numberToHex(10, { size: 32 }),
      '0xab',
    ])
    expect(() => decodeMultiSend(packed([longData]))).toThrow("Call 1's data runs past the end of the batch.")
  })
})

describe('MULTI_SEND_CALL_ONLY', () => {
  test('behavior: each release is recognised at its own addresses with its own code hash, nothing else', () => {
    for (const release of Object.values(MULTI_SEND_CALL_ONLY)) {
      for (const address of [release.address, ...release.otherAddresses]) {
        expect(isCanonicalMultiSendCallOnly(address, release.codeHash)).toBe(true)
        expect(
          isCanonicalMultiSendCallOnly(
            address.toLowerCase() as Hex,
            release.codeHash.toUpperCase().replace('0X', '0x') as Hex,
          ),
        ).toBe(true)
        // The right address with other code: a chain where something else sits there.
        expect(isCanonicalMultiSendCallOnly(address, `0x${'00'.repeat(32)}`)).toBe(false)
      }
    }
    // One release's code at another release's address is not a deployment either.
    expect(
      isCanonicalMultiSendCallOnly(
        MULTI_SEND_CALL_ONLY['1.5.0'].address,
        MULTI_SEND_CALL_ONLY['1.4.1'].codeHash,
      ),
    ).toBe(false)
    expect(
      isCanonicalMultiSendCallOnly(
        '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        MULTI_SEND_CALL_ONLY['1.5.0'].codeHash,
      ),
    ).toBe(false)
  })
})
