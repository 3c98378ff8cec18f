import { formatUnits } from 'viem'
import { ADDRESS_SHORTEN_KEEP, ADDRESS_SHORTEN_MIN_LENGTH, NAME_MAX_LENGTH } from './constants.ts'

/** `0x1234…abcd`: first and last 4 characters; anything shorter than 8 characters is shown whole. */
export function shortenAddress(address: string): string {
  if (address.length < ADDRESS_SHORTEN_MIN_LENGTH) return address
  return `${address.slice(0, ADDRESS_SHORTEN_KEEP)}…${address.slice(-ADDRESS_SHORTEN_KEEP)}`
}

/** Names (ENS) whose label part is longer than 24 characters are cut there, as the account button does. */
export function shortenName(name: string): string {
  const parts = name.split('.')
  const tld = parts.pop()
  const label = parts.join('.')
  if (label.length > NAME_MAX_LENGTH) return `${label.slice(0, NAME_MAX_LENGTH)}...`
  return label ? `${label}.${tld}` : (tld ?? '')
}

/** A name if there is one, else the shortened address. */
export function displayName(address: string, name?: string | null): string {
  return name ? shortenName(name) : shortenAddress(address)
}

const SUFFIXES = ['k', 'm', 'b', 't'] as const

/** Cuts (never rounds) to `precision` decimals and drops trailing zeros. */
function cut(value: number, precision: number): string {
  const factor = 10 ** precision
  const text = (Math.trunc(value * factor) / factor).toFixed(precision)
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

/** Shortens a balance like the account button: 0.123, 12.34, 1,234.5, then 12.3k, 4.5m, 6.7b, 8.9t. */
export function abbreviateNumber(value: number): string {
  if (value < 1) return cut(value, 3)
  if (value < 100) return cut(value, 2)
  if (value < 10_000) return Number(cut(value, 1)).toLocaleString('en-US')
  for (let i = SUFFIXES.length - 1; i >= 0; i--) {
    const size = 10 ** ((i + 1) * 3)
    if (value >= size) return `${cut(value / size, 1)}${SUFFIXES[i]}`
  }
  return cut(value, 1)
}

/** A token amount (bigint in base units) shortened for display, e.g. 1500 GHD → "1.5k". */
export function abbreviateTokenAmount(amount: bigint, decimals: number): string {
  return abbreviateNumber(Number(formatUnits(amount, decimals)))
}

/** A token amount with thousands separators and at most `maxFraction` decimals, never abbreviated. */
export function formatTokenAmount(amount: bigint, decimals: number, maxFraction = 2): string {
  const [whole = '0', fraction = ''] = formatUnits(amount, decimals).split('.')
  const grouped = BigInt(whole).toLocaleString('en-US')
  const cut = fraction.slice(0, maxFraction).replace(/0+$/, '')
  return cut ? `${grouped}.${cut}` : grouped
}
