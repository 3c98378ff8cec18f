/**
 * Safe's MultiSendCallOnly (ADR 048): the one contract a proposal's Safe transaction DELEGATECALLs, which
 * runs a packed batch of calls and reverts the whole batch if any call fails or asks for a DELEGATECALL.
 * Its canonical deployments, and the packed encoding it reads: per call, operation (1 byte), to (20),
 * value (32), data length (32), data.
 */
import {
  type Address,
  bytesToHex,
  concatHex,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type Hex,
  hexToBigInt,
  hexToBytes,
  numberToHex,
  parseAbi,
} from 'viem'

/** Safe's `Enum.Operation`. */
export const OPERATION_CALL = 0
export const OPERATION_DELEGATE_CALL = 1

export const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

/**
 * MultiSendCallOnly per Safe release: the address Safe deployed it at and the keccak256 of its runtime
 * code, each checked against its release's npm artifact (packages/devchain/src/safe-transaction.test.ts).
 * Safe deployed 1.3.0 twice (through two deployment factories), at two addresses with the same code.
 */
export const MULTI_SEND_CALL_ONLY = {
  '1.3.0': {
    address: '0x40A2aCCbd92BCA938b02010E17A5b8929b49130D',
    otherAddresses: ['0xA1dabEF33b3B82c7814B6D82A79e50F4AC44102B'],
    codeHash: '0xa9865ac2d9c7a1591619b188c4d88167b50df6cc0c5327fcbd1c8c75f7c066ad',
  },
  '1.4.1': {
    address: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
    otherAddresses: [],
    codeHash: '0xecd5bd14a08c5d2122379900b2f272bdf107a7e92423c10dd5fe3254386c9939',
  },
  '1.5.0': {
    address: '0xA83c336B20401Af773B6219BA5027174338D1836',
    otherAddresses: [],
    codeHash: '0xcdbdcec38d2f1c7d961b0029ff8416b7e86e9974d6f0e9c9580c7d17fcfb6663',
  },
} as const satisfies Record<string, { address: Address; otherAddresses: readonly Address[]; codeHash: Hex }>
export type MultiSendVersion = keyof typeof MULTI_SEND_CALL_ONLY

/**
 * Whether `address` is an official MultiSendCallOnly and the code found there (its keccak256) is that
 * release's: the only contract a Guildhall Safe transaction may DELEGATECALL. Both, since a chain may have
 * other code at a canonical address (no deployment there, or a chain with different CREATE2 rules).
 */
export function isCanonicalMultiSendCallOnly(address: Address, codeHash: Hex): boolean {
  const lowerAddress = address.toLowerCase()
  const lowerHash = codeHash.toLowerCase()
  return Object.values(MULTI_SEND_CALL_ONLY).some(
    (release) =>
      release.codeHash === lowerHash &&
      [release.address, ...release.otherAddresses].some((known) => known.toLowerCase() === lowerAddress),
  )
}

/** One call of a batch as MultiSend reads it. */
export type MultiSendCall = { operation: number; to: Address; value: bigint; data: Hex }

/** A call to send: always a CALL, the only operation MultiSendCallOnly runs. */
type MultiSendInput = { target: Address; value: bigint | string; data: Hex }

/** `multiSend(packed)` calldata for these calls, each a CALL. */
export function encodeMultiSend(calls: readonly MultiSendInput[]): Hex {
  const packed = concatHex(
    calls.map(({ target, value, data }) =>
      concatHex([
        numberToHex(OPERATION_CALL, { size: 1 }),
        target,
        numberToHex(BigInt(value), { size: 32 }),
        numberToHex((data.length - 2) / 2, { size: 32 }),
        data,
      ]),
    ),
  )
  return encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
}

/** A batch MultiSend would not run as read: what it is not. */
export class MultiSendFormatError extends Error {
  override name = 'MultiSendFormatError'
}

/**
 * The calls in `multiSend(packed)` calldata, as the contract reads them (operations included, so a
 * DELEGATECALL inside is seen, not hidden). Throws MultiSendFormatError on anything else: another
 * function, or packed bytes that end mid-call.
 */
export function decodeMultiSend(data: Hex): MultiSendCall[] {
  let packed: Hex
  try {
    const decoded = decodeFunctionData({ abi: multiSendAbi, data })
    packed = decoded.args[0]
  } catch {
    throw new MultiSendFormatError('Not a multiSend(bytes) call.')
  }
  const bytes = hexToBytes(packed)
  const calls: MultiSendCall[] = []
  let at = 0
  while (at < bytes.length) {
    if (at + 85 > bytes.length) {
      throw new MultiSendFormatError(`The batch ends inside call ${calls.length + 1}'s header.`)
    }
    const length = hexToBigInt(bytesToHex(bytes.subarray(at + 53, at + 85)))
    if (length > BigInt(bytes.length - at - 85)) {
      throw new MultiSendFormatError(`Call ${calls.length + 1}'s data runs past the end of the batch.`)
    }
    const end = at + 85 + Number(length)
    calls.push({
      operation: bytes[at] as number,
      to: getAddress(bytesToHex(bytes.subarray(at + 1, at + 21))),
      value: hexToBigInt(bytesToHex(bytes.subarray(at + 21, at + 53))),
      data: bytesToHex(bytes.subarray(at + 85, end)),
    })
    at = end
  }
  return calls
}
