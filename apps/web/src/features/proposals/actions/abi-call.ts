// A contract call built from a pasted ABI: the ABI read with viem (JSON, a compiler's artifact with an `abi`
// field, or human-readable lines), the functions that can be called, and one call's data encoded from the
// text of each argument.
import {
  type AbiFunction,
  type AbiParameter,
  BaseError,
  encodeFunctionData,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  parseAbi,
} from 'viem'

/** A function an action may call: what changes state (a view or pure function would do nothing). */
const callable = (item: { type: string; stateMutability?: string }): item is AbiFunction =>
  item.type === 'function' && item.stateMutability !== 'view' && item.stateMutability !== 'pure'

/** viem's short sentence, or the error's own. */
const reason = (error: unknown) =>
  error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error)

/** The callable functions of a pasted ABI, or why it cannot be read. */
export function readAbi(text: string): { functions: AbiFunction[] } | { error: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { error: 'Paste the contract’s ABI.' }
  let items: readonly { type: string }[]
  try {
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      const parsed: unknown = JSON.parse(trimmed)
      const abi = Array.isArray(parsed) ? parsed : (parsed as { abi?: unknown }).abi
      if (!Array.isArray(abi))
        return { error: 'The JSON is not an ABI: an array, or an object with an "abi" array.' }
      items = abi
    } else {
      items = parseAbi(
        trimmed
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      )
    }
  } catch (error) {
    return { error: `The ABI could not be read: ${reason(error)}` }
  }
  const functions = items.filter(callable)
  if (functions.length === 0) return { error: 'The ABI has no function that changes state.' }
  return { functions }
}

/** A function as people read it: `transfer(address to, uint256 amount)`. */
export function functionSignature(fn: AbiFunction): string {
  return `${fn.name}(${fn.inputs.map((input) => [input.type, input.name].filter(Boolean).join(' ')).join(', ')})`
}

/** What to type for a parameter, shown as its field's hint. */
export function argumentHint(parameter: AbiParameter): string {
  const { type } = parameter
  if (type.endsWith(']') || type === 'tuple') return 'JSON, e.g. ["0x…", "1"]'
  if (type === 'address') return '0x…'
  if (type === 'bool') return 'true or false'
  if (type.startsWith('uint') || type.startsWith('int')) return 'a whole number, in base units'
  if (type.startsWith('bytes')) return '0x… hex'
  return 'text'
}

/** One argument's value from its text (arrays and tuples as JSON, numbers as decimal strings). */
function argumentValue(parameter: AbiParameter, value: unknown): unknown {
  const { type } = parameter
  const array = type.match(/^(.*)\[(\d*)\]$/)
  if (array) {
    const items = typeof value === 'string' ? JSON.parse(value) : value
    if (!Array.isArray(items)) throw new Error(`${type}: a JSON array is expected`)
    return items.map((item) => argumentValue({ ...parameter, type: array[1] as string }, item))
  }
  if (type === 'tuple') {
    const components = (parameter as { components?: readonly AbiParameter[] }).components ?? []
    const items = typeof value === 'string' ? JSON.parse(value) : value
    if (!Array.isArray(items) || items.length !== components.length) {
      throw new Error(`tuple: a JSON array of ${components.length} values is expected`)
    }
    return items.map((item, index) => argumentValue(components[index] as AbiParameter, item))
  }
  const text = String(value).trim()
  if (type === 'address') {
    if (!isAddress(text, { strict: false })) throw new Error(`"${text}" is not an address`)
    return getAddress(text)
  }
  if (type === 'bool') {
    if (text !== 'true' && text !== 'false') throw new Error(`"${text}" is not true or false`)
    return text === 'true'
  }
  if (type.startsWith('uint') || type.startsWith('int')) {
    if (!/^-?\d+$/.test(text)) throw new Error(`"${text}" is not a whole number`)
    return BigInt(text)
  }
  if (type.startsWith('bytes')) {
    if (!isHex(text)) throw new Error(`"${text}" is not 0x-prefixed hex`)
    return text
  }
  return text
}

/** The call's data, or the first argument that does not fit (named), or viem's reason. */
export function encodeCall(fn: AbiFunction, texts: readonly string[]): { data: Hex } | { error: string } {
  const args: unknown[] = []
  for (const [index, input] of fn.inputs.entries()) {
    try {
      args.push(argumentValue(input, texts[index] ?? ''))
    } catch (error) {
      return { error: `${input.name || `Argument ${index + 1}`}: ${reason(error)}` }
    }
  }
  try {
    return { data: encodeFunctionData({ abi: [fn], functionName: fn.name, args }) }
  } catch (error) {
    return { error: reason(error) }
  }
}
