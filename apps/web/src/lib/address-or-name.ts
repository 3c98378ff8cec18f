// A field that takes an address or a name (a delegate, a payment's recipient): what it holds, and the name
// resolved by the server once typing pauses.
import { type Address, getAddress, isAddress } from 'viem'
import { useDebouncedValue } from './debounced-value.ts'
import { useResolvedName } from './resolve-name.ts'

/** A pause in typing this long asks the server for the name typed so far. */
const NAME_LOOKUP_DEBOUNCE_MS = 400

/** What the field holds: nothing, an address, something meant as one that is not, or a name. */
type AddressOrName =
  | { kind: 'empty' }
  | { kind: 'address'; address: Address }
  | { kind: 'bad-address' }
  | { kind: 'name'; name: string }

function readAddressOrName(text: string): AddressOrName {
  const value = text.trim()
  if (value === '') return { kind: 'empty' }
  if (isAddress(value, { strict: false })) return { kind: 'address', address: getAddress(value) }
  if (/^0x/i.test(value)) return { kind: 'bad-address' }
  return { kind: 'name', name: value }
}

/**
 * The field's `text` read, and a typed name resolved: `resolving` while the name typed is the one asked
 * (`resolution` its query, `resolved` its answer); `lookUpNow` asks at once (a submit that must not wait).
 */
export function useAddressOrName(text: string) {
  const target = readAddressOrName(text)
  const typedName = target.kind === 'name' ? target.name : undefined
  const [lookup, lookUpNow] = useDebouncedValue(typedName, NAME_LOOKUP_DEBOUNCE_MS)
  const resolution = useResolvedName(lookup)
  const resolving = typedName !== undefined && lookup === typedName
  const resolved = resolving ? resolution.data : undefined
  return { target, typedName, resolving, resolution, resolved, lookUpNow }
}
