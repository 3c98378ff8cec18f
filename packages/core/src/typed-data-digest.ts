/**
 * EIP-712 digests of the messages this app signs (governance and discussion): what viem's hashTypedData
 * answers, with the work that is the same for every message done once. The server takes an id for every
 * vote, and a recount checks 100,000 of them in the member's browser.
 * - The domain's separator is hashed once per domain object.
 * - Each type's hash (its encodeType string, hashed) is computed once per types object.
 * - Fields are encoded into bytes directly, each a 32-byte word, rather than through viem's general ABI
 *   encoder: for EIP-712's struct encoding every word is static, so the encoding is their concatenation.
 * - Each keccak is core's `keccak256Bytes`: in WebAssembly where the thread has loaded it (ADR 086).
 * The message is validated first as hashTypedData validates it (ranges, addresses, byte sizes), so the
 * encoding below may take its values as valid. The ethers vectors and every message kind hold it equal to
 * viem's (governance/messages.test.ts).
 */
import {
  bytesToHex,
  concatBytes,
  domainSeparator,
  type Hex,
  hexToBytes,
  stringToBytes,
  type TypedDataDefinition,
  type TypedDataDomain,
  validateTypedData,
} from 'viem'
import { keccak256Bytes } from './keccak.ts'

type Field = { readonly name: string; readonly type: string }
type Types = Readonly<Record<string, readonly Field[]>>

const separators = new WeakMap<TypedDataDomain, Uint8Array>()
const typeHashes = new WeakMap<Types, Map<string, Uint8Array>>()
const DIGEST_PREFIX = new Uint8Array([0x19, 0x01])
const ARRAY = /^(.*)\[(\d*)\]$/

/** The digest a wallet signs for `typed`: keccak256(0x1901 ‖ domain separator ‖ hashStruct(message)). */
export function typedDataDigest({ domain = {}, types, primaryType, message }: TypedDataDefinition): Hex {
  validateTypedData({ domain, types, primaryType, message } as TypedDataDefinition)
  let separator = separators.get(domain)
  if (!separator) {
    separator = hexToBytes(domainSeparator({ domain }))
    separators.set(domain, separator)
  }
  const structHash = keccak256Bytes(
    encodeData(types as Types, primaryType as string, message as Record<string, unknown>),
  )
  return bytesToHex(keccak256Bytes(concatBytes([DIGEST_PREFIX, separator, structHash])))
}

/** typeHash ‖ each field's word. */
function encodeData(types: Types, primaryType: string, data: Record<string, unknown>): Uint8Array {
  const fields = types[primaryType] ?? []
  const encoded = new Uint8Array(32 * (fields.length + 1))
  encoded.set(typeHash(types, primaryType), 0)
  for (const [index, field] of fields.entries())
    encoded.set(encodeField(types, field.type, data[field.name]), 32 * (index + 1))
  return encoded
}

function encodeField(types: Types, type: string, value: unknown): Uint8Array {
  if (types[type] !== undefined)
    return keccak256Bytes(encodeData(types, type, value as Record<string, unknown>))
  if (type === 'bytes') return keccak256Bytes(hexToBytes(value as Hex))
  if (type === 'string') return keccak256Bytes(stringToBytes(value as string))
  const array = ARRAY.exec(type)
  if (array) {
    const items = value as readonly unknown[]
    const words = new Uint8Array(32 * items.length)
    for (const [index, item] of items.entries())
      words.set(encodeField(types, array[1] as string, item), 32 * index)
    return keccak256Bytes(words)
  }
  return encodeAtomic(type, value)
}

/** One word: numbers big-endian (two's complement when signed), addresses left-padded, bytesN right-padded. */
function encodeAtomic(type: string, value: unknown): Uint8Array {
  const word = new Uint8Array(32)
  if (type === 'address') word.set(hexToBytes(value as Hex), 12)
  else if (type === 'bool') {
    // validateTypedData leaves booleans to the encoder, which refuses anything else, as viem's does.
    if (typeof value !== 'boolean') throw new Error(`Invalid EIP-712 bool: ${String(value)}`)
    word[31] = value ? 1 : 0
  } else if (type.startsWith('bytes')) word.set(hexToBytes(value as Hex), 0)
  else if (type.startsWith('uint') || type.startsWith('int')) {
    let number = BigInt.asUintN(256, BigInt(value as bigint | number | string))
    for (let index = 31; index >= 0 && number > 0n; index--) {
      word[index] = Number(number & 0xffn)
      number >>= 8n
    }
  } else throw new Error(`Unknown EIP-712 type: ${type}`)
  return word
}

/** keccak256 of the type's encodeType string: the type, then the structs it uses in name order. */
function typeHash(types: Types, primaryType: string): Uint8Array {
  let ofTypes = typeHashes.get(types)
  if (!ofTypes) {
    ofTypes = new Map()
    typeHashes.set(types, ofTypes)
  }
  let known = ofTypes.get(primaryType)
  if (!known) {
    const used = new Set<string>()
    const collect = (type: string) => {
      const base = type.replace(/(\[\d*\])+$/, '')
      if (used.has(base) || types[base] === undefined) return
      used.add(base)
      for (const field of types[base]) collect(field.type)
    }
    collect(primaryType)
    used.delete(primaryType)
    const encodeType = [primaryType, ...[...used].sort()]
      .map(
        (type) => `${type}(${(types[type] ?? []).map((field) => `${field.type} ${field.name}`).join(',')})`,
      )
      .join('')
    known = keccak256Bytes(stringToBytes(encodeType))
    ofTypes.set(primaryType, known)
  }
  return known
}
