// A MultiSend batch's calls, when a Safe transaction DELEGATECALLs multiSend(bytes); null for anything else.
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  hexToBigInt,
  hexToNumber,
  parseAbi,
  sliceHex,
} from 'viem'

const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

export type BatchCall = { operation: number; to: Address; value: bigint; data: Hex }

export function decodeBatch(_to: Address, data: Hex): BatchCall[] | null {
  let packed: Hex
  try {
    packed = decodeFunctionData({ abi: multiSendAbi, data }).args[0]
  } catch {
    return null
  }
  const calls: BatchCall[] = []
  let at = 0
  const size = (packed.length - 2) / 2
  while (at < size) {
    if (at + 85 > size) return null
    const operation = hexToNumber(sliceHex(packed, at, at + 1))
    const to = getAddress(sliceHex(packed, at + 1, at + 21))
    const value = hexToBigInt(sliceHex(packed, at + 21, at + 53))
    const length = Number(hexToBigInt(sliceHex(packed, at + 53, at + 85)))
    if (at + 85 + length > size) return null
    calls.push({
      operation,
      to,
      value,
      data: length === 0 ? '0x' : sliceHex(packed, at + 85, at + 85 + length),
    })
    at += 85 + length
  }
  return calls
}
